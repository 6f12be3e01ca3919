import Foundation
import MapTestSupport
import Testing

/// Issue 38: a `remove` entity mapping is consent to lose its entity's objects, and with them
/// the links other objects hold to those objects (`Specs/migrate.md` §6). `Owner.pets` (to-many
/// to `Pet`, whose subentity is `Dog`) is dropped by the step; `PetToNothing` removes the pets,
/// `DogToDog` keeps the dogs. The links to pets are consented, the links to dogs are still a
/// loss. Every count expected comes from Python's reading of the JSON store.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")),
  .enabled(if: python3 != nil, "python3 is needed to count links independently"))
struct RemovedLinksConsentTests {
  static let v1 = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Owner" representedClassName="Owner" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
        </entity>
        <entity name="Pet" representedClassName="Pet" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
        </entity>
        <entity name="Dog" representedClassName="Dog" parentEntity="Pet" syncable="YES">
            <attribute name="breed" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  static let v2 = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Owner" representedClassName="Owner" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Dog" representedClassName="Dog" syncable="YES">
            <attribute name="breed" optional="YES" attributeType="String"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="ownerName" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  static let mapping = """
    <?xml version="1.0" encoding="UTF-8"?>
    <mappingModel name="PetsToDogs" formatVersion="1">
      <sourceModel path="../Pets.xcdatamodeld/Pets.xcdatamodel"/>
      <destinationModel path="../Pets.xcdatamodeld/Pets 2.xcdatamodel"/>
      <entityMapping name="OwnerToOwner" source="Owner" destination="Owner"/>
      <entityMapping name="DogToDog" source="Dog" destination="Dog">
        <attribute name="ownerName">$source.owner.name</attribute>
      </entityMapping>
      <entityMapping name="PetToNothing" type="remove" source="Pet"/>
    </mappingModel>
    """

  /// The bundle, the mapping and a version-1 store: owners with the pets and dogs given by
  /// `owned` (owner index → pet and dog ids), both sides of each link written.
  static func fixture(
    pets: Int, dogs: Int, owned: [[String]], removal: Bool = true
  ) throws -> (work: URL, store: String, bundle: String, mappings: String) {
    let work = try FileManagerTemp.folder("consent-links")
    let bundle = try ModelBundles.bundle(versions: [("Pets", v1), ("Pets 2", v2)], named: "Pets", in: work)
    let mappings = work.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    let removalLine = "\n  <entityMapping name=\"PetToNothing\" type=\"remove\" source=\"Pet\"/>"
    let text = removal ? mapping : mapping.replacingOccurrences(of: removalLine, with: "")
    try text.write(to: mappings.appendingPathComponent("PetsToDogs.xml"), atomically: false, encoding: .utf8)
    let metadata = try ModelBundles.storeMetadata(bundle, version: "Pets")
    var ownerOf: [String: String] = [:]
    for (k, ids) in owned.enumerated() { for id in ids { ownerOf[id] = "Owner/\(k + 1)" } }
    func pet(_ id: String) -> [String: Any] { ["id": id, "name": id, "owner": ownerOf[id] ?? NSNull()] }
    let objects: [String: Any] = [
      "Owner": owned.enumerated().map { k, ids in ["id": "Owner/\(k + 1)", "name": "O\(k + 1)", "pets": ids] },
      "Pet": (1...max(pets, 1)).prefix(pets).map { pet("Pet/\($0)") },
      "Dog": (1...max(dogs, 1)).prefix(dogs).map {
        var d = pet("Dog/\($0)"); d["breed"] = "b\($0)"; return d
      },
    ]
    let store = work.appendingPathComponent("store.json")
    let data = try JSONSerialization.data(
      withJSONObject: ["metadata": metadata, "objects": objects], options: [.prettyPrinted, .sortedKeys])
    try data.write(to: store)
    return (work, store.path, bundle.path, mappings.path)
  }

