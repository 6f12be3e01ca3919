import Foundation
import MapTestSupport
import Testing

/// `mapc migrate` refuses a step that drops data the store holds unless told it may
/// (`Specs/migrate.md` §6). Counts expected in the messages come from Python's reading of the
/// store, and "unchanged" is a byte comparison.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")),
  .enabled(if: python3 != nil, "python3 is needed to count objects independently"))
struct DataLossConsentTests {
  /// The error line of a refused run.
  static func errorLine(_ stderr: String) -> String {
    stderr.split(separator: "\n").first { $0.hasSuffix("[migrate-data-loss]") }.map(String.init) ?? ""
  }

  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func theDiaryWithoutAMappingIsRefusedAndNamesEveryLoss() throws {
    let (work, store, bundle) = try ConsentFixtures.diaryStore()
    defer { FileManagerTemp.remove(work.path) }
    let before = try ConsentFixtures.bytes(store)
    let counts = try ConsentFixtures.counts(store)
    let r = runMapc(["migrate", "--model", bundle, "--store", store])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(try ConsentFixtures.bytes(store) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["store.json"])
    let line = Self.errorLine(r.stderr)
    for (name, n) in counts {
      let parts = name.split(separator: ".")
      if parts.count == 1 {
        #expect(line.contains("\(name): \(ConsentFixtures.plural(n, "object"))"), "\(line)")
      } else {
        #expect(line.contains("\(parts[1]): \(ConsentFixtures.plural(n, "value"))"), "\(name) in \(line)")
      }
    }
    #expect(r.stderr.contains("mapc infer \(bundle) \(bundle) --source-version 'SimpleQADiary'"))
    #expect(r.stderr.contains("--allow-data-loss (everything), or --allow-drop Questions --allow-drop Records"))
    #expect(r.stderr.contains("nothing was written; \(store) is unchanged"))

    let allowed = runMapc(["migrate", "--model", bundle, "--store", store, "--allow-data-loss"])
    #expect(allowed.exitCode == 0, "\(allowed.stderr)")
    #expect(try ConsentFixtures.counts(store).values.allSatisfy { $0 == 0 })
    #expect(allowed.stderr.contains("dropped (accepted): "))
  }

  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func allowDropAcceptsExactlyTheNamedLosses() throws {
    let (work, store, bundle) = try ConsentFixtures.diaryStore()
    defer { FileManagerTemp.remove(work.path) }
    let before = try ConsentFixtures.bytes(store)
    let one = runMapc(["migrate", "--model", bundle, "--store", store, "--allow-drop", "Questions"])
    #expect(one.exitCode == 2)
    let line = Self.errorLine(one.stderr)
    #expect(line.contains("Records: 3 objects") && !line.contains("Questions"), "\(line)")
    #expect(try ConsentFixtures.bytes(store) == before)
    // A property of an entity that is dropped as a whole is not consent to the entity.
    let property = runMapc(["migrate", "--model", bundle, "--store", store, "--allow-drop", "Records.date"])
    #expect(property.exitCode == 2)
    #expect(try ConsentFixtures.bytes(store) == before)
    let both = runMapc([
      "migrate", "--model", bundle, "--store", store, "--allow-drop", "Questions", "--allow-drop", "Records",
    ])
    #expect(both.exitCode == 0, "\(both.stderr)")
  }

