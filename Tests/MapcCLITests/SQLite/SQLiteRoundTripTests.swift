import Foundation
import MapTestSupport
import Testing

/// Issue 16's writer acceptance on the real stores: export → import → export gives the same
/// JSON; the imported store has the original's tables, columns, declared types, indexes,
/// `Z_PRIMARYKEY` entities and rows per table, and (issue 24) every row byte for byte, primary
/// keys, `Z_MAX` and the exact doubles of dates included (`same_rows.py`); the empty store mapc writes for a version has the
/// real store's schema. Schemas are read by python3's sqlite3 (`core_data_schema.py`).
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct SQLiteRoundTripTests {
  static let readable = RealStore.all.filter { !$0.store.path.contains("/v2CorruptDatabase/") }

  struct Schema: Decodable, Equatable {
    var tables: [String: [[String]]]
    var indexes: [String: IndexInfo]
    var primaryKeys: [[Entry]]
    var rows: [String: Int]
    var pageSize: Int
    var autoVacuum: Int

    enum Entry: Decodable, Equatable, CustomStringConvertible {
      case int(Int), text(String)
      init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let i = try? c.decode(Int.self) { self = .int(i) } else { self = .text(try c.decode(String.self)) }
      }
      var description: String {
        switch self {
        case .int(let i): "\(i)"
        case .text(let t): t
        }
      }
    }

    struct IndexInfo: Decodable, Equatable {
      var table: String
      var columns: [String]
      init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        table = try c.decode(String.self)
        columns = try c.decode([String].self)
      }
    }
  }

  static func schema(_ path: String) throws -> Schema {
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/core_data_schema.py")
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, path])
    guard r.exitCode == 0 else { throw RealStore.PythonFailed(message: r.stderr) }
    return try JSONDecoder().decode(Schema.self, from: Data(r.stdout.utf8))
  }

  /// The real store's indexes less those an earlier model version left behind: an index the
  /// written store lacks whose table and columns are those of an index both stores have
  /// (DuckDuckGo's `Z_BookmarkEntity_uuid` beside the model's `byUUID`; Specs/sqlite-store.md §9).
  static func modelIndexes(_ original: [String: Schema.IndexInfo], besides written: [String: Schema.IndexInfo])
    -> [String: Schema.IndexInfo]
  {
    let shared = original.filter { written[$0.key] == $0.value }.values
    return original.filter { written[$0.key] != nil || !shared.contains($0.value) }
  }

  @Test(arguments: readable) func exportImportExportIsIdentical(_ s: RealStore) throws {
    let dir = try FileManagerTemp.folder("sqlite-round-trip")
    defer { try? FileManager.default.removeItem(at: dir) }
    let (a, b, c) = (
      dir.appendingPathComponent("a.json").path, dir.appendingPathComponent("b.sqlite").path,
      dir.appendingPathComponent("c.json").path
    )
    for args in [
      ["store", "export", s.store.path, "--model", s.bundle.path, "-o", a],
      ["store", "import", a, "--model", s.bundle.path, "-o", b],
      ["store", "export", b, "--model", s.bundle.path, "-o", c],
    ] {
      let r = runMapc(args)
      try #require(r.exitCode == 0, "\(args[1]): \(r.stderr)")
    }
    #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: c))
    // The imported store is one file in WAL mode, as Core Data leaves a closed store.
    #expect(!FileManager.default.fileExists(atPath: b + "-wal"))
    let original = try Self.schema(s.store.path)
    let imported = try Self.schema(b)
    #expect(imported.pageSize == 4096)
    #expect(imported.autoVacuum == 2)
    // The model cache's one row where the real store has the table (its content is compared
    // with Core Data's in SQLiteModelCacheTests).
    #expect(imported.rows["Z_MODELCACHE"] == original.rows["Z_MODELCACHE"])
    #expect(imported.tables == original.tables)
    #expect(imported.indexes == Self.modelIndexes(original.indexes, besides: imported.indexes))
    #expect(imported.primaryKeys == original.primaryKeys)
    #expect(imported.rows == original.rows)
    // Every row byte for byte, Z_PK and Z_MAX included, and Z_OPT 1 (a JSON store carries no
    // versions): python3's sqlite3.
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/same_rows.py")
    let same = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, s.store.path, b, "--z-opt-one"])
    try #require(same.exitCode == 0, "\(same.stderr)")
    let compared = try #require(
      try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any])
    #expect((compared["problems"] as? [String]) == [], "\(s.testDescription)")
    let exported =
      try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: a))) as? [String: Any]
    let metadata = exported?["metadata"] as? [String: Any]
    #expect((metadata?["entityVersionHashes"] as? [String: String]) == (try s.independent().hashes))
    let written = try RealStore(number: s.number, store: URL(fileURLWithPath: b), bundle: s.bundle, version: s.version)
      .independent()
    let source = try s.independent()
    #expect(written.hashes == source.hashes)
    #expect(written.uuid == source.uuid)
    #expect(written.digestOK == true)
    #expect(written.checksumOK == true)
    // The real stores' own digests and checksums, where they have them, check out too.
    #expect(source.digestOK != false && source.checksumOK != false)
  }

  /// `store convert` from SQLite to SQLite (no JSON store between them) keeps every row byte for
  /// byte, each row's `Z_OPT` included (`same_rows.py`, python3's sqlite3), the store's UUID and
  /// hashes.
  @Test(arguments: readable) func convertSQLiteToSQLiteKeepsEveryRow(_ s: RealStore) throws {
    let dir = try FileManagerTemp.folder("sqlite-convert")
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("c.sqlite").path
    let r = runMapc(["store", "convert", s.store.path, "--model", s.bundle.path, "-o", out, "--to", "sqlite"])
    try #require(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.hasPrefix("mapc: converted "), "\(r.stderr)")
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/same_rows.py")
    let same = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, s.store.path, out])
    try #require(same.exitCode == 0, "\(same.stderr)")
    let compared = try #require(try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any])
    #expect((compared["problems"] as? [String]) == [], "\(s.testDescription)")
    let written = try RealStore(
      number: s.number, store: URL(fileURLWithPath: out), bundle: s.bundle, version: s.version
    )
    .independent()
    let source = try s.independent()
    #expect(written.hashes == source.hashes)
    #expect(written.uuid == source.uuid)
  }

  /// The store mapc creates for a version with no objects (a JSON store with the real store's
  /// metadata and no objects) has the real store's tables, columns, types, indexes and
  /// `Z_PRIMARYKEY` rows.
  @Test(arguments: readable) func emptyStoreHasTheRealSchema(_ s: RealStore) throws {
    let dir = try FileManagerTemp.folder("sqlite-empty")
    defer { try? FileManager.default.removeItem(at: dir) }
    let a = dir.appendingPathComponent("a.json")
    let r = runMapc(["store", "export", s.store.path, "--model", s.bundle.path, "-o", a.path])
    try #require(r.exitCode == 0, "\(r.stderr)")
    var store = try #require(try JSONSerialization.jsonObject(with: try Data(contentsOf: a)) as? [String: Any])
    store["objects"] = [String: Any]()
    let empty = dir.appendingPathComponent("empty.json")
    try JSONSerialization.data(withJSONObject: store).write(to: empty)
    let out = dir.appendingPathComponent("empty.sqlite").path
    let i = runMapc(["store", "import", empty.path, "--model", s.bundle.path, "-o", out])
    try #require(i.exitCode == 0, "\(i.stderr)")
    let original = try Self.schema(s.store.path)
    let created = try Self.schema(out)
    #expect(created.tables == original.tables)
    #expect(created.indexes == Self.modelIndexes(original.indexes, besides: created.indexes))
    #expect(created.primaryKeys == original.primaryKeys)
    #expect(created.rows.values.allSatisfy { $0 == 0 } == false)  // Z_PRIMARYKEY and Z_METADATA have rows
    #expect(
      created.rows.filter { !$0.key.hasPrefix("Z_PRIMARYKEY") && !["Z_METADATA", "Z_MODELCACHE"].contains($0.key) }
        .values.allSatisfy { $0 == 0 })
    #expect(created.rows["Z_MODELCACHE"] == original.rows["Z_MODELCACHE"])
  }
}