  /// Python's count of `Owner.pets` links, by the entity of the object each one points to
  /// (the entity whose list holds that id), and of the owners' objects.
  static func links(_ store: String) throws -> [String: Int] {
    let python = try #require(python3)
    let script = """
      import json, sys
      objects = json.load(open(sys.argv[1]))["objects"]
      entity_of = {row["id"]: entity for entity, rows in objects.items() for row in rows}
      counts = {"Owner": len(objects.get("Owner", []))}
      for owner in objects.get("Owner", []):
          for target in owner.get("pets") or []:
              key = "pets->" + entity_of[target]
              counts[key] = counts.get(key, 0) + 1
      print(json.dumps(counts))
      """
    let r = runTool(python, ["-c", script, store])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Int])
  }

  /// Only pets are linked: the links all go to removed objects, so nothing is lost without
  /// consent and the step runs with no option (it was refused for "Owner.pets: 3 links").
  @Test func linksOnlyToRemovedObjectsNeedNoFurtherConsent() throws {
    let f = try Self.fixture(pets: 3, dogs: 1, owned: [["Pet/1", "Pet/2"], ["Pet/3"]])
    defer { FileManagerTemp.remove(f.work.path) }
    let links = try Self.links(f.store)
    let toPets = try #require(links["pets->Pet"])
    #expect(links["pets->Dog"] == nil)
    let plan = runMapc(["migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings, "--plan"])
    #expect(plan.exitCode == 0, "\(plan.stderr)")
    #expect(
      plan.stdout.contains("pets dropped (\(ConsentFixtures.plural(toPets, "link")) to objects removed with consent)"),
      "\(plan.stdout)")
    #expect(plan.stdout.contains("drops nothing this store holds"), "\(plan.stdout)")
    let json = runMapc([
      "migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings, "--plan", "--format", "json",
    ])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let step = try #require((object["steps"] as? [[String: Any]])?.first)
    let owner = try #require((step["sourceEntities"] as? [[String: Any]])?.first { $0["name"] as? String == "Owner" })
    let pets = try #require((owner["properties"] as? [[String: Any]])?.first { $0["name"] as? String == "pets" })
    #expect(pets["count"] as? Int == 0)
    #expect(pets["consentedLinks"] as? Int == toPets)
    #expect((step["losses"] as? [Any])?.isEmpty == true)
    let run = runMapc(["migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let after = try ConsentFixtures.counts(f.store)
    #expect(after["Owner"] == links["Owner"])
    #expect(after["Dog"] == 1 && after["Pet"] == nil)
  }

  /// Pets and dogs are linked: the links to pets are consented by the removal, the links to the
  /// dogs (kept by DogToDog, but Owner.pets is gone) are a loss, counted alone.
  @Test func linksToObjectsThatAreNotRemovedStillCount() throws {
    let f = try Self.fixture(pets: 2, dogs: 3, owned: [["Pet/1", "Dog/1", "Dog/2"], ["Pet/2", "Dog/3"]])
    defer { FileManagerTemp.remove(f.work.path) }
    let before = try ConsentFixtures.bytes(f.store)
    let links = try Self.links(f.store)
    let (toPets, toDogs) = (try #require(links["pets->Pet"]), try #require(links["pets->Dog"]))
    let refused = runMapc(["migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings])
    #expect(refused.exitCode == 2, "\(refused.stderr)")
    let line = DataLossConsentTests.errorLine(refused.stderr)
    #expect(line.contains("Owner.pets: \(ConsentFixtures.plural(toDogs, "link"))"), "\(line)")
    #expect(!line.contains("\(toPets + toDogs) links"), "\(line)")
    #expect(try ConsentFixtures.bytes(f.store) == before)
    let plan = runMapc(["migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings, "--plan"])
    #expect(
      plan.stdout.contains(
        "pets dropped (\(ConsentFixtures.plural(toDogs, "link")); \(ConsentFixtures.plural(toPets, "link")) to objects removed with consent)"
      ),
      "\(plan.stdout)")
    let run = runMapc([
      "migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings, "--allow-drop", "Owner.pets",
    ])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stderr.contains("Owner.pets: \(ConsentFixtures.plural(toDogs, "link"))"), "\(run.stderr)")
  }

  /// Without the `remove` entity mapping, `--allow-drop Pet` is the consent to lose the pets, and
  /// the links to them go with it; the links to dogs still need their own.
  @Test func allowDropOfAnEntityConsentsTheLinksToItsObjects() throws {
    let f = try Self.fixture(pets: 2, dogs: 1, owned: [["Pet/1", "Dog/1"], ["Pet/2"]], removal: false)
    defer { FileManagerTemp.remove(f.work.path) }
    let links = try Self.links(f.store)
    let (toPets, toDogs) = (try #require(links["pets->Pet"]), try #require(links["pets->Dog"]))
    let bare = runMapc(["migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings])
    #expect(bare.exitCode == 2)
    let all = DataLossConsentTests.errorLine(bare.stderr)
    #expect(all.contains("Pet: 2 objects"), "\(all)")
    #expect(all.contains("Owner.pets: \(ConsentFixtures.plural(toPets + toDogs, "link"))"), "\(all)")
    let pet = runMapc([
      "migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings, "--allow-drop", "Pet",
    ])
    #expect(pet.exitCode == 2)
    let line = DataLossConsentTests.errorLine(pet.stderr)
    #expect(
      line.hasSuffix(
        "drop data the store holds: Owner.pets: \(ConsentFixtures.plural(toDogs, "link")) [migrate-data-loss]"),
      "\(line)")
  }
}
