import Foundation
import MapTestSupport
import Testing

/// `mapc run` and `mapc migrate` on Core Data SQLite stores (wibosco's model and real stores):
/// the migrated store has the layout of the project's real store of the target version and
/// that version's hashes (checked with python3's sqlite3), the input is replaced atomically
/// with its old bytes kept as the backup, and SIGKILLs at random moments leave the old store or
/// the new one, both passing `PRAGMA integrity_check`.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct SQLiteRunTests {
  static func store(_ name: String) -> RealStore? { RealStore.all.first { $0.store.lastPathComponent == name } }

  /// The inferred v1 → v2 mapping of wibosco's model.
  func mapping(_ s: RealStore, in dir: URL) throws -> String {
    let mapping = dir.appendingPathComponent("m12.xml").path
    let r = runMapc([
      "infer", s.bundle.path, s.bundle.path, "--source-version", "CoreDataMigration_Example",
      "--destination-version", "CoreDataMigration_Example 2", "--output", mapping,
    ])
    #expect(r.exitCode == 0, "\(r.stderr)")
    return mapping
  }

  func expectLayout(_ path: String, like real: RealStore, rows: Int, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let got = try SQLiteRoundTripTests.schema(path)
    let want = try SQLiteRoundTripTests.schema(real.store.path)
    #expect(got.tables == want.tables, sourceLocation: sourceLocation)
    #expect(got.indexes == want.indexes, sourceLocation: sourceLocation)
    #expect(got.primaryKeys == want.primaryKeys, sourceLocation: sourceLocation)
    let info = try RealStore(number: "", store: URL(fileURLWithPath: path), bundle: real.bundle, version: real.version)
      .independent()
    #expect(info.hashes == (try real.independent().hashes), sourceLocation: sourceLocation)
    #expect(info.rows.values.reduce(0, +) == rows, sourceLocation: sourceLocation)
  }

  @Test func runWritesTheDestinationLayout() throws {
    let v1 = try #require(Self.store("CoreDataMigration_Example_1.sqlite"))
    let v2 = try #require(Self.store("CoreDataMigration_Example_2.sqlite"))
    let dir = try FileManagerTemp.folder("sqlite-run")
    defer { try? FileManager.default.removeItem(at: dir) }
    let mapping = try mapping(v1, in: dir)
    let before = v1.files()
    let dry = runMapc(["run", mapping, "--store", v1.store.path, "--dry-run", "--progress", "none"])
    #expect(dry.exitCode == 0, "\(dry.stderr)")
    #expect(dry.stderr.contains("; created Post 10; dry run, nothing written"), "\(dry.stderr)")
    let out = dir.appendingPathComponent("out.sqlite").path
    let run = runMapc(["run", mapping, "--store", v1.store.path, "--output", out, "--quiet"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(v1.files() == before)
    try expectLayout(out, like: v2, rows: 10)

    // In place, with a backup: the backup is the old store's bytes.
    let copy = dir.appendingPathComponent("store.sqlite").path
    try FileManager.default.copyItem(atPath: v1.store.path, toPath: copy)
    let backup = dir.appendingPathComponent("old.sqlite").path
    let inPlace = runMapc(["run", mapping, "--store", copy, "--in-place", "--backup", backup, "--quiet"])
    #expect(inPlace.exitCode == 0, "\(inPlace.stderr)")
    #expect(FileManager.default.contents(atPath: backup) == before[""])
    try expectLayout(copy, like: v2, rows: 10)
    for s in ["-wal", "-shm", "-journal"] { #expect(!FileManager.default.fileExists(atPath: copy + s), "\(s)") }
  }

  /// `mapc migrate` walks wibosco's chain on the SQLite store; its 2 → 3 step uses a custom
  /// migration policy (Post2ToPost3MigrationPolicy) that this mapc does not have, so the run is
  /// refused there with the store unchanged, and `--to` version 2 succeeds.
  @Test func migrateAnSQLiteStore() throws {
    let v1 = try #require(Self.store("CoreDataMigration_Example_1.sqlite"))
    let v2 = try #require(Self.store("CoreDataMigration_Example_2.sqlite"))
    let mappings = try #require(
      SharedPaths.corpus?.appendingPathComponent(
        "wibosco/CoreDataMigrationRevised-Example/CoreDataMigration-Example/CoreData/Migration/Mappings"))
    let dir = try FileManagerTemp.folder("sqlite-migrate")
    defer { try? FileManager.default.removeItem(at: dir) }
    let copy = dir.appendingPathComponent("store.sqlite").path
    try FileManager.default.copyItem(atPath: v1.store.path, toPath: copy)
    let original = FileManager.default.contents(atPath: copy)
    let all = runMapc(["migrate", "--model", v1.bundle.path, "--store", copy, "--mappings", mappings.path])
    #expect(all.exitCode == 2, "\(all.stderr)")
    #expect(all.stderr.contains("[run-unknown-policy]"), "\(all.stderr)")
    #expect(FileManager.default.contents(atPath: copy) == original)
    let toV2 = runMapc([
      "migrate", "--model", v1.bundle.path, "--store", copy, "--to", "CoreDataMigration_Example 2", "--backup",
      dir.appendingPathComponent("v1.sqlite").path,
    ])
    #expect(toV2.exitCode == 0, "\(toV2.stderr)")
    try expectLayout(copy, like: v2, rows: 10)
    #expect(FileManager.default.contents(atPath: dir.appendingPathComponent("v1.sqlite").path) == original)
    let again = runMapc(["migrate", "--model", v1.bundle.path, "--store", copy, "--to", "CoreDataMigration_Example 2"])
    #expect(again.exitCode == 0)
    #expect(again.stderr.contains("is already at version 'CoreDataMigration_Example 2'"), "\(again.stderr)")
  }

  /// The other chains that mapc's inference covers, on real stores: XCServer's empty 2.0.0
  /// store to 2.0.1 gives exactly its real 2.0.1 store's layout; apptentive's 3.5.0 simulator
  /// store (version 5, 67 objects) to version 6 gives the real version 6 store's tables and
  /// columns (its Z_MODELCACHE aside: the migrated store records the source's framework version,
  /// 519, which had no model cache). Earlier apptentive and XCServer steps are not inferable
  /// (an entity of a relationship's destination renamed; String attributes becoming Date) and
  /// are refused with the store unchanged.
  @Test func migrateOtherProjectsWhereTheirChainsInfer() throws {
    let x200 = try #require(Self.store("XCServerCoreData_2.0.0_empty.sqlite"))
    let x201 = try #require(Self.store("XCServerCoreData_2.0.1.sqlite"))
    let x120 = try #require(Self.store("XCServerCoreData_1.2.0.sqlite"))
    let a5 = try #require(RealStore.all.first { $0.store.path.contains("3.5.0.xcappdata") })
    let a6 = try #require(Self.store("ATDataModelv6.sqlite"))
    let dir = try FileManagerTemp.folder("sqlite-migrate-chains")
    defer { try? FileManager.default.removeItem(at: dir) }

    let x = dir.appendingPathComponent("x.sqlite").path
    try FileManager.default.copyItem(atPath: x200.store.path, toPath: x)
    let rx = runMapc(["migrate", "--model", x200.bundle.path, "--store", x, "--to", x201.version, "--quiet"])
    #expect(rx.exitCode == 0, "\(rx.stderr)")
    try expectLayout(x, like: x201, rows: 0)

    let a = dir.appendingPathComponent("a.sqlite").path
    try FileManager.default.copyItem(atPath: a5.store.path, toPath: a)
    let ra = runMapc(["migrate", "--model", a5.bundle.path, "--store", a, "--quiet"])
    #expect(ra.exitCode == 0, "\(ra.stderr)")
    let got = try SQLiteRoundTripTests.schema(a)
    var want = try SQLiteRoundTripTests.schema(a6.store.path)
    want.tables["Z_MODELCACHE"] = nil
    #expect(got.tables == want.tables)
    #expect(got.primaryKeys == want.primaryKeys)
    let info = try RealStore(number: "", store: URL(fileURLWithPath: a), bundle: a6.bundle, version: "").independent()
    #expect(info.hashes == (try a6.independent().hashes))
    #expect(info.rows.values.reduce(0, +) == (try a5.independent().rows.values.reduce(0, +)))

    let old = dir.appendingPathComponent("old.sqlite").path
    try FileManager.default.copyItem(atPath: x120.store.path, toPath: old)
    let before = FileManager.default.contents(atPath: old)
    let refused = runMapc(["migrate", "--model", x120.bundle.path, "--store", old])
    #expect(refused.exitCode == 1, "\(refused.stderr)")
    #expect(refused.stderr.contains("[infer-type-change]"), "\(refused.stderr)")
    #expect(FileManager.default.contents(atPath: old) == before)
  }
}
