import Foundation

/// Unique paths in the temporary folder for tests that write files.
public enum FileManagerTemp {
  public static func path(_ name: String) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("mapc-test-\(UUID().uuidString)-\(name)").path
  }

  public static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }
}

extension FileManagerTemp {
  /// A new, empty folder at `path(name)`; the caller removes it (`remove(_:)`).
  public static func folder(_ name: String) throws -> URL {
    let url = URL(fileURLWithPath: path(name))
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
