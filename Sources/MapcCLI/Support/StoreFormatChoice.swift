import MapJSON
import MapRuntime
import MapSQLite

/// The store formats the `mapc` commands know (the composition root: MapRuntime's store seam
/// knows none), and the one a command's `--store-format` and the store's content pick. JSON
/// comes last: a file no format recognizes is read as JSON, which says what is wrong with it.
///
/// This list is the one place a store format is added to mapc: a new format is a module (or a
/// folder) with a type conforming to `StoreFormat`, and one line here.
package enum StoreFormatChoice {
  /// `compact`: JSON stores are written compactly (`--compact`).
  package static func formats(compact: Bool) -> [any StoreFormat] {
    [
      SQLiteStoreFormat(),
      JSONStoreFormat(style: compact ? .compact : .indented),
    ]
  }

  package static var formats: [any StoreFormat] { formats(compact: false) }

  /// The formats' names, as a list in prose: `sqlite or json`.
  static var names: String { formats.map(\.name).joined(separator: " or ") }

  static var help: String {
    "The store's format: \(names) (default: found from the file's content)."
  }

  static func detect(_ path: String) -> any StoreFormat { StoreFormats.detect(path, among: formats) }

  static func resolve(_ name: String?, path: String, compact: Bool = false) throws(MigrationFailure) -> any StoreFormat
  {
    try StoreFormats.resolve(name, path: path, among: formats(compact: compact))
  }

  /// How a store output written in the format of the store at `path` is checked before anything
  /// runs (`OutputTarget`): an SQLite store needs a regular file (SQLite opens it, with its
  /// companions), so a FIFO or device is refused at once (exit 64); another format may stream.
  static func outputKind(_ name: String?, store path: String) -> OutputTarget.OutputKind {
    ((try? resolve(name, path: path))?.hasCompanionFiles ?? false) ? .replacedStore : .store
  }
}
