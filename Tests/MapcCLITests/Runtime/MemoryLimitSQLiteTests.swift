import Foundation
import MapTestSupport
import Testing

/// `mapc run --memory-limit` on Core Data SQLite stores: the diary store written by python3's
/// generator (`Benchmarks/sqlite/gen_diary_sqlite.py`, sqlite3 and plistlib, nothing of mapc),
/// migrated in many chunks, gives the bytes of the run in memory, and its rows are those of the
/// Python peer (`diary_sqlite.py`, compared by `compare_sqlite.py`); stores that fail, fail the
/// same way; a table whose `Z_PK` is not its rowid is refused.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.shared != nil, "needs the built mapc and ../shared"),
  .enabled(if: python3 != nil, "python3 is needed to generate the stores and run the peer"))
struct MemoryLimitSQLiteTests {
  static let scripts = SharedPaths.packageRoot.appendingPathComponent("Benchmarks/sqlite")

  func python(_ script: String, _ arguments: [String]) throws -> MapcResult {
    let r = runTool(python3!, [Self.scripts.appendingPathComponent(script).path] + arguments)
    try #require(r.exitCode == 0, "\(script): \(r.stdout) \(r.stderr)")
    return r
  }

  /// 6,000 records: about 38,000 objects made, hundreds of chunks at 16K.
  func generate(_ work: URL, seed: String = "7") throws -> String {
    let store = work.appendingPathComponent("store.sqlite").path
    _ = try python("gen_diary_sqlite.py", ["6000", store, "--seed", seed])
    return store
  }

  func chunks(_ stderr: String) -> Int? {
    guard let r = stderr.range(of: #"in (\d+) chunks? \(--memory-limit\)"#, options: .regularExpression) else {
      return nil
    }
    return Int(stderr[r].split(separator: " ")[1])
  }

  /// Edits `store` into `bad` with python3's sqlite3: `sql` run on a copy.
  func edit(_ store: String, _ bad: String, _ sql: String) throws {
    try? FileManager.default.removeItem(atPath: bad)
    try FileManager.default.copyItem(atPath: store, toPath: bad)
    let script = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()\n"
    let r = runTool(python3!, ["-c", script, bad, sql])
    try #require(r.exitCode == 0, "\(r.stderr)")
  }

