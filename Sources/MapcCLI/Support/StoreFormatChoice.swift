import MapRuntime
import MapSQLite

/// The store formats the `mapc` commands know, and the one a command's `--store-format` and the
/// store's content pick.
enum StoreFormatChoice {
  static var formats: [any StoreFormat] { [SQLiteStoreFormat()] + StoreFormats.builtIn }

  static var help: String {
    "The store's format: \(formats.map(\.name).joined(separator: " or ")) (default: found from the file's content)."
  }

  static func detect(_ path: String) -> any StoreFormat { StoreFormats.detect(path, among: formats) }

  static func resolve(_ name: String?, path: String) throws(MigrationFailure) -> any StoreFormat {
    try StoreFormats.resolve(name, path: path, among: formats)
  }
}
