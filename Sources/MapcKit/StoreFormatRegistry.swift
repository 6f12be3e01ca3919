import Foundation
import MapRuntime

/// Store formats an app adds to the ones mapc knows (`StoreFormatChoice`). An executable that
/// embeds mapc registers its formats before it runs a command, as it registers its policies:
///
/// ```swift
/// try StoreFormatRegistry.register(LinesStoreFormat())
/// MapcCommand.main()
/// ```
///
/// `--store-format`, `store convert --to` and an output's extension then name it, and content
/// detection tries it after Core Data SQLite and before JSON, the format of last resort.
public enum StoreFormatRegistry {
  private static let lock = NSLock()
  // unsafe: read and written only under `lock`.
  nonisolated(unsafe) private static var registered: [any StoreFormat] = []

  /// Adds `format`. A name a built-in or an already registered format has is refused
  /// (`store-format-name-taken`, exit status 64), and nothing is added.
  public static func register(_ format: any StoreFormat) throws(MapcError) {
    lock.lock()
    defer { lock.unlock() }
    let taken = StoreFormatChoice.builtIn(compact: false).map(\.name) + registered.map(\.name)
    guard !taken.contains(format.name.lowercased()), !format.name.isEmpty else {
      throw .stopped(
        message:
          "cannot register a store format named '\(format.name)': \(format.name.isEmpty ? "a format needs a name" : "a format of that name is registered already") (formats: \(taken.joined(separator: ", ")))",
        id: "store-format-name-taken", place: nil, notes: [], status: .usage)
    }
    registered.append(format)
  }

  /// Removes the format named `name` (for tests that register formats of their own).
  public static func unregister(_ name: String) {
    lock.lock()
    defer { lock.unlock() }
    registered.removeAll { $0.name == name }
  }

  /// The registered formats, in the order they were registered.
  public static var formats: [any StoreFormat] {
    lock.lock()
    defer { lock.unlock() }
    return registered
  }
}
