import Foundation
import MapTestSupport
import Testing

/// `mapc migrate --to` an earlier version on a small generated bundle: V1 → V2 renames
/// `Item.note` to `details` (renaming identifier) and `Box` to `Crate`, and adds `Item.notes`.
/// The way back undoes the renames, drops `notes` only with consent, refuses a step a mapping
/// covers by name, and uses a reverse mapping of the mappings folder; `mapc lint --reverse` and
/// `mapc diff --reverse` say the same.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct StepBackTests {
  static let v1 = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="v1">
        <entity name="Item" representedClassName="Item">
            <attribute name="name" attributeType="String"/>
            <attribute name="note" optional="YES" attributeType="String"/>
            <relationship name="box" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Box" inverseName="items" inverseEntity="Box"/>
        </entity>
        <entity name="Box" representedClassName="Box">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="box" inverseEntity="Item"/>
        </entity>
    </model>
    """

  static let v2 = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="v2">
        <entity name="Item" representedClassName="Item">
            <attribute name="name" attributeType="String"/>
            <attribute name="details" optional="YES" attributeType="String" elementID="note"/>
            <attribute name="notes" optional="YES" attributeType="String"/>
            <relationship name="crate" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Crate" inverseName="items" inverseEntity="Crate" elementID="box"/>
        </entity>
        <entity name="Crate" representedClassName="Crate" elementID="Box">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="crate" inverseEntity="Item"/>
        </entity>
    </model>
    """

  /// The bundle `Model.xcdatamodeld` (V1, V2) and a JSON store at V2 in `dir`; `notes` set on
  /// one item when `withNotes`.
  static func setUp(in dir: URL, withNotes: Bool) throws -> (bundle: String, store: String) {
    let metadata = try ModelBundles.storeMetadata(
      ModelBundles.bundle(v2, named: "Model", in: dir.appendingPathComponent("single")))
    let bundle = dir.appendingPathComponent("Model.xcdatamodeld")
    for (name, contents) in [("V1", v1), ("V2", v2)] {
      let version = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
    }
    let objects: [String: Any] = [
      "Item": [
        [
          "id": "i1", "name": "lamp", "details": "fragile", "notes": withNotes ? "wrap twice" as Any : NSNull(),
          "crate": "c1",
        ],
        ["id": "i2", "name": "rug", "details": NSNull(), "notes": NSNull(), "crate": NSNull()],
      ],
      "Crate": [["id": "c1", "label": "hall", "items": ["i1"]]],
    ]
    let store = dir.appendingPathComponent("store.json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: store)
    return (bundle.path, store.path)
  }

  static func json(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
  }

  @Test func renamesAreUndone() throws {
    let dir = try FileManagerTemp.folder("step-back-rename")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.setUp(in: dir, withNotes: false)
    let plan = runMapc(["migrate", "--model", bundle, "--store", store, "--to", "V1", "--plan"])
    #expect(plan.exitCode == 0, "\(plan.stderr)")
    #expect(plan.stdout.contains("1. 'V2' → 'V1' (inferred, reverse)"), "\(plan.stdout)")
    #expect(plan.stdout.contains("details renamed → note"), "\(plan.stdout)")
    #expect(plan.stdout.contains("crate renamed → box"), "\(plan.stdout)")
    #expect(plan.stdout.contains("→ Box: from Crate (CrateToBox)"), "\(plan.stdout)")
    let planJSON = runMapc(["migrate", "--model", bundle, "--store", store, "--to", "V1", "--plan", "--format", "json"])
    let steps = try #require(
      (try JSONSerialization.jsonObject(with: Data(planJSON.stdout.utf8)) as? [String: Any])?["steps"]
        as? [[String: Any]])
    #expect(steps.first?["reverse"] as? Bool == true)
    let dry = runMapc(["migrate", "--model", bundle, "--store", store, "--to", "V1", "--dry-run"])
    #expect(dry.exitCode == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("step 1/1 'V2' → 'V1' (inferred, reverse)"), "\(dry.stderr)")
    let back = dir.appendingPathComponent("back.json").path
    let r = runMapc(["migrate", "--model", bundle, "--store", store, "--to", "V1", "--output", back])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let result = try Self.json(back)
    let items = try #require((result["objects"] as? [String: Any])?["Item"] as? [[String: Any]])
    let lamp = try #require(items.first { $0["name"] as? String == "lamp" })
    #expect(lamp["note"] as? String == "fragile")
    #expect(lamp["details"] == nil && lamp["notes"] == nil)
    let boxes = try #require((result["objects"] as? [String: Any])?["Box"] as? [[String: Any]])
    #expect(boxes.map { $0["label"] as? String } == ["hall"])
    #expect(lamp["box"] as? String == boxes.first?["id"] as? String)
    let metadata = try #require(result["metadata"] as? [String: Any])
    let applied = try #require(metadata["mapcMigrations"] as? [[String: String]])
    #expect(applied == [["from": "V2", "to": "V1", "mapping": "inferred", "direction": "reverse"]])
    // And forward again: the store of V2 it started from, objects and values.
    let again = dir.appendingPathComponent("again.json").path
    let f = runMapc(["migrate", "--model", bundle, "--store", back, "--to", "V2", "--output", again])
    #expect(f.exitCode == 0, "\(f.stderr)")
    let items2 = try #require(((try Self.json(again))["objects"] as? [String: Any])?["Item"] as? [[String: Any]])
    #expect(items2.first { $0["name"] as? String == "lamp" }?["details"] as? String == "fragile")
  }

  @Test func whatTheNewerVersionAddedIsDroppedOnlyWithConsent() throws {
    let dir = try FileManagerTemp.folder("step-back-drop")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.setUp(in: dir, withNotes: true)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let refused = runMapc(["migrate", "--model", bundle, "--store", store, "--to", "V1"])
    #expect(refused.exitCode == 2)
    #expect(
      refused.stderr.contains(
        "step 1 'V2' → 'V1' (inferred, reverse) would drop data the store holds: Item.notes: 1 value [migrate-data-loss]"
      ),
      "\(refused.stderr)")
    #expect(refused.stderr.contains("--allow-drop Item.notes"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    let r = runMapc(["migrate", "--model", bundle, "--store", store, "--to", "V1", "--allow-drop", "Item.notes"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("dropped (accepted): Item.notes: 1 value"), "\(r.stderr)")
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: store)), as: UTF8.self)
    #expect(!text.contains("wrap twice"))
    #expect(text.contains("\"note\": \"fragile\""))
  }

  /// A mapping for V1 → V2: the way back is refused by name; a reverse mapping (V2 → V1) in
  /// the folder is used.
  @Test func aStepAMappingCoversIsRefusedByNameAndAReverseMappingIsUsed() throws {
    let dir = try FileManagerTemp.folder("step-back-mapping")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.setUp(in: dir, withNotes: false)
    let mappings = dir.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    let forward = mappings.appendingPathComponent("V1ToV2.xml")
    try Data(
      """
      <mappingModel name="V1ToV2" formatVersion="1">
        <sourceModel path="../Model.xcdatamodeld" version="V1"/>
        <destinationModel path="../Model.xcdatamodeld" version="V2"/>
        <entityMapping source="Item" destination="Item">
          <attribute name="details">$source.note</attribute>
          <relationship name="crate">FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "box", $source.box)</relationship>
        </entityMapping>
        <entityMapping source="Box" destination="Crate"/>
      </mappingModel>
      """.utf8
    ).write(to: forward)
    let refused = runMapc(["migrate", "--model", bundle, "--store", store, "--to", "V1", "--mappings", mappings.path])
    #expect(refused.exitCode == 1, "\(refused.stderr)")
    #expect(
      refused.stderr.contains(
        "the step 'V1' → 'V2' is covered by the mapping \(forward.path), not inferred, so mapc cannot reverse it; write a reverse mapping ('V2' → 'V1': its source the newer version) into the mappings folder [chain-step-irreversible]"
      ), "\(refused.stderr)")
    let lint = runMapc(["lint", bundle, mappings.path, "--reverse"])
    #expect(lint.stderr.contains("[chain-step-irreversible]"), "\(lint.stderr)")
    try Data(
      """
      <mappingModel name="V2ToV1" formatVersion="1">
        <sourceModel path="../Model.xcdatamodeld" version="V2"/>
        <destinationModel path="../Model.xcdatamodeld" version="V1"/>
        <entityMapping source="Item" destination="Item">
          <attribute name="note">TERNARY($source.notes != nil, $source.notes, $source.details)</attribute>
          <relationship name="box">FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "crate", $source.crate)</relationship>
        </entityMapping>
        <entityMapping source="Crate" destination="Box"/>
      </mappingModel>
      """.utf8
    ).write(to: mappings.appendingPathComponent("V2ToV1.xml"))
    let back = dir.appendingPathComponent("back.json").path
    let r = runMapc([
      "migrate", "--model", bundle, "--store", store, "--to", "V1", "--mappings", mappings.path, "--output", back,
    ])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("(mapping \(mappings.path)/V2ToV1.xml, reverse)"), "\(r.stderr)")
    let applied = (try Self.json(back)["metadata"] as? [String: Any])?["mapcMigrations"] as? [[String: String]]
    #expect(applied == [["from": "V2", "to": "V1", "mapping": "V2ToV1.xml", "direction": "reverse"]])
    // lint takes the reverse mapping for what it is (no chain-mapping-cycle), and reports the
    // step as reversible by it.
    let lint2 = runMapc(["lint", bundle, mappings.path, "--reverse"])
    #expect(!lint2.stderr.contains("chain-mapping-cycle"), "\(lint2.stderr)")
    #expect(lint2.stderr.contains("[chain-step-reversible]"), "\(lint2.stderr)")
  }

  @Test func lintAndDiffSayWhatAReverseLoses() throws {
    let dir = try FileManagerTemp.folder("step-back-lint")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, _) = try Self.setUp(in: dir, withNotes: false)
    let line =
      "reversing 'V1' → 'V2' drops Item.notes, which 'V1' has no place for: a store taken back to 'V1' loses them (--allow-drop Item.notes)"
    let lint = runMapc(["lint", bundle, "--reverse"])
    #expect(lint.exitCode == 0, "\(lint.stderr)")
    #expect(lint.stderr.contains("note: \(line) [chain-reverse-drops-data]"), "\(lint.stderr)")
    // Without --reverse, lint says nothing of it.
    #expect(!runMapc(["lint", bundle]).stderr.contains("chain-reverse-drops-data"))
    let diff = runMapc(["diff", bundle, "--reverse"])
    #expect(diff.exitCode == 0, "\(diff.stderr)")
    #expect(diff.stdout.hasSuffix("Reverse: \(line)\n"), "\(diff.stdout)")
    #expect(!runMapc(["diff", bundle]).stdout.contains("Reverse:"))
  }

  /// An entity the newer version added: its objects (and the links to them) go back only with
  /// `--allow-drop Entity`; the objects that stay keep their numbers.
  @Test func anEntityTheNewerVersionAddedIsDroppedOnlyWithConsent() throws {
    let dir = try FileManagerTemp.folder("step-back-entity")
    defer { FileManagerTemp.remove(dir.path) }
    let older = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Item" representedClassName="Item">
              <attribute name="name" attributeType="String"/>
          </entity>
      </model>
      """
    let newer = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Item" representedClassName="Item">
              <attribute name="name" attributeType="String"/>
              <relationship name="labels" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Label" inverseName="item" inverseEntity="Label"/>
          </entity>
          <entity name="Label" representedClassName="Label">
              <attribute name="text" optional="YES" attributeType="String"/>
              <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="labels" inverseEntity="Item"/>
          </entity>
      </model>
      """
    let metadata = try ModelBundles.storeMetadata(
      ModelBundles.bundle(newer, named: "Model", in: dir.appendingPathComponent("single")))
    let bundle = dir.appendingPathComponent("Model.xcdatamodeld")
    for (name, contents) in [("A", older), ("B", newer)] {
      let version = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
    }
    let objects: [String: Any] = [
      "Item": [
        ["id": "Item/4", "name": "lamp", "labels": ["Label/1"]], ["id": "Item/9", "name": "rug", "labels": []],
      ],
      "Label": [["id": "Label/1", "text": "fragile", "item": "Item/4"]],
    ]
    let store = dir.appendingPathComponent("store.json").path
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects])
      .write(to: URL(fileURLWithPath: store))
    let refused = runMapc(["migrate", "--model", bundle.path, "--store", store, "--to", "A"])
    #expect(refused.exitCode == 2)
    #expect(
      refused.stderr.contains(
        "would drop data the store holds: Item.labels: 1 link; Label: 1 object (text: 1 value, item: 1 link)"),
      "\(refused.stderr)")
    #expect(refused.stderr.contains("--allow-drop Label"), "\(refused.stderr)")
    let r = runMapc(["migrate", "--model", bundle.path, "--store", store, "--to", "A", "--allow-drop", "Label"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let result = try Self.json(store)
    let back = try #require(result["objects"] as? [String: Any])
    #expect(back["Label"] == nil)
    let items = try #require(back["Item"] as? [[String: Any]])
    #expect(items.map { $0["id"] as? String } == ["Item/4", "Item/9"])
    #expect(items.allSatisfy { $0["labels"] == nil })
  }

  /// Forward, `Integer 32` → `Double` widens; back, a value with a fraction would be truncated:
  /// a loss, named, accepted only with consent.
  @Test func valuesTheOlderTypeCannotHoldNeedConsent() throws {
    let dir = try FileManagerTemp.folder("step-back-unfit")
    defer { FileManagerTemp.remove(dir.path) }
    func model(_ type: String) -> String {
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="E" representedClassName="E">
              <attribute name="x" optional="YES" attributeType="\(type)"/>
          </entity>
      </model>
      """
    }
    let metadata = try ModelBundles.storeMetadata(
      ModelBundles.bundle(model("Double"), named: "Model", in: dir.appendingPathComponent("single")))
    let bundle = dir.appendingPathComponent("Model.xcdatamodeld")
    for (name, type) in [("A", "Integer 32"), ("B", "Double")] {
      let version = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try Data(model(type).utf8).write(to: version.appendingPathComponent("contents"))
    }
    let store = dir.appendingPathComponent("store.json").path
    let objects = ["E": [["id": "E/1", "x": 2.5], ["id": "E/2", "x": 3.0], ["id": "E/3", "x": NSNull()]]]
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects])
      .write(to: URL(fileURLWithPath: store))
    let refused = runMapc(["migrate", "--model", bundle.path, "--store", store, "--to", "A"])
    #expect(refused.exitCode == 2)
    #expect(
      refused.stderr.contains("would drop data the store holds: E.x: 1 value that does not fit Integer 32"),
      "\(refused.stderr)")
    let r = runMapc(["migrate", "--model", bundle.path, "--store", store, "--to", "A", "--allow-drop", "E.x"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let values = (try Self.json(store)["objects"] as? [String: Any])?["E"] as? [[String: Any]]
    #expect(values?.compactMap { $0["x"] as? Int } == [2, 3])
  }
}
