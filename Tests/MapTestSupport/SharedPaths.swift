import Foundation

/// Where the shared material (`../shared` beside the package) is, and helpers to skip tests
/// cleanly when it is absent.
public enum SharedPaths {
  /// The package root: three levels above this file (`Tests/MapTestSupport/SharedPaths.swift`).
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared`, or nil when it is not there (tests that need it are skipped with a message).
  /// `MAPC_SHARED=PATH` reads it from elsewhere; a PATH that does not exist runs the tests as on a
  /// machine without it.
  public static let shared: URL? = {
    let url =
      ProcessInfo.processInfo.environment["MAPC_SHARED"].map { URL(fileURLWithPath: $0) }
      ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
      ? url : nil
  }()

  public static var corpus: URL? { shared?.appendingPathComponent("corpus") }
  public static var fixtures: URL? { shared?.appendingPathComponent("fixtures") }
  public static var bench: URL? { shared?.appendingPathComponent("bench") }
  /// Real Core Data SQLite stores with their models (`stores/SOURCES.md`); read-only.
  public static var stores: URL? { shared?.appendingPathComponent("stores") }
  /// Real SwiftData stores (`swiftdata/SOURCES.md`); read-only.
  public static var swiftdata: URL? { shared?.appendingPathComponent("swiftdata") }

  /// Every `xcmapping.xml` of the corpus (inside its `.xcmappingmodel`), in path order; empty
  /// when the corpus is absent.
  public static var corpusMappingModelFiles: [URL] {
    guard let corpus else { return [] }
    let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)
    var files: [URL] = []
    while let url = enumerator?.nextObject() as? URL {
      if url.lastPathComponent == "xcmapping.xml" { files.append(url) }
    }
    return files.sorted { $0.path < $1.path }
  }

  /// Message for `.enabled(if:)` traits.
  public static let absentMessage = "../shared is absent: corpus and fixture tests are skipped"

  /// Every Swift file below `folder` of the package (for example "Sources/MapRuntime"), as its
  /// path relative to that folder and its text, in a stable order.
  public static func swiftFiles(under folder: String) throws -> [(relative: String, text: String)] {
    let root = packageRoot.appendingPathComponent(folder)
    let names = (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? [])
      .filter { $0.hasSuffix(".swift") }.sorted()
    return try names.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
  }
}