  @Test func aRenameWithoutRenamingIdentifiersIsRefused() throws {
    let (work, store, bundle) = try ConsentFixtures.petStore()
    defer { FileManagerTemp.remove(work.path) }
    let before = try ConsentFixtures.bytes(store)
    let counts = try ConsentFixtures.counts(store)
    let r = runMapc(["migrate", "--model", bundle, "--store", store])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(try ConsentFixtures.bytes(store) == before)
    let pets = try #require(counts["Pet"]), named = try #require(counts["Pet.fullName"])
    #expect(
      Self.errorLine(r.stderr).hasSuffix(
        "would drop data the store holds: Pet: \(ConsentFixtures.plural(pets, "object")) (fullName: \(ConsentFixtures.plural(named, "value"))) [migrate-data-loss]"
      ), "\(r.stderr)")
    #expect(!Self.errorLine(r.stderr).contains("Owner"))  // Owner is kept
    let allowed = runMapc(["migrate", "--model", bundle, "--store", store, "--allow-data-loss"])
    #expect(allowed.exitCode == 0, "\(allowed.stderr)")
    let after = try ConsentFixtures.counts(store)
    #expect(after["Owner"] == counts["Owner"] && after["Owner.name"] == counts["Owner.name"])
    #expect(after["Animal"] == 0)
  }

  /// A mapping that deliberately leaves `Pet` unread says so with a `remove` entity mapping; the
  /// same mapping without it is refused.
  @Test func aRemoveEntityMappingIsConsentForItsEntity() throws {
    let (work, store, bundle) = try ConsentFixtures.petStore()
    defer { FileManagerTemp.remove(work.path) }
    let mappings = work.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    let mapping = mappings.appendingPathComponent("PetsV1ToV2.xml")
    func write(remove: Bool) throws {
      let removal = remove ? "\n  <entityMapping name=\"PetToNothing\" type=\"remove\" source=\"Pet\"/>" : ""
      try """
      <?xml version="1.0" encoding="UTF-8"?>
      <mappingModel name="PetsV1ToV2" formatVersion="1">
        <sourceModel path="../Pets.xcdatamodeld/Pets.xcdatamodel"/>
        <destinationModel path="../Pets.xcdatamodeld/Pets 2.xcdatamodel"/>
        <entityMapping name="OwnerToOwner" source="Owner" destination="Owner"/>\(removal)
      </mappingModel>
      """.write(to: mapping, atomically: false, encoding: .utf8)
    }
    let before = try ConsentFixtures.bytes(store)
    try write(remove: false)
    let refused = runMapc(["migrate", "--model", bundle, "--store", store, "--mappings", mappings.path])
    #expect(refused.exitCode == 2, "\(refused.stderr)")
    #expect(Self.errorLine(refused.stderr).contains("Pet: 3 objects"))
    #expect(refused.stderr.contains("map it in \(mapping.path) (an entity mapping of type remove"))
    #expect(try ConsentFixtures.bytes(store) == before)
    try write(remove: true)
    let plan = runMapc(["migrate", "--model", bundle, "--store", store, "--mappings", mappings.path, "--plan"])
    #expect(plan.stdout.contains("Pet, 3 objects: removed by PetToNothing"), "\(plan.stdout)")
    let consented = runMapc(["migrate", "--model", bundle, "--store", store, "--mappings", mappings.path])
    #expect(consented.exitCode == 0, "\(consented.stderr)")
  }

  @Test func mapcRunRefusesAPlanThatDropsData() throws {
    let (work, store, _) = try ConsentFixtures.petStore()
    defer { FileManagerTemp.remove(work.path) }
    let mapping = work.appendingPathComponent("PetsV1ToV2.xml")
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <mappingModel name="PetsV1ToV2" formatVersion="1">
      <sourceModel path="Pets.xcdatamodeld/Pets.xcdatamodel"/>
      <destinationModel path="Pets.xcdatamodeld/Pets 2.xcdatamodel"/>
      <entityMapping name="OwnerToOwner" source="Owner" destination="Owner"/>
    </mappingModel>
    """.write(to: mapping, atomically: false, encoding: .utf8)
    let output = work.appendingPathComponent("out.json").path
    let refused = runMapc(["run", mapping.path, "--store", store, "--output", output])
    #expect(refused.exitCode == 2, "\(refused.stderr)")
    #expect(Self.errorLine(refused.stderr).contains("Pet: 3 objects (fullName: 2 values)"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output))
    let allowed = runMapc(["run", mapping.path, "--store", store, "--output", output, "--allow-drop", "Pet"])
    #expect(allowed.exitCode == 0, "\(allowed.stderr)")
    #expect(try ConsentFixtures.counts(output)["Owner"] == 1)
  }
}
