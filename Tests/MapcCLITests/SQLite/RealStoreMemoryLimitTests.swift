import Foundation
import MapTestSupport
import Testing

/// Issue 41 on the real stores of `../shared/stores`: each store migrated one version on (as
/// `InferredStepKeepsRowsTests` takes it) with `--memory-limit 16K` and `64K` either gives the
/// bytes of the run in memory or is refused with `run-memory-limit`, nothing written and the
/// store as it was. Entities with relationships (to-one, one-to-one, one-to-many and
/// many-to-many, ordered or not) go a chunk at a time, with stubs of the objects they refer to;
/// inheritance keeps an entity whole, so some real stores are still refused. The
/// steps in `inChunks` must go through in chunks at 64K (at 16K a row of theirs is larger than
/// a quarter of the limit allows one object).
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct RealStoreMemoryLimitTests {
  /// Stores (file names) whose step to the next version goes a chunk at a time at 64K.
  static let inChunks: Set<String> = [
    "Bookmarks_V1.sqlite", "Bookmarks_V2.sqlite", "Bookmarks_V3.sqlite", "Bookmarks_V4.sqlite",
    "CoreDataMigration_Example_1.sqlite",
    "CoreDataMigration_Example_2.sqlite", "CoreDataMigration_Example_3.sqlite",
  ]

  @Test(arguments: InferredStepKeepsRowsTests.steps, ["16K", "64K"]) func tinyLimitGivesTheBytesInMemoryOrARefusal(
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
