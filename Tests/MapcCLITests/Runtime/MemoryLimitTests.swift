import Foundation
import MapTestSupport
import Testing

/// `mapc run --memory-limit` on JSON stores: a limit small enough that the store is read,
/// migrated and written in many chunks (the summary line counts them) gives the bytes of the
/// run in memory, and those are the Python peer's (`../shared/bench/diary.py`, written without
/// mapc); a failing store fails the same way, with the same messages; a plan that cannot go a
/// chunk at a time is refused with `run-memory-limit` and nothing written.
@Suite(
  .enabled(if: SharedPaths.bench != nil, Comment(rawValue: SharedPaths.absentMessage)),
  .enabled(if: python3 != nil, "python3 is needed to generate the stores and run the peer"))
struct MemoryLimitTests {
  /// 6,000 records: about 38,000 objects made, hundreds of chunks at 16K.
  static let records = "6000"

  func generate(_ work: URL, seed: String = "11") throws -> String {
    try generateDiaryStore(in: work, records: Self.records, seed: seed)
  }

  func chunks(_ stderr: String) -> Int? {
    guard let r = stderr.range(of: #"in (\d+) chunks? \(--memory-limit\)"#, options: .regularExpression) else {
      return nil
    }
    return Int(stderr[r].split(separator: " ")[1])
  }

