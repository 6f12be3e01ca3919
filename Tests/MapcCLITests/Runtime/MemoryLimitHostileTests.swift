import Foundation
import MapTestSupport
import Testing

/// The hostile tries of the other commands, for a run a chunk at a time: SIGTERM while chunks
/// are written (the scratch folder goes with the run), `--in-place` (the input is read whole
/// before it is replaced), a value larger than a quarter of the limit (refused, naming where it
/// is), a FIFO and a link as the store.
@Suite(
  .enabled(if: SharedPaths.bench != nil, Comment(rawValue: SharedPaths.absentMessage)),
  .enabled(if: python3 != nil, "python3 is needed to generate the stores"))
struct MemoryLimitHostileTests {
  func generate(_ work: URL, records: String = "6000") throws -> String {
    try generateDiaryStore(in: work, records: records, seed: "5")
  }

  @Test func sigtermWhileChunksAreWrittenLeavesNothing() throws {
    let work = try FileManagerTemp.folder("memlimit-term")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work, records: "60000")
    let tmp = work.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    try expectSIGTERMWhileChunksAreWrittenLeavesNothing(
      plan: plan, store: store, output: work.appendingPathComponent("out.json"), tmp: tmp)
  }

  @Test func inPlaceWithABackupKeepsTheOldStore() throws {
    let work = try FileManagerTemp.folder("memlimit-inplace")
    defer { FileManagerTemp.remove(work.path) }
    try expectInPlaceInChunksKeepsTheOldStore(
      plan: try compileDiaryPlan(in: work), store: try generate(work),
      expected: work.appendingPathComponent("expected.json").path,
      backup: work.appendingPathComponent("old.json").path)
  }

  /// One answer of 40,000 characters: more than a quarter of a 64K limit (16 KiB).
  @Test func aValueLargerThanAQuarterOfTheLimitIsRefused() throws {
    let work = try FileManagerTemp.folder("memlimit-huge")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let big = work.appendingPathComponent("big.json").path
    let script = """
      import json, sys
      d = json.load(open(sys.argv[1], encoding="utf-8"))
      r = d["objects"]["Records"][3000]
      r["answers"][0] = "\\u0007" * 40000
      with open(sys.argv[2], "w", encoding="utf-8") as f:
          json.dump(d, f, indent=2, ensure_ascii=False)
          f.write("\\n")
      """
    #expect(runTool(python3!, ["-c", script, store, big]).exitCode == 0)
    let out = work.appendingPathComponent("out.json").path
    let r = runMapc(["run", plan, "--store", big, "--output", out, "--memory-limit", "64K"])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("[run-memory-limit]") && r.stderr.contains("larger than a quarter"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    // With room for it, the same store goes a chunk at a time, and as in memory.
    let whole = work.appendingPathComponent("whole.json").path
    #expect(runMapc(["run", plan, "--store", big, "--output", whole, "--quiet"]).exitCode == 0)
    let fits = runMapc(["run", plan, "--store", big, "--output", out, "--memory-limit", "1M"])
    #expect(fits.exitCode == 0, "\(fits.stderr)")
    #expect(fits.stderr.contains("chunks (--memory-limit)"), "\(fits.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: whole)))
  }

  @Test func aLinkToTheStoreIsReadAndAFifoRefused() throws {
    let work = try FileManagerTemp.folder("memlimit-link")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let link = work.appendingPathComponent("link.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
    let whole = work.appendingPathComponent("whole.json").path
    let out = work.appendingPathComponent("out.json").path
    #expect(runMapc(["run", plan, "--store", store, "--output", whole, "--quiet"]).exitCode == 0)
    let r = runMapc(["run", plan, "--store", link, "--output", out, "--memory-limit", "16K"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    let fifo = work.appendingPathComponent("fifo.json").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let f = runMapc(["run", plan, "--store", fifo, "--output", out + "2", "--memory-limit", "16K"])
    #expect(f.exitCode == 2 && f.stderr.contains("not a regular file"), "\(f.stderr)")
  }
}
