import MapRuntime
import MapSQLite

/// The store formats the `mapc` commands know (the composition root: MapRuntime's store seam
/// knows none), and the one a command's `--store-format` and the store's content pick. JSON
/// comes last: a file no format recognizes is read as JSON, which says what is wrong with it.
enum StoreFormatChoice {
  static var formats: [any StoreFormat] { formats(compact: false) }

  /// `compact`: JSON stores are written compactly (`--compact`).
  static func formats(compact: Bool) -> [any StoreFormat] {
    [SQLiteStoreFormat(), JSONStoreFormat(style: compact ? .compact : .indented)]
  }

  static var help: String {
    "The store's format: \(formats.map(\.name).joined(separator: " or ")) (default: found from the file's content)."
  }

  static func detect(_ path: String) -> any StoreFormat { StoreFormats.detect(path, among: formats) }

  static func resolve(_ name: String?, path: String, compact: Bool = false) throws(MigrationFailure) -> any StoreFormat
  {
    try StoreFormats.resolve(name, path: path, among: formats(compact: compact))
  }
}