  @Test(arguments: ["16K", "50K", "1M"])
  func chunkedRunGivesTheBytesOfTheRunInMemoryAndOfThePeer(limit: String) throws {
    let work = try FileManagerTemp.folder("memlimit")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let whole = work.appendingPathComponent("whole.json").path
    let chunked = work.appendingPathComponent("chunked.json").path
    let peer = work.appendingPathComponent("peer.json").path
    let a = runMapc(["run", plan, "--store", store, "--output", whole])
    try #require(a.exitCode == 0, "\(a.stderr)")
    #expect(chunks(a.stderr) == nil)
    // The scratch files go to a temporary folder of the test's own, to see them gone after.
    let tmp = work.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    let b = runMapc(
      ["run", plan, "--store", store, "--output", chunked, "--memory-limit", limit], environment: ["TMPDIR": tmp.path])
    try #require(b.exitCode == 0, "\(b.stderr)")
    let n = try #require(chunks(b.stderr), "the summary line names the chunks: \(b.stderr)")
    #expect(n > (limit == "1M" ? 5 : 100), "\(n) chunks")
    let p = runTool(python3!, [SharedPaths.bench!.appendingPathComponent("diary.py").path, store, peer])
    try #require(p.exitCode == 0, "\(p.stderr)")
    let wholeBytes = try Data(contentsOf: URL(fileURLWithPath: whole))
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == wholeBytes)
    #expect(try Data(contentsOf: URL(fileURLWithPath: peer)) == wholeBytes)
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
  }

  @Test func compactOutputIsTheSameToo() throws {
    let work = try FileManagerTemp.folder("memlimit-c")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work, seed: "3")
    let whole = work.appendingPathComponent("whole.json").path
    let chunked = work.appendingPathComponent("chunked.json").path
    #expect(runMapc(["run", plan, "--store", store, "--output", whole, "--compact"]).exitCode == 0)
    let b = runMapc(
      ["run", plan, "--store", store, "--output", chunked, "--compact", "--memory-limit", "16K", "--progress", "plain"])
    try #require(b.exitCode == 0, "\(b.stderr)")
    // The read phase is reported in bytes of the store as chunks are taken, then the write.
    #expect(b.stderr.contains("mapc: read store: done"), "\(b.stderr)")
    #expect(b.stderr.contains("mapc: write store: done"), "\(b.stderr)")
    #expect(chunks(b.stderr) ?? 0 > 100)
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
  }

  /// Stores with an error far into them, made from a generated one with python3's json module:
  /// the chunked run fails with the messages of the run in memory (objects numbered in the whole
  /// store, lines and columns of the whole file) and writes nothing.
  @Test(arguments: ["missing-date", "syntax", "unknown-property", "wrong-type"])
  func failingStoresFailTheSameWay(kind: String) throws {
    let work = try FileManagerTemp.folder("memlimit-e")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let bad = work.appendingPathComponent("bad.json").path
    let script = """
      import json, sys
      kind, src, dst = sys.argv[1:4]
      if kind == "syntax":
          s = open(src, encoding="utf-8").read()
          i = s.index('"Records/5500"')
          open(dst, "w", encoding="utf-8").write(s[:i] + '"Records/5500" "x"' + s[i + 14:])
          sys.exit(0)
      d = json.load(open(src, encoding="utf-8"))
      r = d["objects"]["Records"]
      if kind == "missing-date": del r[4321]["date"]
      if kind == "unknown-property": r[5000]["bogus"] = 1
      if kind == "wrong-type": r[3000]["date"] = 17
      with open(dst, "w", encoding="utf-8") as f:
          json.dump(d, f, indent=2, ensure_ascii=False)
          f.write("\\n")
      """
    let made = runTool(python3!, ["-c", script, kind, store, bad])
    try #require(made.exitCode == 0, "\(made.stderr)")
    let out = work.appendingPathComponent("out.json").path
    expectTheSameFailureInChunks(plan: plan, store: bad, out: out, limit: "16K")
  }

  /// Ids must be unique across chunks: a record far into the store that takes the id of one
  /// near its start is found, at its line and column.
  @Test func duplicateIdsAcrossChunksAreFound() throws {
    let work = try FileManagerTemp.folder("memlimit-d")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let bad = work.appendingPathComponent("bad.json").path
    let script = """
      import json, sys
      d = json.load(open(sys.argv[1], encoding="utf-8"))
      d["objects"]["Records"][5900]["id"] = "Records/7"
      with open(sys.argv[2], "w", encoding="utf-8") as f:
          json.dump(d, f, indent=2, ensure_ascii=False)
          f.write("\\n")
      """
    #expect(runTool(python3!, ["-c", script, store, bad]).exitCode == 0)
    let out = work.appendingPathComponent("out.json").path
    let a = runMapc(["run", plan, "--store", bad, "--output", out, "--quiet"])
    let b = runMapc(["run", plan, "--store", bad, "--output", out, "--quiet", "--memory-limit", "16K"])
    #expect(a.exitCode == 2 && b.exitCode == 2)
    let place = { (s: String) in s.split(separator: " ").first.map(String.init) ?? "" }
    #expect(b.stderr.contains("[store-duplicate-id]"), "\(b.stderr)")
    #expect(place(b.stderr) == place(a.stderr), "\(a.stderr)\n\(b.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// A plan that lets no entity go a chunk at a time: the whole store is the part read whole.
  /// Within a quarter of the limit it runs with the bytes of the run in memory; a store 40
  /// times larger (its songs copied by python3 under new ids) is refused, saying why no entity
  /// streams, nothing written; within the limit it runs as before.
  @Test func aPlanThatCannotStreamIsRefused() throws {
    let fixtures = try #require(SharedPaths.fixtures)
    let folder = fixtures.appendingPathComponent("songbook")
    let plan = folder.appendingPathComponent("SongbookLegacyToModern.xml").path
    let small = folder.appendingPathComponent("store-legacy.json").path
    let work = try FileManagerTemp.folder("memlimit-r")
    defer { FileManagerTemp.remove(work.path) }
    let whole = work.appendingPathComponent("whole.json").path
    #expect(runMapc(["run", plan, "--store", small, "--output", whole, "--quiet"]).exitCode == 0)
    let fitted = work.appendingPathComponent("fitted.json").path
    let f = runMapc(["run", plan, "--store", small, "--output", fitted, "--quiet", "--memory-limit", "16K"])
    #expect(f.exitCode == 0, "\(f.stderr)")
    #expect(FileManager.default.contents(atPath: fitted) == FileManager.default.contents(atPath: whole))
    let store = work.appendingPathComponent("large.json").path
    let script = """
      import json, sys
      d = json.load(open(sys.argv[1]))
      songs = d["objects"]["OldSong"]
      d["objects"]["OldSong"] = [dict(s, id="OldSong/%d" % (k * len(songs) + i + 1)) for k in range(40) for i, s in enumerate(songs)]
      json.dump(d, open(sys.argv[2], "w"), indent=2)
      """
    #expect(runTool(python3!, ["-c", script, small, store]).exitCode == 0)
    let out = work.appendingPathComponent("out.json").path
    let refused = runMapc(["run", plan, "--store", store, "--output", out, "--memory-limit", "16K"])
    #expect(refused.exitCode == 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("[run-memory-limit]"), "\(refused.stderr)")
    #expect(refused.stderr.contains("no entity can be read a chunk at a time (OldSong: "), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let fits = runMapc(["run", plan, "--store", store, "--output", out, "--memory-limit", "1G"])
    #expect(fits.exitCode == 0, "\(fits.stderr)")
  }

  @Test(arguments: ["", "12X", "-1", "1.5G", "8K"])
  func badSizesAreUsageErrors(size: String) {
    let r = runMapc(["run", "p.cdm", "--store", "s.json", "--dry-run", "--memory-limit", size])
    #expect(r.exitCode == 64, "\(r.stderr)")
    #expect(r.stderr.contains("--memory-limit"), "\(r.stderr)")
  }
}

