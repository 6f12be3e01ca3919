import Foundation
import MapTestSupport
import Testing

/// Two root entities whose names differ only in case would share Core Data's table (`Z` + the
/// name upper-cased; Core Data's own naming makes no suffix either): refused, naming both, before
/// anything is written. Found by a sweep of unusual real models.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct TableNameCollisionTests {
  @Test func twoRootsThatShareATableAreNamed() throws {
    let dir = try FileManagerTemp.folder("table-collision")
    defer { FileManagerTemp.remove(dir.path) }
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
          <entity name="ABTest" representedClassName="ABTest" syncable="YES">
              <attribute name="name" optional="YES" attributeType="String"/>
          </entity>
          <entity name="AbTest" representedClassName="AbTest" syncable="YES">
              <attribute name="label" optional="YES" attributeType="String"/>
          </entity>
      </model>
      """
    let bundle = try ModelBundles.bundle(model, named: "C", in: dir)
    #expect(throws: (any Error).self) {
      _ = try ModelBundles.importedStore(bundle, objects: ["ABTest": [["id": "ABTest/1", "name": "a"]]], in: dir)
    }
    let json = dir.appendingPathComponent("s.json")
    let out = dir.appendingPathComponent("s.sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", out])
    #expect(r.stderr.contains("entities ABTest and AbTest would both have the table ZABTEST"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
