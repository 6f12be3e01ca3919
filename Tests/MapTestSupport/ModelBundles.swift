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

  /// The `metadata` of a JSON store of the bundle's model: its hashes and identifiers as
  /// `mapc hash --format json` prints them, marked as a mapc store.
  public static func storeMetadata(_ bundle: URL) throws -> [String: Any] {
    let hash = runMapc(["hash", bundle.path, "--format", "json"])
    guard hash.exitCode == 0,
      var metadata = try JSONSerialization.jsonObject(with: Data(hash.stdout.utf8)) as? [String: Any]
    else { throw Failure(description: "mapc hash \(bundle.path): \(hash.stderr)") }
    metadata["versionName"] = nil
    metadata["format"] = "mapc-store"
    metadata["formatVersion"] = 1
    return metadata
  }
}
