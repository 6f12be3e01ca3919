import MapRuntime
import MapcKit

/// How the commands name MapcKit's store formats in their help and check a store output.
extension StoreFormatChoice {
  /// The formats' names, as a list in prose: `sqlite or json`.
  static var names: String { formats.map(\.name).joined(separator: " or ") }

  static var help: String {
    "The store's format: \(names) (default: found from the file's content)."
  }

  /// How a store output written in the format of the store at `path` is checked before anything
  /// runs (`OutputTarget`): an SQLite store needs a regular file (SQLite opens it, with its
  /// companions), so a FIFO or device is refused at once (exit 64); another format may stream.
  static func outputKind(_ name: String?, store path: String) -> OutputTarget.OutputKind {
    ((try? resolve(name, path: path))?.hasCompanionFiles ?? false) ? .replacedStore : .store
  }
}
