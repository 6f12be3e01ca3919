import Foundation
import MapTestSupport
import Testing

/// Stores and models for the consent tests, and what a store holds counted by Python (not by
/// mapc): objects per entity, and non-null values per `Entity.property`.
enum ConsentFixtures {
  static var diary: URL? { SharedPaths.fixtures?.appendingPathComponent("diary") }

  /// A fresh folder with the diary's version 1 store as `store.json`.
  static func diaryStore() throws -> (folder: URL, store: String, bundle: String) {
    let diary = try #require(diary)
    let work = try FileManagerTemp.folder("consent")
    let store = work.appendingPathComponent("store.json").path
    try FileManager.default.copyItem(atPath: diary.appendingPathComponent("store-v1.json").path, toPath: store)
    return (work, store, diary.appendingPathComponent("SimpleQADiary.xcdatamodeld").path)
  }

  static let pets = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Pet" representedClassName="Pet" syncable="YES">
            <attribute name="fullName" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Owner" representedClassName="Owner" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  /// `Pet` renamed `Animal` and `fullName` renamed `name`, without renaming identifiers.
  static let animals = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Animal" representedClassName="Animal" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Owner" representedClassName="Owner" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  /// A bundle `Pets.xcdatamodeld` with versions `Pets` and `Pets 2`, and a store of version 1 with
  /// three pets (two named) and one owner.
  static func petStore() throws -> (folder: URL, store: String, bundle: String) {
    let work = try FileManagerTemp.folder("consent-pets")
    let bundle = try ModelBundles.bundle(versions: [("Pets", pets), ("Pets 2", animals)], named: "Pets", in: work)
    let metadata = try ModelBundles.storeMetadata(bundle, version: "Pets")
    let objects: [String: Any] = [
      "Pet": [
        ["id": "Pet/1", "fullName": "Rex"], ["id": "Pet/2", "fullName": NSNull()], ["id": "Pet/3", "fullName": "Tom"],
      ],
      "Owner": [["id": "Owner/1", "name": "Ann"]],
    ]
    let store = work.appendingPathComponent("store.json")
    let data = try JSONSerialization.data(
      withJSONObject: ["metadata": metadata, "objects": objects], options: [.prettyPrinted, .sortedKeys])
    try data.write(to: store)
    return (work, store.path, bundle.path)
  }

  /// Objects per entity and non-null values per `Entity.property` of a JSON store, by Python.
  static func counts(_ store: String) throws -> [String: Int] {
    let python = try #require(python3, "python3 is needed to count objects independently")
    let script = """
      import json, sys
      objects = json.load(open(sys.argv[1]))["objects"]
      counts = {}
      for entity, rows in objects.items():
          counts[entity] = len(rows)
          for row in rows:
              for key, value in row.items():
                  if key != "id" and value is not None:
                      counts[entity + "." + key] = counts.get(entity + "." + key, 0) + 1
      print(json.dumps(counts))
      """
    let r = runTool(python, ["-c", script, store])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Int])
  }

  static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  /// `3 objects`, `1 value`.
  static func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
}
