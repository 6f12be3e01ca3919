import Foundation
import MapTestSupport
import Testing

/// `mapc run --in-place` on an SQLite store in WAL mode, with committed frames waiting in its
/// `-wal`, killed with SIGKILL at random moments 20 times: every time the store is the old one
/// (version 1, every row) or the complete new one (version 2, every row), and python3's sqlite3
/// finds it intact (`PRAGMA integrity_check` = ok). The store is wibosco's real v1 store grown
/// to 20,000 posts.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct SQLiteKillTests {
  static let posts = 20_000

  /// Writes `base.sqlite` and its `-wal` in `dir`: the real v1 store exported, grown, imported,
  /// then one more committed update copied while its connection is open (so it sits in the -wal).
  func makeBase(_ v1: RealStore, in dir: URL) throws -> String {
    let json = dir.appendingPathComponent("v1.json").path
    let e = runMapc(["store", "export", v1.store.path, "--model", v1.bundle.path, "-o", json])
    try #require(e.exitCode == 0, "\(e.stderr)")
    let grow = """
      import json, sys
      store = json.load(open(sys.argv[1]))
      posts = store["objects"]["Post"]
      grown = []
      for i in range(int(sys.argv[2])):
          p = dict(posts[i % len(posts)])
          p["id"] = "Post/%d" % (i + 1)
          p["postID"] = "post-%d" % i
          grown.append(p)
      store["objects"]["Post"] = grown
      json.dump(store, open(sys.argv[1], "w"))
      """
    let g = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", grow, json, String(Self.posts)])
    try #require(g.exitCode == 0, "\(g.stderr)")
    let built = dir.appendingPathComponent("built.sqlite").path
    let i = runMapc(["store", "import", json, "--model", v1.bundle.path, "-o", built])
    try #require(i.exitCode == 0, "\(i.stderr)")
    let base = dir.appendingPathComponent("base.sqlite").path
    let pending = """
      import shutil, sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("PRAGMA wal_autocheckpoint = 0")
      db.execute("UPDATE ZPOST SET Z_OPT = Z_OPT + 1 WHERE Z_PK <= 100")
      db.commit()
      shutil.copyfile(sys.argv[1], sys.argv[2])
      shutil.copyfile(sys.argv[1] + "-wal", sys.argv[2] + "-wal")
      db.close()
      """
    let p = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", pending, built, base])
    try #require(p.exitCode == 0, "\(p.stderr)")
    return base
  }

  @Test func killedInPlaceRunsLeaveTheOldOrTheNewStore() throws {
    let v1 = try #require(SQLiteRunTests.store("CoreDataMigration_Example_1.sqlite"))
    let v2 = try #require(SQLiteRunTests.store("CoreDataMigration_Example_2.sqlite"))
    let (v1Hashes, v2Hashes) = (try v1.independent().hashes, try v2.independent().hashes)
    let dir = try FileManagerTemp.folder("sqlite-kill")
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = try makeBase(v1, in: dir)
    let mapping = try SQLiteRunTests().mapping(v1, in: dir)
    let store = dir.appendingPathComponent("store.sqlite").path
    let fm = FileManager.default
    func reset() throws {
      for s in ["", "-wal", "-shm", "-journal"] { try? fm.removeItem(atPath: store + s) }
      try fm.copyItem(atPath: base, toPath: store)
      try fm.copyItem(atPath: base + "-wal", toPath: store + "-wal")
    }
    // One uninterrupted run gives the time to spread the kills over.
    try reset()
    let clock = ContinuousClock()
    let start = clock.now
    let full = runMapc(["run", mapping, "--store", store, "--in-place", "--quiet"])
    try #require(full.exitCode == 0, "\(full.stderr)")
    let duration = clock.now - start
    let done = try RealStore(number: "", store: URL(fileURLWithPath: store), bundle: v1.bundle, version: "")
      .independent()
    #expect(done.hashes == v2Hashes && done.rows["Post"] == Self.posts && done.integrity == "ok")

    var outcomes = (old: 0, new: 0)
    var random = SplitMix64(seed: 16)
    try reset()
    for k in 0..<20 {
      let process = Process()
      process.executableURL = builtExecutable(named: "mapc")
      process.arguments = ["run", mapping, "--store", store, "--in-place", "--quiet"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      let fraction = Double(random.next() % 1000) / 1000
      Thread.sleep(
        forTimeInterval: max(
          0.005,
          fraction * Double(duration.components.seconds) + fraction * Double(duration.components.attoseconds) / 1e18))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let state = try RealStore(number: "", store: URL(fileURLWithPath: store), bundle: v1.bundle, version: "")
        .independent()
      #expect(state.integrity == "ok", "kill \(k)")
      #expect(state.rows["Post"] == Self.posts, "kill \(k): \(state.rows)")
      if state.hashes == v2Hashes {
        outcomes.new += 1
        try reset()
      } else {
        #expect(state.hashes == v1Hashes, "kill \(k): neither version")
        outcomes.old += 1
      }
    }
    // The next run after the kills completes and cleans up what the killed ones left.
    let last = runMapc(["run", mapping, "--store", store, "--in-place", "--quiet"])
    #expect(last.exitCode == 0, "\(last.stderr)")
    let leftovers = try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".store.sqlite.mapc-") }
    #expect(leftovers.isEmpty, "\(leftovers)")
    #expect(outcomes.old + outcomes.new == 20)
    print("SQLiteKillTests: 20 kills left the old store \(outcomes.old) times and the new one \(outcomes.new) times")
  }
}
