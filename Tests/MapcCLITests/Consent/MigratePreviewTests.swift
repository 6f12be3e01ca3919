import Foundation
import MapTestSupport
import Testing

/// `mapc migrate --plan` (text and JSON), `--dry-run`, `--output` and `--report`
/// (`Specs/migrate.md` §3, §6): counts checked against Python's reading of the stores.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")),
  .enabled(if: python3 != nil, "python3 is needed to count objects independently"))
struct MigratePreviewTests {
  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func planShowsEachEntityWithTheStoresCountsAndRunsNothing() throws {
    let (work, store, bundle) = try ConsentFixtures.diaryStore()
    defer { FileManagerTemp.remove(work.path) }
    let before = try ConsentFixtures.bytes(store)
    let counts = try ConsentFixtures.counts(store)
    let text = runMapc(["migrate", "--model", bundle, "--store", store, "--plan"])
    #expect(text.exitCode == 0, "\(text.stderr)")
    let records = try #require(counts["Records"])
    #expect(
      text.stdout.contains("     Records, \(ConsentFixtures.plural(records, "object")): dropped; "), "\(text.stdout)")
    #expect(text.stdout.contains("     → DayRecord: left empty"))
    #expect(text.stdout.contains("     drops without consent: Questions: "))
    let json = runMapc(["migrate", "--model", bundle, "--store", store, "--plan", "--format", "json"])
    #expect(json.exitCode == 0, "\(json.stderr)")
    let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let step = try #require((plan["steps"] as? [[String: Any]])?.first)
    let losses = try #require(step["losses"] as? [[String: Any]])
    var reported: [String: Int] = [:]
    for l in losses {
      let name = [l["entity"] as? String, l["property"] as? String].compactMap { $0 }.joined(separator: ".")
      reported[name] = l["count"] as? Int
      #expect(l["accepted"] as? Bool == false)
    }
    #expect(reported == counts.filter { $0.value > 0 })
    #expect(try ConsentFixtures.bytes(store) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["store.json"])
  }

  @Test func dryRunRunsEveryStepAndWritesNothing() throws {
    let tasks = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks")
    let work = try FileManagerTemp.folder("consent-dry")
    defer { FileManagerTemp.remove(work.path) }
    let store = work.appendingPathComponent("store.json").path
    try FileManager.default.copyItem(atPath: tasks.appendingPathComponent("store-v1.json").path, toPath: store)
    let before = try ConsentFixtures.bytes(store)
    let bundle = tasks.appendingPathComponent("Tasks.xcdatamodeld").path
    let mappings = tasks.appendingPathComponent("mappings").path
    let report = work.appendingPathComponent("report.json").path
    let r = runMapc([
      "migrate", "--model", bundle, "--store", store, "--mappings", mappings, "--dry-run", "--report", report,
    ])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("mapc: dry run of 3 steps from 'Tasks' to 'Tasks 4' succeeded; nothing was written"))
    #expect(try ConsentFixtures.bytes(store) == before)
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: work.path)) == ["store.json", "report.json"])
    // The report accounts for objects: the first step reads what the store holds, the last
    // makes what the expected result holds.
    let json = try #require(
      try JSONSerialization.jsonObject(with: ConsentFixtures.bytes(report)) as? [String: Any])
    let steps = try #require(json["steps"] as? [[String: Any]])
    #expect(steps.count == 3)
    #expect(json["output"] == nil)
    let input = try ConsentFixtures.counts(store)
    let expected = try ConsentFixtures.counts(tasks.appendingPathComponent("expected-from-v1.json").path)
    let entities = { (c: [String: Int]) in c.filter { !$0.key.contains(".") }.values.reduce(0, +) }
    #expect(steps[0]["objectsRead"] as? Int == entities(input))
    #expect(steps[2]["objectsMade"] as? Int == entities(expected))
    for step in steps {
      let mappings = try #require(step["entityMappings"] as? [[String: Any]])
      #expect(mappings.map { $0["made"] as? Int ?? -1 }.reduce(0, +) == step["objectsMade"] as? Int)
    }
  }

  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func outputWritesTheResultElsewhereAndLeavesTheStore() throws {
    let (work, store, bundle) = try ConsentFixtures.diaryStore()
    defer { FileManagerTemp.remove(work.path) }
    let before = try ConsentFixtures.bytes(store)
    let output = work.appendingPathComponent("v2.json").path
    let refused = runMapc(["migrate", "--model", bundle, "--store", store, "--output", output])
    #expect(refused.exitCode == 2)
    #expect(!FileManager.default.fileExists(atPath: output))
    let r = runMapc(["migrate", "--model", bundle, "--store", store, "--output", output, "--allow-data-loss"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(try ConsentFixtures.bytes(store) == before)
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: work.path)) == ["store.json", "v2.json"])
    let hashes = runMapc(["hash", bundle, "--format", "json"])
    let current = try #require(
      (try JSONSerialization.jsonObject(with: Data(hashes.stdout.utf8)) as? [String: Any])?["entityVersionHashes"]
        as? [String: String])
    let written = try #require(
      ((try JSONSerialization.jsonObject(with: ConsentFixtures.bytes(output)) as? [String: Any])?["metadata"]
        as? [String: Any])?["entityVersionHashes"] as? [String: String])
    #expect(written == current)
    // --output onto the store itself is a usage error.
    let same = runMapc(["migrate", "--model", bundle, "--store", store, "--output", store, "--allow-data-loss"])
    #expect(same.exitCode == 64)
    #expect(try ConsentFixtures.bytes(store) == before)
  }

  /// Files in `--mappings` that are not readable mappings are errors naming them, never skipped.
  @Test(arguments: ["", "not XML at all", "<?xml version=\"1.0\"?>\n<model/>\n", "\u{FEFF}<mappingModel"])
  func anUnreadableMappingFileIsAnError(contents: String) throws {
    let tasks = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks")
    let work = try FileManagerTemp.folder("consent-mappings")
    defer { FileManagerTemp.remove(work.path) }
    let copy = work.appendingPathComponent("tasks")
    try FileManager.default.copyItem(at: tasks, to: copy)
    let bad = copy.appendingPathComponent("mappings/Broken.xml")
    try Data(contents.utf8).write(to: bad)
    let store = copy.appendingPathComponent("store-v3.json").path
    let before = try ConsentFixtures.bytes(store)
    let r = runMapc([
      "migrate", "--model", copy.appendingPathComponent("Tasks.xcdatamodeld").path, "--store", store, "--mappings",
      copy.appendingPathComponent("mappings").path,
    ])
    #expect(r.exitCode == 1, "\(r.stderr)")
    #expect(r.stderr.contains("\(bad.path):"), "\(r.stderr)")
    #expect(try ConsentFixtures.bytes(store) == before)
  }

  @Test func utf16MappingFileIsAnError() throws {
    let tasks = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks")
    let work = try FileManagerTemp.folder("consent-utf16")
    defer { FileManagerTemp.remove(work.path) }
    let copy = work.appendingPathComponent("tasks")
    try FileManager.default.copyItem(at: tasks, to: copy)
    let bad = copy.appendingPathComponent("mappings/Wide.xml")
    try #require("<mappingModel name=\"x\"/>".data(using: .utf16)).write(to: bad)
    let r = runMapc([
      "migrate", "--model", copy.appendingPathComponent("Tasks.xcdatamodeld").path, "--store",
      copy.appendingPathComponent("store-v3.json").path, "--mappings", copy.appendingPathComponent("mappings").path,
      "--plan",
    ])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("\(bad.path):") && r.stderr.contains("[xml-unsupported-encoding]"), "\(r.stderr)")
  }
}
