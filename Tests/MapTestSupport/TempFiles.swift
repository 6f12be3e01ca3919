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

/// Replaces a file of the repository (a generated spec) whole: written beside it, then renamed
/// over it, so a test reading it at the same time sees the old text or the new, never a part.
/// (Foundation's `atomically: true` does the same through a folder in /tmp that it leaves
/// behind on Linux.)
public func replaceFile(_ path: String, with text: String) throws {
  let temporary = path + ".generating-\(getpid())"
  try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
  guard rename(temporary, path) == 0 else {
    try? FileManager.default.removeItem(atPath: temporary)
    throw CocoaError(.fileWriteUnknown)
  }
}
