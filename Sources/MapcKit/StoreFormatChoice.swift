import MapJSON
import MapRuntime
import MapSQLite

/// The store formats mapc knows (the composition root: MapRuntime's store seam knows none), and
/// the one a name (`--store-format`) and the store's content pick: Core Data SQLite, then the
/// formats an app registered (`StoreFormatRegistry`), then JSON. JSON comes last: a file no
/// format recognizes is read as JSON, which says what is wrong with it.
///
/// A new built-in format is a module (or a folder) with a type conforming to `StoreFormat`, and
/// one line in `builtIn`; an app's own format is one `StoreFormatRegistry.register` call.
public enum StoreFormatChoice {
  /// Every format, in the order content detection tries them; `compact`: JSON stores are
  /// written without whitespace (`--compact`).
  public static func formats(compact: Bool) -> [any StoreFormat] {
    let builtIn = builtIn(compact: compact)
    return builtIn.dropLast() + StoreFormatRegistry.formats + builtIn.suffix(1)
  }

  /// The formats mapc itself has, JSON (the format of last resort) last.
  static func builtIn(compact: Bool) -> [any StoreFormat] {
    [
      SQLiteStoreFormat(),
      JSONStoreFormat(style: compact ? .compact : .indented),
    ]
  }

  /// Every format, JSON stores written indented.
  public static var formats: [any StoreFormat] { formats(compact: false) }

  /// The format of the store at `path`, found from its content (JSON when none recognizes it).
  public static func detect(_ path: String) -> any StoreFormat { StoreFormats.detect(path, among: formats) }

  /// The format named `name`, else the one of the store at `path`'s content; an unknown name is
  /// a failure (`store-format-unknown`).
  public static func resolve(_ name: String?, path: String, compact: Bool = false) throws(MigrationFailure)
    -> any StoreFormat
  {
    try StoreFormats.resolve(name, path: path, among: formats(compact: compact))
  }
}
