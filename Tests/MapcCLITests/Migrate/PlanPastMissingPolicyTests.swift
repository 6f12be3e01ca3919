import Foundation
import MapTestSupport
import Testing

/// Issue 38: a step whose mapping names a policy class the running mapc has not registered no
/// longer hides the chain. `mapc migrate --plan` (text and JSON) shows every step and marks that
/// one with the class; `mapc lint` of the bundle warns per missing class, naming the step, and
/// goes on; a run (and a dry run, which runs every step) still refuses before anything is
/// written. Three versions of `Pet` (`age` added, then `color`), a store at the first, and a
/// mapping for the second step naming `App.ColorPolicy`.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct PlanPastMissingPolicyTests {
  static func model(_ attributes: [String]) -> String {
    let lines = attributes.map { "        <attribute name=\"\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
    return """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Pet" representedClassName="Pet" syncable="YES">
      \(lines.joined(separator: "\n"))
          </entity>
      </model>
      """
  }

  static func fixture() throws -> (work: URL, store: String, bundle: String, mappings: String) {
    let work = try FileManagerTemp.folder("plan-missing-policy")
    let bundle = work.appendingPathComponent("Pets.xcdatamodeld")
    for (name, attributes) in [("Pets", ["name"]), ("Pets 2", ["age", "name"]), ("Pets 3", ["age", "color", "name"])] {
      let version = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try model(attributes).write(to: version.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    let mappings = work.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <mappingModel name="Pets2To3" formatVersion="1">
      <sourceModel path="../Pets.xcdatamodeld/Pets 2.xcdatamodel"/>
      <destinationModel path="../Pets.xcdatamodeld/Pets 3.xcdatamodel"/>
      <entityMapping name="PetToPet" source="Pet" destination="Pet" policy="App.ColorPolicy"/>
    </mappingModel>
    """.write(to: mappings.appendingPathComponent("Pets2To3.xml"), atomically: false, encoding: .utf8)
    let hash = runMapc(["hash", bundle.path, "--model-version", "Pets", "--format", "json"])
    var metadata = try #require(try JSONSerialization.jsonObject(with: Data(hash.stdout.utf8)) as? [String: Any])
    metadata["versionName"] = nil
    metadata["format"] = "mapc-store"
    metadata["formatVersion"] = 1
    let objects: [String: Any] = ["Pet": [["id": "Pet/1", "name": "Rex"], ["id": "Pet/2", "name": "Tom"]]]
    let store = work.appendingPathComponent("store.json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects], options: [.sortedKeys])
      .write(to: store)
    return (work, store.path, bundle.path, mappings.path)
  }

  @Test func planShowsEveryStepAndMarksTheOneNeedingTheClass() throws {
    let f = try Self.fixture()
    defer { FileManagerTemp.remove(f.work.path) }
    let before = try Data(contentsOf: URL(fileURLWithPath: f.store))
    let text = runMapc(["migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings, "--plan"])
    #expect(text.exitCode == 0, "\(text.stderr)")
    #expect(text.stdout.contains("2 steps:"), "\(text.stdout)")
    #expect(text.stdout.contains("  1. 'Pets' → 'Pets 2' (inferred)"), "\(text.stdout)")
    #expect(text.stdout.contains("  2. 'Pets 2' → 'Pets 3' (mapping "), "\(text.stdout)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    let marks = lines.indices.filter { lines[$0].contains("needs policy class App.ColorPolicy") }
    #expect(marks.count == 1, "\(text.stdout)")
    // The mark is under step 2, not step 1.
    let second = try #require(lines.firstIndex { $0.hasPrefix("  2. ") })
    #expect(marks.first.map { $0 == second + 1 } == true, "\(text.stdout)")
    let warnings = text.stderr.components(separatedBy: "[chain-step-unknown-policy]").count - 1
    #expect(warnings == 1, "\(text.stderr)")
    #expect(text.stderr.contains("the step 'Pets 2' → 'Pets 3'") && text.stderr.contains("App.ColorPolicy"))
    #expect(!text.stderr.contains("error:"), "\(text.stderr)")

    let json = runMapc([
      "migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings, "--plan", "--format", "json",
    ])
    #expect(json.exitCode == 0, "\(json.stderr)")
    let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let steps = try #require(plan["steps"] as? [[String: Any]])
    #expect(steps.count == 2)
    #expect(steps.first?["missingPolicyClasses"] == nil)
    #expect(steps.last?["missingPolicyClasses"] as? [String] == ["App.ColorPolicy"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: f.store)) == before)
  }

  @Test func aRunAndADryRunStillRefuseBeforeAnythingIsWritten() throws {
    let f = try Self.fixture()
    defer { FileManagerTemp.remove(f.work.path) }
    let before = try Data(contentsOf: URL(fileURLWithPath: f.store))
    for extra in [[], ["--dry-run"]] {
      let r = runMapc(["migrate", "--model", f.bundle, "--store", f.store, "--mappings", f.mappings] + extra)
      #expect(r.exitCode == 2, "\(extra): \(r.stderr)")
      #expect(r.stderr.contains("App.ColorPolicy") && r.stderr.contains("[run-unknown-policy]"), "\(r.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: f.store)) == before)
      let left = try FileManager.default.contentsOfDirectory(atPath: f.work.path).sorted()
      #expect(left == ["Pets.xcdatamodeld", "mappings", "store.json"], "\(left)")
    }
  }

  @Test func lintOfTheBundleWarnsNamingTheStepAndGoesOn() throws {
    let f = try Self.fixture()
    defer { FileManagerTemp.remove(f.work.path) }
    let r = runMapc(["lint", f.bundle, f.mappings])
    #expect(r.exitCode == 0, "\(r.stdout)\(r.stderr)")
    let all = r.stdout + r.stderr
    let warnings = all.split(separator: "\n").filter { $0.hasSuffix("[chain-step-unknown-policy]") }
    #expect(warnings.count == 1, "\(all)")
    #expect(warnings.first?.contains("warning: the step 'Pets 2' → 'Pets 3' (mapping ") == true, "\(all)")
    #expect(warnings.first?.contains("needs policy class App.ColorPolicy (entity mapping PetToPet)") == true)
  }
}
