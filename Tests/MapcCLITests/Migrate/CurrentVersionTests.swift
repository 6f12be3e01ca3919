import Foundation
import MapTestSupport
import Testing

/// A bundle whose `.xccurrentversion` names a version it does not hold (a repository that left
/// newer versions out): `migrate`, like `hash`, refuses it rather than taking the store to
/// another version unsaid (`Specs/migrate.md` §1). Found on a real app's bundle.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct CurrentVersionTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  @Test func aCurrentVersionTheBundleDoesNotHoldIsRefused() throws {
    let dir = try FileManagerTemp.folder("current-version")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(
      versions: [("M", Self.model), ("M 2", Self.model.replacingOccurrences(of: "\"name\"", with: "\"title\""))],
      named: "M", in: dir, current: "M 13")
    let json = dir.appendingPathComponent("s.json")
    try Data(#"{"metadata": {"entityVersionHashes": {}}, "objects": {}}"#.utf8).write(to: json)
    let out = dir.appendingPathComponent("o.json").path
    for command in [
      ["migrate", "--model", bundle.path, "--store", json.path, "--output", out], ["hash", bundle.path],
    ] {
      let r = runMapc(command)
      #expect(r.exitCode == 1, "\(command[0]): \(r.stderr)")
      #expect(r.stderr.contains("[model-current-version]") && r.stderr.contains("M 13"), "\(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