/// A diary store of `records` records made by `../shared/bench/gen_diary_store.py` in `work`.
func generateDiaryStore(in work: URL, records: String, seed: String) throws -> String {
  let store = work.appendingPathComponent("store.json").path
  let gen = runTool(
    python3!, [SharedPaths.bench!.appendingPathComponent("gen_diary_store.py").path, records, store, "--seed", seed])
  try #require(gen.exitCode == 0, "\(gen.stderr)")
  return store
}

/// A store that could not be read within `--memory-limit` by the estimate (here: any store, with
/// 1M, under the 48 MB a run is counted at besides its store) is migrated (a chain of three
/// inferred steps: its tasks, related to each other, go in a chunk with stubs, the rest as the
/// part read whole) and converted to SQLite in chunks (its tasks and lists, related to each
/// other, in one chunk with stubs, then the part read whole; until 2026-12-01 a JSON store's
/// related entities were read whole into SQLite, one chunk): the migration gives the bytes of
/// the one within the limit, the store is only read (`ConvertChunksTests` compares conversions
/// with the ones in memory).
@Suite struct WholeStoreMemoryLimitTests {
  static let tasks = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks")

  @Test func aSmallStoreGoesAsThePartReadWhole() throws {
    let work = try FileManagerTemp.folder("memlimit-whole")
    defer { FileManagerTemp.remove(work.path) }
    let store = work.appendingPathComponent("store.json").path
    try FileManager.default.copyItem(atPath: Self.tasks.appendingPathComponent("store-v1.json").path, toPath: store)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let bundle = Self.tasks.appendingPathComponent("Tasks.xcdatamodeld").path
    let migrate = ["migrate", "--model", bundle, "--store", store, "--allow-data-loss", "--output"]
    let small = work.appendingPathComponent("small.json").path
    let a = runMapc(migrate + [small, "--memory-limit", "1M"])
    #expect(a.exitCode == 0, "\(a.stderr)")
    #expect(a.stderr.contains("8 objects in 2 chunks (--memory-limit)"), "\(a.stderr)")
    let large = work.appendingPathComponent("large.json").path
    let b = runMapc(migrate + [large, "--memory-limit", "1G"])
    #expect(b.exitCode == 0, "\(b.stderr)")
    #expect(!b.stderr.contains("chunk"), "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: small)) == Data(contentsOf: URL(fileURLWithPath: large)))
    let sqlite = work.appendingPathComponent("out.sqlite").path
    let convert = ["store", "convert", store, "--to", "sqlite", "--model", bundle, "-o", sqlite]
    let c = runMapc(convert + ["--memory-limit", "1M"])
    #expect(c.exitCode == 0, "\(c.stderr)")
    #expect(c.stderr.contains("converted 8 objects in 2 chunks (--memory-limit)"), "\(c.stderr)")
    let d = runMapc(convert + ["--memory-limit", "1G"])
    #expect(d.exitCode == 0, "\(d.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }
}
