import Foundation
import MapTestSupport
import Testing

/// Issue 43's `mapc store check` and `mapc store repair` (Specs/store-check.md): nothing found on
/// the real stores (one real defect named), each damage python3 makes in a copy of DuckDuckGo's
/// Bookmarks_V4 found (`damage_store.py`), and the repaired copy passes the check with exactly
/// the changes python expects from the damage.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct StoreCheckTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var store: String
    var bundle: String?
    var testDescription: String { name }
  }

  /// Every real store: those of the table with their bundle, SwiftData's with their own model.
  static let realStores: [Case] =
    RealStore.all.map { Case(name: $0.testDescription, store: $0.store.path, bundle: $0.bundle.path) }
    + SwiftDataStoreTests.swiftDataStores.map { Case(name: "SwiftData " + $0, store: $0) }

  static var bookmarks: String? {
    SharedPaths.stores?.appendingPathComponent(
      "duckduckgo+BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V4.sqlite"
    ).path
  }

  /// What `damage_store.py make` says of each damaged copy.
  struct Damage: Decodable {
    var finding: String?
    var reported: String?
    var findings: [String]?
    var consent: [String]?
    var expected: [[JSONCell]]?
    var deleted: [[JSONCell]]?
    var added_columns: [[String]]?
    var repairable: Bool?
  }

  /// A cell of python's JSON: a number, a string or null.
  enum JSONCell: Decodable, Equatable, CustomStringConvertible {
    case int(Int64), text(String), null
    init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if c.decodeNil() {
        self = .null
      } else if let i = try? c.decode(Int64.self) {
        self = .int(i)
      } else {
        self = .text(try c.decode(String.self))
      }
    }
    var description: String {
      switch self {
      case .int(let i): "\(i)"
      case .text(let t): t
      case .null: "null"
      }
    }
  }

  struct Diff: Decodable {
    var changed: [[JSONCell]]
    var deleted: [[JSONCell]]
    var added: [[JSONCell]]
  }

  static func python(_ arguments: [String]) throws -> String {
    try SwiftDataStoreTests.python("damage_store.py", arguments)
  }

  static func damaged(_ label: String) throws -> (dir: URL, damages: [String: Damage]) {
    let dir = try FileManagerTemp.folder(label)
    let source = try #require(bookmarks)
    let json = try python(["make", source, dir.path])
    return (dir, try JSONDecoder().decode([String: Damage].self, from: Data(json.utf8)))
  }

  struct Report: Decodable {
    struct Finding: Decodable {
      var id: String
      var count: Int
      var severity: String
      var table: String?
      var column: String?
      var row: Int64?
      var entity: String?
      var message: String = ""
    }
    var findings: [Finding]
  }

  /// A copy of one of XCServerCoreData's real stores in a new folder, damaged by python3's
  /// sqlite3 running `statements` with the store open as `db`; what python printed.
  static func damagedCopy(_ file: String, label: String, _ statements: String) throws -> (
    dir: URL, store: URL, python: MapcResult
  ) {
    let source = try #require(
      SharedPaths.stores?.appendingPathComponent("richardpiazza+XCServerCoreData/Tests/\(file)"))
    let dir = try FileManagerTemp.folder(label)
    let store = dir.appendingPathComponent("x.sqlite")
    try FileManager.default.copyItem(at: source, to: store)
    let p = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", "import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); " + statements, store.path])
    try #require(p.exitCode == 0, "\(p.stderr)")
    return (dir, store, p)
  }

  static func check(_ store: String, _ extra: [String] = []) throws -> (Int32, Report) {
    let r = runMapc(["store", "check", store, "--format", "json"] + extra)
    let report = try JSONDecoder().decode(Report.self, from: Data(r.stdout.utf8))
    return (r.exitCode, report)
  }

  /// A real store has nothing to report but notes, except the one defect python confirms.
  @Test(arguments: realStores) func realStoresPass(_ c: Case) throws {
    let (code, report) = try Self.check(c.store, c.bundle.map { ["--model", $0] } ?? [])
    let failing = report.findings.filter { $0.severity != "note" }
    if c.store.contains("/v2CorruptDatabase/") {
      // Apptentive's test expects Core Data to discard this store. Its metadata names
      // ATDataModel 3, whose ATRecord has customData, but its table has no such column; and its
      // one displayTypes link names ZATRECORD row 1, an ATEvent, not an ATAbstractMessage.
      let info = runExecutable(
        URL(fileURLWithPath: "/usr/bin/env"),
        [
          "python3", "-c",
          "import sqlite3,sys; db=sqlite3.connect('file:'+sys.argv[1]+'?immutable=1', uri=True); print([r[1] for r in db.execute('PRAGMA table_info(ZATRECORD)')]); print(db.execute('SELECT p.Z_NAME FROM Z_5DISPLAYTYPES j JOIN ZATRECORD r ON r.Z_PK = j.Z_5MESSAGES JOIN Z_PRIMARYKEY p ON p.Z_ENT = r.Z_ENT').fetchall())",
          c.store,
        ])
      #expect(!info.stdout.contains("ZCUSTOMDATA"), "\(info.stdout)")
      #expect(info.stdout.hasSuffix("[('ATEvent',)]\n"), "\(info.stdout)")
      #expect(failing.map(\.id) == ["check-layout-column", "check-dangling-join"], "\(failing.map(\.id))")
      #expect(failing.first?.column == "ZCUSTOMDATA" && failing.last?.table == "Z_5DISPLAYTYPES")
      #expect(code == 1)
      // The repair adds the column; the copy then passes.
      let dir = try FileManagerTemp.folder("check-apptentive")
      defer { FileManagerTemp.remove(dir.path) }
      let out = dir.appendingPathComponent("fixed.sqlite").path
      // The store is read, never written: not its -shm either, which a plain read-only SQLite
      // connection to a store in WAL mode rewrites (same bytes, a new time).
      func stamps() -> [Date?] {
        ["", "-wal", "-shm"].map {
          (try? FileManager.default.attributesOfItem(atPath: c.store + $0))?[.modificationDate] as? Date
        }
      }
      let before = stamps()
      let r = runMapc(["store", "repair", c.store, "--model", c.bundle ?? "", "-o", out])
      #expect(stamps() == before, "store repair wrote beside the store it read")
      #expect(r.exitCode == 0 && r.stderr.contains("added ZATRECORD.ZCUSTOMDATA"), "\(r.stderr)")
      #expect(r.stderr.contains("deleted the rows of Z_5DISPLAYTYPES that link to no row (1 row)"), "\(r.stderr)")
      #expect(try Self.check(out, ["--model", c.bundle ?? ""]).0 == 0)
      return
    }
    #expect(failing.isEmpty, "\(failing.map { "\($0.id) \($0.table ?? "") \($0.column ?? "")" })")
    #expect(code == 0)
  }

  /// Each damaged copy: the check names the damage's finding, and nothing else fails but what
  /// the damage implies (a dropped column takes its index; an index made wrong is also laid
  /// out wrong).
  @Test func eachDamageIsFound() throws {
    let (dir, damages) = try Self.damaged("check-damage")
    defer { FileManagerTemp.remove(dir.path) }
    let companions: [String: Set<String>] = [
      "column": ["check-layout-index"], "integrity": ["check-layout-index"],
    ]
    #expect(damages.count == 13)
    for (name, d) in damages.sorted(by: { $0.key < $1.key }) {
      let (code, report) = try Self.check(dir.appendingPathComponent(name + ".sqlite").path)
      let ids = Set(report.findings.filter { $0.severity != "note" }.map(\.id))
      let wanted = Set(d.findings ?? [d.finding].compactMap { $0 })
      #expect(wanted.isSubset(of: ids), "\(name): \(ids.sorted())")
      #expect(ids.subtracting(wanted).subtracting(companions[name] ?? []).isEmpty, "\(name): \(ids.sorted())")
      #expect(code == 1, "\(name)")
    }
  }

  /// The repaired copy passes the check, and python finds exactly the expected changes between
  /// the damaged copy and it; a repair that loses data is refused without consent.
  @Test func repairMakesOnlyTheExpectedChanges() throws {
    let (dir, damages) = try Self.damaged("check-repair")
    defer { FileManagerTemp.remove(dir.path) }
    for (name, d) in damages.sorted(by: { $0.key < $1.key }) where d.repairable != false {
      let store = dir.appendingPathComponent(name + ".sqlite").path
      let out = dir.appendingPathComponent(name + "-repaired.sqlite").path
      if let consent = d.consent {
        let refused = runMapc(["store", "repair", store, "-o", out])
        #expect(refused.exitCode == 2, "\(name): \(refused.stderr)")
        #expect(refused.stderr.contains("[check-repair-refused]"), "\(name)")
        #expect(!FileManager.default.fileExists(atPath: out), "\(name): written without consent")
        let r = runMapc(["store", "repair", store, "-o", out] + consent)
        #expect(r.exitCode == 0, "\(name): \(r.stderr)")
      } else {
        let r = runMapc(["store", "repair", store, "-o", out])
        #expect(r.exitCode == 0, "\(name): \(r.stderr)")
        #expect(
          r.stderr.contains("[\(d.reported ?? d.finding ?? "")]"), "\(name): the change is not reported: \(r.stderr)")
      }
      let (code, report) = try Self.check(out)
      #expect(code == 0 && report.findings.filter { $0.severity != "note" }.isEmpty, "\(name)")
      let diff = try JSONDecoder().decode(Diff.self, from: Data(try Self.python(["diff", store, out]).utf8))
      var expected = (d.expected ?? []).map { [$0[0], $0[1], $0[2]].map(\.description) + [$0[3].description] }
      for added in d.added_columns ?? [] {
        // A column made again holds NULL in every row (its values were lost with it).
        for row in diff.changed where row[0].description == added[0] && row[2].description == added[1] {
          expected.append([added[0], row[1].description, added[1], "null"])
        }
      }
      #expect(
        diff.changed.map { [$0[0], $0[1], $0[2], $0[4]].map(\.description) }.sorted { $0.lexicographicallyPrecedes($1) }
          == expected.sorted { $0.lexicographicallyPrecedes($1) }, "\(name)")
      #expect(diff.deleted.map { $0.map(\.description) } == (d.deleted ?? []).map { $0.map(\.description) }, "\(name)")
      #expect(diff.added.isEmpty, "\(name)")
    }
  }

  /// What has no repair: a mandatory NULL is left (the copy written, exit 1, the finding
  /// listed); an unknown version is refused whole (exit 1, nothing written); the copy with every
  /// damage is repaired but for its mandatory NULL.
  @Test func whatHasNoRepairIsSaid() throws {
    let (dir, _) = try Self.damaged("check-no-repair")
    defer { FileManagerTemp.remove(dir.path) }
    func path(_ n: String) -> String { dir.appendingPathComponent(n).path }
    let m = runMapc(["store", "repair", path("mandatory.sqlite"), "-o", path("m.sqlite")])
    #expect(m.exitCode == 1 && m.stderr.contains("[check-mandatory-null]"), "\(m.stderr)")
    let v = runMapc(["store", "repair", path("version.sqlite"), "-o", path("v.sqlite")])
    #expect(v.exitCode == 1 && v.stderr.contains("[check-unknown-version]"), "\(v.stderr)")
    #expect(!FileManager.default.fileExists(atPath: path("v.sqlite")))
    let a = runMapc(["store", "repair", path("all.sqlite"), "-o", path("a.sqlite"), "--allow-data-loss"])
    #expect(a.exitCode == 1, "\(a.stderr)")
    let (_, report) = try Self.check(path("a.sqlite"))
    #expect(report.findings.filter { $0.severity != "note" }.map(\.id) == ["check-mandatory-null"])
  }

  /// SARIF has one result per finding of the JSON report, each with the finding's id.
  @Test func sarifListsTheFindings() throws {
    let (dir, _) = try Self.damaged("check-sarif")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("all.sqlite").path
    let (_, report) = try Self.check(store)
    let r = runMapc(["store", "check", store, "--format", "sarif"])
    #expect(r.exitCode == 1)
    let sarif = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(sarif["version"] as? String == "2.1.0")
    let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
    #expect(results.compactMap { $0["ruleId"] as? String } == report.findings.map(\.id))
  }

  /// An archive python overwrote with bytes that are no keyed archive (XCServerCoreData's
  /// Transformable `Integration.testHierachy`): found, and cleared only with consent.
  @Test func anArchiveThatDoesNotDecodeIsFound() throws {
    let (dir, store, p) = try Self.damagedCopy(
      "XCServerCoreData_1.2.0.sqlite", label: "check-archive",
      "pk=db.execute('SELECT min(Z_PK) FROM ZINTEGRATION WHERE ZTESTHIERACHY IS NOT NULL').fetchone()[0]; db.execute('UPDATE ZINTEGRATION SET ZTESTHIERACHY = ? WHERE Z_PK = ?', (b'bplist00garbage', pk)); db.commit(); print(pk)"
    )
    defer { FileManagerTemp.remove(dir.path) }
    let (code, report) = try Self.check(store.path)
    let failing = report.findings.filter { $0.severity != "note" }
    #expect(failing.map(\.id) == ["check-value-undecodable"] && failing.first?.column == "ZTESTHIERACHY")
    #expect(failing.first.map { "\($0.row ?? 0)\n" } == p.stdout)
    #expect(code == 1)
    let out = dir.appendingPathComponent("fixed.sqlite").path
    #expect(runMapc(["store", "repair", store.path, "-o", out]).exitCode == 2)
    let r = runMapc(["store", "repair", store.path, "-o", out, "--allow-drop", "Integration.testHierachy"])
    #expect(r.exitCode == 0, "\(r.stderr)")
  }

  /// Many bad rows make a short report: the first 20 of one column listed, the rest one
  /// finding that counts them; the repair still repairs every one (XCServerCoreData 2.0.1,
  /// ZCOMMITCHANGE.ZCOMMIT pointed past ZCOMMIT in 9 527 rows by python).
  @Test func manyBadRowsAreCountedAndAllRepaired() throws {
    let (dir, store, p) = try Self.damagedCopy(
      "XCServerCoreData_2.0.1.sqlite", label: "check-many",
      "n=db.execute('UPDATE ZCOMMITCHANGE SET ZCOMMIT = 1000000 + Z_PK').rowcount; db.commit(); print(n)")
    defer { FileManagerTemp.remove(dir.path) }
    let damaged = try #require(Int(p.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    let (_, report) = try Self.check(store.path)
    let found = report.findings.filter { $0.id == "check-dangling-to-one" }
    #expect(found.count == 21 && found.filter { $0.row != nil }.count == 20)
    #expect(found.last?.row == nil && found.last?.count == damaged - 20)
    let r = runMapc(["store", "repair", store.path, "-o", dir.appendingPathComponent("fixed.sqlite").path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("to NULL where it named no row (\(damaged) rows)"), "\(r.stderr)")
  }

  /// A reference to an external data file that is missing (python's store of ExternalDataTests).
  @Test func missingExternalFileIsFound() throws {
    let f = try ExternalDataTests.fixture("check-external")
    defer { FileManagerTemp.remove(f.dir.path) }
    let (code, report) = try Self.check(f.store, ["--model", f.bundle])
    let missing = report.findings.filter { $0.id == "check-external-missing" }
    #expect(missing.map(\.row) == [3] && missing.first?.column == "ZIMAGE")
    #expect(code == 1)
    // The repair clears the reference only with consent, and carries the files the rows name.
    let out = f.dir.appendingPathComponent("Fixed.sqlite").path
    #expect(runMapc(["store", "repair", f.store, "--model", f.bundle, "-o", out]).exitCode == 2)
    let r = runMapc(["store", "repair", f.store, "--model", f.bundle, "-o", out, "--allow-drop", "Photo.image"])
    #expect(r.exitCode == 0 && r.stderr.contains("(1 row) [check-external-missing]"), "\(r.stderr)")
    let fixed = try ExternalDataTests.read(store: out)
    var expected = f.made.rows
    expected["3"]?.image = nil
    #expect(fixed.rows == expected)
    #expect(fixed.files == ExternalDataTests.referenced(f.made))
  }
}
