import Foundation
import MapTestSupport
import Testing

/// `store convert` from SQLite to SQLite changes nothing, so it keeps what Core Data keeps beside
/// the objects: the persistent-history tables (`ACHANGE`, `ATRANSACTION`, `ATRANSACTIONSTRING`)
/// with every row, their indexes and their `Z_PRIMARYKEY` rows, and no note says otherwise.
/// Checked with python3's sqlite3 (`same_rows.py`: every table's rows, `Z_OPT` included; the
/// schema's entries compared as sets, whitespace runs as one space) on python's SwiftData-shaped store and on the real
/// SwiftData stores, converted without `--model` (the model they carry).
@Suite struct ConvertKeepsHistoryTests {
  /// The schema's entries of the store at `path`, read from a private copy (`store_copy.py`:
  /// opened even read-only, a store in WAL mode gets its -shm rewritten).
  static func schema(_ path: String) throws -> Set<String> {
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import sys,json; sys.path.insert(0,sys.argv[2]); from store_copy import open_copy; db=open_copy(sys.argv[1]); print(json.dumps([t+' '+n+' '+' '.join((s or '').split()) for t,n,s in db.execute('SELECT type,name,sql FROM sqlite_master')]))",
        path, SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite").path,
      ])
    guard r.exitCode == 0 else { throw RealStore.PythonFailed(message: r.stderr) }
    return Set(try JSONDecoder().decode([String].self, from: Data(r.stdout.utf8)))
  }

  /// `extra`: more options (`--memory-limit`); `said`: checks what mapc printed.
  func convertsEverything(
    _ store: String, in dir: URL, extra: [String] = [], said: (String) -> Void = { _ in }
  ) throws {
    let out = dir.appendingPathComponent("converted.sqlite").path
    let r = runMapc(["store", "convert", store, "-o", out] + extra)
    try #require(r.exitCode == 0, "\(r.stderr)")
    said(r.stderr)
    #expect(!r.stderr.contains("persistent history"), "\(r.stderr)")
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/same_rows.py")
    let same = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, store, out])
    try #require(same.exitCode == 0, "\(same.stderr)")
    let compared = try #require(try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any])
    #expect((compared["problems"] as? [String]) == [], "\(store)")
    let before = try Self.schema(store)
    #expect(before.contains { $0.hasPrefix("table ACHANGE ") })
    #expect(try Self.schema(out) == before)
  }

  @Test func pythonStore() throws {
    let dir = try FileManagerTemp.folder("convert-history")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("Trips.sqlite").path
    _ = try SwiftDataStoreTests.python("swiftdata_store.py", [store])
    try convertsEverything(store, in: dir)
  }

  @Test(
    .enabled(if: SharedPaths.swiftdata != nil, "needs ../shared/swiftdata"),
    arguments: SwiftDataStoreTests.swiftDataStores)
  func realStore(_ store: String) throws {
    let dir = try FileManagerTemp.folder("convert-history-real")
    defer { FileManagerTemp.remove(dir.path) }
    try convertsEverything(store, in: dir)
  }

  /// Converting to JSON cannot keep them, and says so.
  @Test func toJSONSaysTheHistoryIsLeftBehind() throws {
    let dir = try FileManagerTemp.folder("convert-history-json")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("Trips.sqlite").path
    _ = try SwiftDataStoreTests.python("swiftdata_store.py", [store])
    let r = runMapc(["store", "convert", store, "-o", dir.appendingPathComponent("t.json").path])
    try #require(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("holds persistent history"), "\(r.stderr)")
  }

  /// A JSON store carries no model: without --model, a clear error and nothing written.
  @Test func jsonWithoutModelIsRefused() throws {
    let dir = try FileManagerTemp.folder("convert-json-nomodel")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("Trips.sqlite").path
    _ = try SwiftDataStoreTests.python("swiftdata_store.py", [store])
    let json = dir.appendingPathComponent("t.json").path
    #expect(runMapc(["store", "convert", store, "-o", json]).exitCode == 0)
    let out = dir.appendingPathComponent("back.sqlite").path
    let r = runMapc(["store", "convert", json, "-o", out])
    #expect(r.exitCode == 2)
    #expect(r.stderr.contains("[store-no-model-cache]") && r.stderr.contains("--model"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
