import Foundation
import MapTestSupport
import Testing

/// Issue 24, item 7: an attribute named `id` (SwiftData models nearly always have one) no longer
/// collides with the JSON store's object ids, and objects keep their numbers (`Z_PK`) and each
/// hierarchy its `Z_MAX` through import and export. The model and store are written here; the
/// SQLite rows are read by python3's sqlite3, the JSON by Foundation's parser.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct ObjectIdentityTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="id" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
        </entity>
        <entity name="Owner" representedClassName="Owner" syncable="YES">
            <attribute name="id" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
        </entity>
    </model>
    """

  func folder(_ model: String = model) throws -> (URL, String) {
    let dir = try FileManagerTemp.folder("identity")
    return (dir, try ModelBundles.bundle(model, named: "M", in: dir).path)
  }

  func hashes(_ bundle: String) throws -> Any? {
    try ModelBundles.storeMetadata(URL(fileURLWithPath: bundle))["entityVersionHashes"]
  }

  @Test func idAttributesAndNumbersSurviveImportAndExport() throws {
    let (dir, bundle) = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store: [String: Any] = [
      "metadata": ["formatVersion": 2, "entityVersionHashes": try hashes(bundle), "mapcObjectKeyMax": ["Item": 9]],
      "objects": [
        "Item": [
          ["@id": "Item/3", "id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "a", "owner": "Owner/7"],
          ["@id": "Item/5", "id": NSNull(), "name": "b", "owner": "Owner/7"],
        ],
        "Owner": [["@id": "Owner/7", "id": "o-1", "items": ["Item/3", "Item/5"]]],
      ],
    ]
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: store).write(to: json)
    let sqlite = dir.appendingPathComponent("s.sqlite").path
    let i = runMapc(["store", "import", json.path, "--model", bundle, "-o", sqlite])
    try #require(i.exitCode == 0, "\(i.stderr)")

    let script = """
      import json, sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      print(json.dumps({
          "items": [[r[0], r[1], r[2], r[3]] for r in db.execute(
              "SELECT Z_PK, hex(ZID), ZNAME, ZOWNER FROM ZITEM ORDER BY Z_PK")],
          "owners": [[r[0], r[1]] for r in db.execute("SELECT Z_PK, ZID FROM ZOWNER")],
          "max": {r[0]: r[1] for r in db.execute("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")},
      }))
      """
    let p = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, sqlite])
    try #require(p.exitCode == 0, "\(p.stderr)")
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(p.stdout.utf8)) as? [String: Any])
    let items = try #require(rows["items"] as? [[Any]])
    #expect(items.map { $0[0] as? Int } == [3, 5])
    #expect(items.map { $0[1] as? String } == ["6F9619FF8B86D011B42D00CF4FC964FF", ""])
    #expect(items.map { $0[3] as? Int } == [7, 7])
    #expect((rows["owners"] as? [[Any]])?.first?.first as? Int == 7)
    #expect((rows["max"] as? [String: Int]) == ["Item": 9, "Owner": 7])

    let back = dir.appendingPathComponent("e.json")
    let e = runMapc(["store", "export", sqlite, "--model", bundle, "-o", back.path])
    try #require(e.exitCode == 0, "\(e.stderr)")
    let exported = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: back)) as? [String: Any])
    let metadata = try #require(exported["metadata"] as? [String: Any])
    #expect(metadata["formatVersion"] as? Int == 2)
    #expect((metadata["mapcObjectKeyMax"] as? [String: Int]) == ["Item": 9, "Owner": 7])
    let objects = try #require(exported["objects"] as? [String: [[String: Any]]])
    #expect(objects["Item"]?.map { $0["@id"] as? String } == ["Item/3", "Item/5"])
    #expect(objects["Item"]?.first?["id"] as? String == "6F9619FF-8B86-D011-B42D-00CF4FC964FF")
    #expect(objects["Item"]?.last?["id"] is NSNull)
    #expect(objects["Owner"]?.first?["items"] as? [String] == ["Item/3", "Item/5"])
    #expect(objects["Owner"]?.first?["id"] as? String == "o-1")
  }

  /// A store of a model without an `id` property stays version 1, `id` holding the ids.
  @Test func storesWithoutAnIdPropertyStayVersion1() throws {
    let (dir, bundle) = try folder(Self.model.replacingOccurrences(of: "name=\"id\"", with: "name=\"code\""))
    defer { try? FileManager.default.removeItem(at: dir) }
    let store: [String: Any] = [
      "metadata": ["entityVersionHashes": try hashes(bundle)],
      "objects": ["Item": [["id": "i", "code": NSNull(), "name": "a", "owner": NSNull()]], "Owner": []],
    ]
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: store).write(to: json)
    let sqlite = dir.appendingPathComponent("s.sqlite").path
    let back = dir.appendingPathComponent("e.json")
    #expect(runMapc(["store", "import", json.path, "--model", bundle, "-o", sqlite]).exitCode == 0)
    #expect(runMapc(["store", "export", sqlite, "--model", bundle, "-o", back.path]).exitCode == 0)
    let exported = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: back)) as? [String: Any])
    #expect((exported["metadata"] as? [String: Any])?["formatVersion"] as? Int == 1)
    let items = (exported["objects"] as? [String: [[String: Any]]])?["Item"]
    #expect(items?.first?["id"] as? String == "Item/1")
    #expect(items?.first?["@id"] == nil)
  }
}
