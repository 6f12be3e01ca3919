import Foundation
import MapTestSupport
import Testing

/// The fused chain against checkpoints (`FusedChainTests.fusedIsStepByStep`: `cmp`, the files
/// beside the result, python3's rows) on a bundle made here, three versions whose entities have
/// an attribute of every kind (a Transformable and a Binary kept in external files among them),
/// inheritance, an ordered to-many, a to-many without inverse and a many-to-many: as an empty
/// Core Data SQLite store, whose steps hand their results on in memory, and holding objects,
/// whose steps go through scratch stores.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct FusedChainGeneratedTests {
  static func contents(_ k: Int) -> String {
    let kinds = [
      "Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "String", "Boolean", "Date", "UUID",
      "URI",
    ]
    let attributes = kinds.map { kind in
      "<attribute name=\"a\(kind.filter { $0.isLetter || $0.isNumber })\" optional=\"YES\" attributeType=\"\(kind)\"/>"
    }.joined(separator: "\n")
    return """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(k)">
          <entity name="Item" representedClassName="Item" syncable="YES">
              \(attributes)
              <attribute name="payload" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
              <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
              \(k >= 2 ? "<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>" : "")
              <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="items" inverseEntity="List"/>
              <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
          </entity>
          <entity name="Tag" representedClassName="Tag" syncable="YES">
              <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
          </entity>
          <entity name="Task" representedClassName="Task" parentEntity="Item" syncable="YES">
              <attribute name="due" optional="YES" attributeType="Date"/>
          </entity>
          <entity name="Urgent" representedClassName="Urgent" parentEntity="Task" syncable="YES">
              <attribute name="level" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
          </entity>
          <entity name="List" representedClassName="List" syncable="YES">
              <attribute name="name" optional="YES" attributeType="String"/>
              <relationship name="pinned" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item"/>
              <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="list" inverseEntity="Item"/>
              \(k >= 3 ? "<attribute name=\"color\" optional=\"YES\" attributeType=\"String\"/>" : "")
          </entity>
      </model>
      """
  }

  /// The bundle, and an SQLite store at V1 made by `mapc store import` from a JSON store that
  /// holds `objects`.
  static func store(_ objects: [String: Any], in dir: URL) throws -> (bundle: URL, store: String) {
    let bundle = try ModelBundles.bundle(
      versions: (1...3).map { (name: "V\($0)", contents: contents($0)) }, named: "G", in: dir, current: "V3")
    let json = dir.appendingPathComponent("g.json")
    let metadata = try ModelBundles.storeMetadata(bundle.appendingPathComponent("V1.xcdatamodel"))
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: json)
    let store = dir.appendingPathComponent("g.sqlite").path
    let i = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    try #require(i.exitCode == 0, "\(i.stderr)")
    return (bundle, store)
  }

  @Test func anEmptyStoreHandedOnInMemory() throws {
    let dir = try FileManagerTemp.folder("fused-generated-empty")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.store([:], in: dir)
    #expect(try FusedChainTests.fusedIsStepByStep(store, model: bundle.path) == 0)
  }

  @Test func aStoreWithObjectsThroughScratchStores() throws {
    let dir = try FileManagerTemp.folder("fused-generated-objects")
    defer { FileManagerTemp.remove(dir.path) }
    let objects: [String: Any] = [
      "Item": [
        [
          "id": "Item/1", "aString": "one", "aInteger16": 7, "aDouble": 0.1, "aBoolean": true, "list": "List/1",
          "tags": ["Tag/1"],
        ]
      ],
      "Task": [
        [
          "id": "Task/1", "aString": "two", "aInteger64": 12_345_678_901, "list": "List/1",
          "tags": ["Tag/1", "Tag/2"],
        ]
      ],
      "Urgent": [["id": "Urgent/1", "aString": "three", "level": 3, "list": "List/1"]],
      "List": [["id": "List/1", "name": "home", "items": ["Urgent/1", "Item/1", "Task/1"], "pinned": ["Task/1"]]],
      "Tag": [
        ["id": "Tag/1", "items": ["Item/1", "Task/1"]], ["id": "Tag/2", "items": ["Task/1"]],
      ],
    ]
    let (bundle, store) = try Self.store(objects, in: dir)
    #expect(try FusedChainTests.fusedIsStepByStep(store, model: bundle.path) == 0)
  }
}
