import Foundation
import MapTestSupport
import Testing

/// `mapc test --memory-limit` (issue 41): a chain fixture on a real store (one version on: those
/// of DuckDuckGo, wibosco and apptentive whose migration goes a chunk at a time at 64K; an
/// apptentive store an older Core Data wrote keeps that layout, which the fresh install the
/// result is held to then has too),
/// whose expected store is compared a chunk at a time at 64K (through a spill
/// on disk, `StreamingComparison`) and whole without the limit, with the same outcome and the
/// same lines: a pass, then, once python3's sqlite3 has changed the expected store
/// (`touch_texts.py`: a text gets "x" appended, an object nothing refers to is deleted), a
/// failure that names those changes. `--update` writes a missing expected store with the
/// limit as without it.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct TestCommandMemoryLimitTests {
  /// `mapc test` of the fixture in `dir` without a limit and with `limit`: both exit with
  /// `exitCode` and print the same lines (the cases' times aside). Returns the run with it.
  @discardableResult
  static func expectTheSameOutcome(_ dir: URL, limit: String, exitCode: Int32) -> MapcResult {
    func lines(_ r: MapcResult) -> String { r.stdout.replacing(/\ \(\d+\.\d+ s\)/, with: "") }
    let whole = runMapc(["test", dir.path, "--jobs", "1"])
    let chunked = runMapc(["test", dir.path, "--jobs", "1", "--memory-limit", limit])
    #expect(whole.exitCode == exitCode, "\(whole.stdout)")
    #expect(chunked.exitCode == exitCode, "\(chunked.stdout)")
    #expect(lines(chunked) == lines(whole))
    return chunked
  }

  static let stores = [
    "Bookmarks_V1.sqlite", "CoreDataMigration_Example_3.sqlite", "ATDataModelv2.sqlite",
  ]

  @Test(arguments: stores) func aTinyLimitComparesInChunksWithTheSameOutcome(_ name: String) throws {
    let step = try #require(RealStoreMemoryLimitTests.steps.first { $0.store.store.lastPathComponent == name })
    let dir = try FileManagerTemp.folder("test-memory-limit")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("store.sqlite").path
    for (suffix, data) in step.store.files() { try data.write(to: URL(fileURLWithPath: store + suffix)) }
    let expected = dir.appendingPathComponent("expected.sqlite").path
    let made = runMapc([
      "migrate", "--model", step.store.bundle.path, "--store", store, "--to", step.to, "--output", expected, "--quiet",
      "--allow-data-loss",
    ])
    try #require(made.exitCode == 0, "\(made.stderr)")
    let fixture: [String: Any] = [
      "model": step.store.bundle.path,
      "cases": [
        ["store": "store.sqlite", "to": step.to, "expected": "expected.sqlite", "arguments": ["--allow-data-loss"]]
      ],
    ]
    try JSONSerialization.data(withJSONObject: fixture).write(to: dir.appendingPathComponent("fixture.json"))
    Self.expectTheSameOutcome(dir, limit: "64K", exitCode: 0)

    // --update writes a missing expected store, a chunk at a time under the limit: the same
    // bytes as written whole.
    var written: [Data] = []
    for extra in [[], ["--memory-limit", "64K"]] {
      try FileManager.default.removeItem(atPath: expected)
      let updated = runMapc(["test", dir.path, "--update"] + extra)
      #expect(updated.exitCode == 0, "\(updated.stdout)")
      #expect(updated.stdout.contains("UPDATED"), "\(updated.stdout)")
      written.append(try Data(contentsOf: URL(fileURLWithPath: expected)))
    }
    #expect(written[0] == written[1])
    #expect(runMapc(["test", dir.path, "--jobs", "1", "--memory-limit", "64K"]).exitCode == 0)

    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapSQLiteTests/touch_texts.py").path
    let touched = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, expected, "1"])
    try #require(touched.exitCode == 0, "\(touched.stderr)")
    let changes = try #require(JSONSerialization.jsonObject(with: Data(touched.stdout.utf8)) as? [[String: Any]])
    try #require(!changes.isEmpty)
    let chunkedAfter = Self.expectTheSameOutcome(dir, limit: "64K", exitCode: 1)
    for change in changes {
      let id = "\(change["entity"] as? String ?? "")/\(change["pk"] as? Int ?? 0)"
      if change["kind"] as? String == "deleted" {
        #expect(
          chunkedAfter.stdout.contains("\(id): expected no such object, got the object"), "\(chunkedAfter.stdout)")
      } else if let old = change["old"] as? String, old.count < 60, !old.contains(where: { $0.isNewline || $0 == "\"" })
      {
        #expect(chunkedAfter.stdout.contains("expected \"\(old)x\", got \"\(old)\""), "\(chunkedAfter.stdout)")
      } else {
        #expect(chunkedAfter.stdout.contains("  \(id)."), "\(chunkedAfter.stdout)")
      }
    }
  }

  /// A generated store whose ordered relationship's positions both stores' readers spill to a
  /// database of their own (`RelationshipChunksTests.store`: 20,000 items in 40 folders, one
  /// version on) compared at 256K as whole: a pass, then, with an item's title changed and an
  /// item deleted in the expected store by python3's sqlite3, the same failure naming both.
  @Test func orderedPositionsSpilledByBothStoresGiveTheSameOutcome() throws {
    let dir = try FileManagerTemp.folder("test-memory-limit-ordered")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try RelationshipChunksTests.store(dir, to: 2, ordered: true)
    let expected = dir.appendingPathComponent("expected.sqlite").path
    let made = runMapc([
      "migrate", "--model", dir.appendingPathComponent("R.xcdatamodeld").path, "--store", store, "--to", "V2",
      "--output", expected, "--quiet",
    ])
    try #require(made.exitCode == 0, "\(made.stderr)")
    let fixture: [String: Any] = [
      "model": "R.xcdatamodeld", "cases": [["store": "s.sqlite", "to": "V2", "expected": "expected.sqlite"]],
    ]
    try JSONSerialization.data(withJSONObject: fixture).write(to: dir.appendingPathComponent("fixture.json"))
    Self.expectTheSameOutcome(dir, limit: "256K", exitCode: 0)
    try RelationshipChunksTests.edit(
      expected, "UPDATE ZITEM SET ZTITLE = \"changed\" WHERE Z_PK = 2", "DELETE FROM ZITEM WHERE Z_PK = 3")
    let chunkedAfter = Self.expectTheSameOutcome(dir, limit: "256K", exitCode: 1)
    #expect(
      chunkedAfter.stdout.contains("Item/2.title: expected \"changed\", got \"item 2, some text"),
      "\(chunkedAfter.stdout)")
    #expect(chunkedAfter.stdout.contains("Item/3: expected no such object, got the object"), "\(chunkedAfter.stdout)")
  }
}