  @Test(arguments: ["16K", "100K", "1M"])
  func chunkedRunGivesTheBytesOfTheRunInMemoryAndThePeersRows(limit: String) throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let whole = work.appendingPathComponent("whole.sqlite").path
    let chunked = work.appendingPathComponent("chunked.sqlite").path
    let a = runMapc(["run", plan, "--store", store, "--output", whole])
    try #require(a.exitCode == 0, "\(a.stderr)")
    #expect(chunks(a.stderr) == nil)
    let tmp = work.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    let b = runMapc(
      ["run", plan, "--store", store, "--output", chunked, "--memory-limit", limit, "--progress", "plain"],
      environment: ["TMPDIR": tmp.path])
    try #require(b.exitCode == 0, "\(b.stderr)")
    let n = try #require(chunks(b.stderr), "the summary line names the chunks: \(b.stderr)")
    #expect(n > (limit == "1M" ? 5 : 100), "\(n) chunks")
    // The read phase counts rows for SQLite.
    #expect(b.stderr.contains("mapc: read store: done"), "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
    let peer = work.appendingPathComponent("peer.sqlite").path
    _ = try python("diary_sqlite.py", [store, peer])
    let compared = try python("compare_sqlite.py", [chunked, peer])
    #expect(compared.stdout.contains("rows: equal"), "\(compared.stdout)")
  }

  @Test func aDryRunInChunksWritesNothing() throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite-dry")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work, seed: "8")
    let tmp = work.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    let r = runMapc(
      ["run", plan, "--store", store, "--dry-run", "--memory-limit", "64K"], environment: ["TMPDIR": tmp.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(chunks(r.stderr) ?? 0 > 100, "\(r.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == ["diary.cdm", "store.sqlite", "tmp"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
  }

  /// Values far into the table that cannot be read (a BLOB for a String), an integer for a
  /// String that the migration cannot parse as a date, keys out of range: the same messages as
  /// in memory, in the same order, the objects named by their place in the whole store, nothing
  /// written.
  @Test(arguments: [
    "UPDATE ZRECORDS SET ZDATE = x'00ff' WHERE Z_PK = 5100",
    "UPDATE ZRECORDS SET ZDATE = 17 WHERE Z_PK = 4321",
    // Keys out of range come first in Z_PK order: the first chunk reads from the first row,
    // whatever its key, not from the keys above 0.
    "UPDATE ZRECORDS SET Z_PK = -5 WHERE Z_PK = 3000",
    "UPDATE ZRECORDS SET Z_ENT = 99 WHERE Z_PK = 5000",
    // The streamed entity's table is missing: the reader's message, not a refusal.
    "DROP TABLE ZRECORDS",
    // Errors in many chunks: all of them up to --max-errors (50), the run says it stopped.
    "UPDATE ZRECORDS SET ZDATE = x'00ff' WHERE Z_PK % 100 = 0",
    // Errors of the part read whole (Questions) come in the store's table order, before the
    // streamed table's.
    "UPDATE ZQUESTIONS SET Z_ENT = 99; UPDATE ZRECORDS SET ZDATE = x'00' WHERE Z_PK % 1000 = 10",
    // A record whose migration fails (its date cannot be parsed) in an early chunk, and one
    // that cannot be read far after it: a run in memory reads the whole store first, so the
    // store's error is the one reported.
    "UPDATE ZRECORDS SET ZDATE = 17 WHERE Z_PK = 100; UPDATE ZRECORDS SET ZDATE = x'00ff' WHERE Z_PK = 5100",
  ])
  func failingStoresFailTheSameWay(sql: String) throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite-e")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let bad = work.appendingPathComponent("bad.sqlite").path
    try edit(store, bad, sql)
    let out = work.appendingPathComponent("out.sqlite").path
    expectTheSameFailureInChunks(plan: plan, store: bad, out: out, limit: "16K")
  }

  /// A store whose newest rows are in a `-wal` beside it is read from a private copy, in chunks
  /// as in memory: the same bytes, the store and its `-wal` untouched.
  @Test func aStoreWithItsWALBesideItGivesTheSameBytes() throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite-wal")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let script = """
      import os, sqlite3, sys
      c = sqlite3.connect(sys.argv[1])
      c.execute("PRAGMA journal_mode = WAL")
      c.execute("PRAGMA wal_autocheckpoint = 0")
      c.execute("UPDATE ZRECORDS SET ZDATE = '2020-02-02' WHERE Z_PK % 7 = 0")
      c.commit()
      os._exit(0)
      """
    let r = runTool(python3!, ["-c", script, store])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let wal = try Data(contentsOf: URL(fileURLWithPath: store + "-wal"))
    try #require(wal.count > 100_000, "the updates stay in the -wal")
    let whole = work.appendingPathComponent("whole.sqlite").path
    let chunked = work.appendingPathComponent("chunked.sqlite").path
    #expect(runMapc(["run", plan, "--store", store, "--output", whole, "--quiet"]).exitCode == 0)
    let b = runMapc(["run", plan, "--store", store, "--output", chunked, "--memory-limit", "64K"])
    #expect(b.exitCode == 0, "\(b.stderr)")
    #expect(chunks(b.stderr) ?? 0 > 100, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store + "-wal")) == wal)
  }

  /// Values that cannot be written (every record's date made -0.0, which an SQLite column
  /// gives back as 0.0): found as the chunks are rendered, reported when the store would be
  /// written, the first 20 as in memory, nothing written.
  @Test func valuesThatCannotBeWrittenFailTheSameWay() throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite-w")
    defer { FileManagerTemp.remove(work.path) }
    let fixture = SharedPaths.fixtures!.appendingPathComponent("diary")
    let xml = try String(contentsOf: fixture.appendingPathComponent("SQADMappingModel1_2.xml"), encoding: .utf8)
      .replacingOccurrences(of: "path=\"SimpleQADiary", with: "path=\"\(fixture.path)/SimpleQADiary")
      .replacingOccurrences(
        of: #"FUNCTION($entityPolicy, "dateFromString:format:", $source.date, "yyyy-MM-dd")"#,
        with: #"CAST(-0.0, "NSDate")"#)
    let mapping = work.appendingPathComponent("negative.xml")
    try xml.write(to: mapping, atomically: true, encoding: .utf8)
    let plan = work.appendingPathComponent("negative.cdm").path
    let compiled = runMapc(["compile", mapping.path, "-o", plan])
    try #require(compiled.exitCode == 0, "\(compiled.stderr)")
    let store = try generate(work)
    let out = work.appendingPathComponent("out.sqlite").path
    let a = expectTheSameFailureInChunks(plan: plan, store: store, out: out, limit: "64K")
    #expect(a.stderr.contains("DayRecord/20.date: -0.0 cannot be stored"), "\(a.stderr)")
    #expect(!a.stderr.contains("DayRecord/21.date"), "\(a.stderr)")
  }

  /// Chunks are taken by `Z_PK > last`, which only a rowid key answers without a sort: a table
  /// whose `Z_PK` is a column of its own is refused in chunks, and runs within a limit it fits.
  @Test func aKeyThatIsNotTheRowIDIsRefused() throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite-k")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let bad = work.appendingPathComponent("bad.sqlite").path
    try edit(
      store, bad,
      """
      CREATE TABLE T (Z_PK INT PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATE VARCHAR, ZANSWERS BLOB, ZQUESTIONS BLOB);
      INSERT INTO T SELECT * FROM ZRECORDS; DROP TABLE ZRECORDS; ALTER TABLE T RENAME TO ZRECORDS;
      """)
    let out = work.appendingPathComponent("out.sqlite").path
    let refused = runMapc(["run", plan, "--store", bad, "--output", out, "--memory-limit", "64K"])
    #expect(refused.exitCode == 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("INTEGER PRIMARY KEY") && refused.stderr.contains("[run-memory-limit]"))
    #expect(!FileManager.default.fileExists(atPath: out))
    let fits = runMapc(["run", plan, "--store", bad, "--output", out, "--memory-limit", "1G"])
    #expect(fits.exitCode == 0, "\(fits.stderr)")
  }

  /// One row of 40,000 bytes: more than a quarter of a 64K limit (16 KiB); refused, naming it,
  /// nothing written; within 1M the same store gives the bytes of the run in memory.
  @Test func aRowLargerThanAQuarterOfTheLimitIsRefused() throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite-huge")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generate(work)
    let big = work.appendingPathComponent("big.sqlite").path
    try edit(
      store, big, "UPDATE ZRECORDS SET ZDATE = ZDATE || substr(hex(zeroblob(20000)), 1, 40000) WHERE Z_PK = 3000")
    let out = work.appendingPathComponent("out.sqlite").path
    let refused = runMapc(["run", plan, "--store", big, "--output", out, "--memory-limit", "64K"])
    #expect(refused.exitCode == 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("ZRECORDS row Z_PK=3000") && refused.stderr.contains("[run-memory-limit]"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func inPlaceWithABackupKeepsTheOldStore() throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite-inplace")
    defer { FileManagerTemp.remove(work.path) }
    try expectInPlaceInChunksKeepsTheOldStore(
      plan: try compileDiaryPlan(in: work), store: try generate(work),
      expected: work.appendingPathComponent("expected.sqlite").path,
      backup: work.appendingPathComponent("old.sqlite").path)
  }

  @Test func sigtermWhileChunksAreWrittenLeavesNothing() throws {
    let work = try FileManagerTemp.folder("memlimit-sqlite-term")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = work.appendingPathComponent("store.sqlite").path
    _ = try python("gen_diary_sqlite.py", ["60000", store, "--seed", "4"])
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let tmp = work.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    try expectSIGTERMWhileChunksAreWrittenLeavesNothing(
      plan: plan, store: store, output: work.appendingPathComponent("out.sqlite"), tmp: tmp)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }
}
