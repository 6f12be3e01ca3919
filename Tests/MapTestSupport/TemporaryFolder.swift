import Foundation

/// A fresh folder under the system's temporary folder, removed when the value is dropped.
public final class TemporaryFolder {
  public let path: String

  public init() throws {
    path = try FileManagerTemp.folder("store-tests").path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Names of the entries in the folder, sorted.
  public func entries() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  public func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
  }

  public func read(_ name: String) throws -> String {
    try String(decoding: Data(contentsOf: URL(fileURLWithPath: path + "/" + name)), as: UTF8.self)
  }
}
