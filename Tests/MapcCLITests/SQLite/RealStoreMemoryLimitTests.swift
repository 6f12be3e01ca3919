import Foundation
import MapTestSupport
import Testing

/// Issue 41 on the real stores of `../shared/stores`: each store migrated one version on (as
/// `InferredStepKeepsRowsTests` takes it) with `--memory-limit 16K` and `64K` either gives the
/// bytes of the run in memory or is refused with `run-memory-limit`, nothing written and the
/// store as it was. Entities with relationships (to-one, one-to-one, one-to-many and
/// many-to-many, ordered or not) go a chunk at a time, with stubs of the objects they refer to,
/// and an inheritance tree's entities together (apptentive's messages, with a many-to-many
/// relationship declared by their abstract entity); a store none of whose entities can stream
/// goes when it fits a quarter of the limit. The steps in `inChunks` must go through at 64K (at 16K a row of
/// some is larger than a quarter of the limit allows one object); each of them streams.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct RealStoreMemoryLimitTests {
  /// Stores (file names) whose step to the next version goes a chunk at a time at 64K.
  static let inChunks: Set<String> = [
    "Bookmarks_V1.sqlite", "Bookmarks_V2.sqlite", "Bookmarks_V3.sqlite", "Bookmarks_V4.sqlite", "Bookmarks_V5.sqlite",
    "CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example_2.sqlite", "CoreDataMigration_Example_3.sqlite",
    "ATDataModelv2.sqlite", "ATDataModelv3.sqlite", "ATDataModelv5.sqlite", "store2-80-0.wiredatabase",
  ]

  /// `InferredStepKeepsRowsTests.steps`, and each store no later store of its app follows
  /// (Wire's, DuckDuckGo's V5) one model version on: the next of its bundle's versions in the
  /// order of their names, as `mapc migrate` orders them (`Specs/migrate.md`). (A store whose bundle has one version has no
  /// step: contentful's, SurfJournal's.)
  static let steps: [InferredStepKeepsRowsTests.Step] = {
    let stepped = Set(InferredStepKeepsRowsTests.steps.map(\.store.store))
    let more = RealStore.all.filter { !stepped.contains($0.store) && !$0.store.path.contains("/v2CorruptDatabase/") }
      .compactMap { s -> InferredStepKeepsRowsTests.Step? in
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: s.bundle.path)) ?? [])
          .filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
          .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        let last = s.versions.last ?? s.version
        guard let i = names.firstIndex(of: last), i + 1 < names.count else { return nil }
        return InferredStepKeepsRowsTests.Step(store: s, to: names[i + 1])
      }
    return InferredStepKeepsRowsTests.steps + more
  }()

  @Test(arguments: steps, ["16K", "64K"]) func tinyLimitGivesTheBytesInMemoryOrARefusal(
    _ step: InferredStepKeepsRowsTests.Step, _ limit: String
  ) throws {
    let dir = try FileManagerTemp.folder("real-memory-limit")
    defer { FileManagerTemp.remove(dir.path) }
    let copy = dir.appendingPathComponent(step.store.store.lastPathComponent).path
    let before = step.store.files()
    for (suffix, data) in before { try data.write(to: URL(fileURLWithPath: copy + suffix)) }
    func migrate(_ out: String, _ extra: [String]) -> MapcResult {
      runMapc(
        [
          "migrate", "--model", step.store.bundle.path, "--store", copy, "--to", step.to, "--output", out, "--quiet",
          "--allow-data-loss",
        ] + extra)
    }
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = migrate(whole, [])
    let chunked = dir.appendingPathComponent("chunks.sqlite").path
    let b = migrate(chunked, ["--memory-limit", limit])
    let refused = b.exitCode == 2 && b.stderr.contains("[run-memory-limit]")
    if limit == "64K" && Self.inChunks.contains(step.store.store.lastPathComponent) {
      #expect(!refused, "\(b.stderr)")
      // Not read whole within the limit: the summary names two chunks or more.
      let shown = dir.appendingPathComponent("shown.sqlite").path
      let c = runMapc(
        [
          "migrate", "--model", step.store.bundle.path, "--store", copy, "--to", step.to, "--output", shown,
          "--allow-data-loss", "--memory-limit", limit,
        ])
      let chunks = c.stderr.firstMatch(of: /objects in (\d+) chunks/).flatMap { Int($0.1) } ?? 0
      #expect(chunks >= 2, "\(c.stderr)")
    }
    if refused {
      #expect(!FileManager.default.fileExists(atPath: chunked))
    } else {
      #expect(b.exitCode == a.exitCode, "\(b.stderr)")
      #expect(b.stderr == a.stderr)
      if a.exitCode == 0 {
        #expect(
          try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)),
          "\(step.testDescription)")
      }
    }
    for (suffix, data) in before { #expect(FileManager.default.contents(atPath: copy + suffix) == data) }
  }
}
