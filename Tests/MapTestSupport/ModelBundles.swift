import Foundation

/// Model bundles written from a model's `contents` text, and the JSON store metadata `mapc hash`
/// gives for them: what tests that build small stores of their own models start from.
public enum ModelBundles {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// `<name>.xcdatamodeld/<name>.xcdatamodel/contents` in `dir` (written once).
  public static func bundle(_ contents: String, named name: String, in dir: URL) throws -> URL {
    let bundle = dir.appendingPathComponent("\(name).xcdatamodeld")
    let version = bundle.appendingPathComponent("\(name).xcdatamodel")
    if !FileManager.default.fileExists(atPath: version.path) {
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try contents.write(to: version.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    return bundle
  }

  /// `<name>.xcdatamodeld` in `dir` with one `<version>.xcdatamodel/contents` per version, in
  /// the order given; with `current`, an `.xccurrentversion` naming that version.
  public static func bundle(
    versions: [(name: String, contents: String)], named name: String, in dir: URL, current: String? = nil
  ) throws -> URL {
    let bundle = dir.appendingPathComponent("\(name).xcdatamodeld")
    for (version, contents) in versions {
      let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: folder.appendingPathComponent("contents"))
    }
    if let current {
      let plist =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key>"
        + "<string>\(current).xcdatamodel</string></dict></plist>\n"
      try Data(plist.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
    }
    return bundle
  }

  /// The `metadata` of a JSON store of the bundle's model (of `version`, else its current one):
  /// its hashes and identifiers as `mapc hash --format json` prints them, marked as a mapc store.
  public static func storeMetadata(_ bundle: URL, version: String? = nil) throws -> [String: Any] {
    let hash = runMapc(["hash", bundle.path, "--format", "json"] + (version.map { ["--model-version", $0] } ?? []))
    guard hash.exitCode == 0,
      var metadata = try JSONSerialization.jsonObject(with: Data(hash.stdout.utf8)) as? [String: Any]
    else { throw Failure(description: "mapc hash \(bundle.path): \(hash.stderr)") }
    metadata["versionName"] = nil
    metadata["format"] = "mapc-store"
    metadata["formatVersion"] = 1
    return metadata
  }

  /// The Core Data SQLite store `mapc store import` makes, at `<name>.sqlite` in `dir`, of a JSON
  /// store of `bundle`'s model holding `objects` (entity name → its objects).
  public static func importedStore(_ bundle: URL, objects: [String: Any], named name: String = "s", in dir: URL)
    throws -> String
  {
    let json = dir.appendingPathComponent("\(name).json")
    try JSONSerialization.data(withJSONObject: ["metadata": try storeMetadata(bundle), "objects": objects])
      .write(to: json)
    let store = dir.appendingPathComponent("\(name).sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    guard r.exitCode == 0 else { throw Failure(description: "mapc store import \(json.path): \(r.stderr)") }
    return store
  }

  /// python3's sqlite3 running `statements` with the store at `path` open as `db`.
  public static func python(_ statements: String, on path: String) -> MapcResult {
    runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", "import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); " + statements, path])
  }
}
