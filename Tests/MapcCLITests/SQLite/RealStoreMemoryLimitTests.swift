import Foundation
import MapTestSupport
import Testing

/// Issue 41 on the real stores of `../shared/stores`: each store migrated one version on (as
/// `InferredStepKeepsRowsTests` takes it) with `--memory-limit 16K` either gives the bytes of the
/// run in memory or is refused with `run-memory-limit`, nothing written and the store as it
/// was. (Entities with to-one relationships go a chunk at a time, with stubs of the objects
/// they refer to; to-many relationships, inheritance and many-to-many ones keep an entity whole,
/// so most real stores are still refused at this limit. One that migrates in chunks must give
/// the same bytes.)
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct RealStoreMemoryLimitTests {
  @Test(arguments: InferredStepKeepsRowsTests.steps) func tinyLimitGivesTheBytesInMemoryOrARefusal(
    _ step: InferredStepKeepsRowsTests.Step
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
    let b = migrate(chunked, ["--memory-limit", "16K"])
    if b.exitCode == 2 && b.stderr.contains("[run-memory-limit]") {
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
