import Foundation
import MapTestSupport
import Testing

/// An attribute that becomes mandatory without a default (Moonlight's `App.name` between its
/// first two versions, shipped with no mapping model): Core Data's builder infers the step, so
/// mapc does; a store whose objects all hold a value migrates, and one holding nil is refused
/// by the destination's validation, naming the object, with nothing written
/// (`Specs/migrate.md` §2).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct OptionalToMandatoryTests {
  static func model(optional: Bool) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="App" representedClassName="App" syncable="YES">
            <attribute name="name"\(optional ? " optional=\"YES\"" : "") attributeType="String"/>
        </entity>
    </model>
    """
  }

  @Test func theStepGoesOnWithoutNilsAndIsRefusedWithOne() throws {
    let dir = try FileManagerTemp.folder("optional-to-mandatory")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(
      versions: [("A", Self.model(optional: true)), ("A 2", Self.model(optional: false))], named: "A", in: dir,
      current: "A 2")
    let metadata = try ModelBundles.storeMetadata(bundle, version: "A")
    for (name, value) in [("full", "Moonlight" as Any), ("hole", NSNull() as Any)] {
      let json = dir.appendingPathComponent("\(name).json")
      let objects: [String: Any] = ["App": [["id": "App/1", "name": "x"], ["id": "App/2", "name": value]]]
      try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: json)
      let out = dir.appendingPathComponent("\(name)-2.json").path
      let r = runMapc(["migrate", "--model", bundle.path, "--store", json.path, "--output", out])
      if name == "full" {
        #expect(r.exitCode == 0, "\(r.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.contains("\"Moonlight\""))
      } else {
        #expect(r.exitCode != 0)
        #expect(r.stderr.contains("[run-validation-mandatory]") && r.stderr.contains("App/2"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
      }
    }
  }
}
