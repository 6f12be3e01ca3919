import Foundation
import MapTestSupport
import Testing

/// Transformable values of Core Data SQLite stores (Specs/sqlite-store.md §5.1), checked with
/// python3 only (`Benchmarks/sqlite/*.py`: sqlite3 and plistlib, nothing of mapc): the diary as
/// an SQLite store written by the Python generator, migrated by `mapc run`, equals the Python
/// peer's store row by row; real stores' Transformable values export to the forms Python works
/// out and import back to the same bytes; hostile archives in a store stay bytes.
@Suite(.enabled(if: mapcExecutableProblem == nil && SharedPaths.shared != nil, "needs the built mapc and ../shared"))
struct SQLiteTransformableTests {
  static let scripts = SharedPaths.packageRoot.appendingPathComponent("Benchmarks/sqlite")

  static func python(_ script: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation)
    -> MapcResult
  {
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", scripts.appendingPathComponent(script).path] + arguments)
    #expect(r.exitCode == 0, "\(script): \(r.stdout) \(r.stderr)", sourceLocation: sourceLocation)
    return r
  }

  static var diaryModel: String {
    SharedPaths.fixtures!.appendingPathComponent("diary/SimpleQADiary.xcdatamodeld").path
  }

  /// `diary.cdm` in `dir`, compiled from the fixture's mapping model (version 1 to 2).
  static func diaryPlan(in dir: URL, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let plan = dir.appendingPathComponent("diary.cdm").path
    let compiled = runMapc([
      "compile", SharedPaths.fixtures!.appendingPathComponent("diary/SQADMappingModel1_2.xml").path, "-o", plan,
    ])
    #expect(compiled.exitCode == 0, "\(compiled.stderr)", sourceLocation: sourceLocation)
    return plan
  }

  /// Runs python3 `script` with `arguments`, after lines that define `U` (`plistlib.UID`) and
  /// `top(objects, root=1)`: the binary property list plistlib writes of a keyed archive with
  /// those `$objects` (keys in the order given).
  static func editWithArchives(
    _ script: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let prelude = """
      import plistlib
      U = plistlib.UID
      def top(objects, root=1):
          return plistlib.dumps({"$version": 100000, "$objects": objects, "$archiver": "NSKeyedArchiver",
                                 "$top": {"root": U(root)}}, fmt=plistlib.FMT_BINARY, sort_keys=False)

      """
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", prelude + script] + arguments)
    #expect(r.exitCode == 0, "\(r.stderr)", sourceLocation: sourceLocation)
  }

  /// 25,000 records: the records table is read by two threads (`TransformablePrefetch`, from
  /// 20,000 rows).
  @Test(arguments: [300, 25_000])
  func diaryMigratesLikeThePythonPeer(records: Int) throws {
    let dir = try FileManagerTemp.folder("sqlite-diary")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("diary.sqlite").path
    _ = Self.python("gen_diary_sqlite.py", ["\(records)", store, "--seed", "2"])
    // A WAL-mode store with no -wal beside it: read in place, nothing created next to it.
    let header = try FileHandle(forReadingFrom: URL(fileURLWithPath: store)).read(upToCount: 20) ?? Data()
    #expect(header.count == 20 && header[18] == 2, "the generator writes a WAL-mode store")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(files == ["diary.sqlite"])
    let plan = Self.diaryPlan(in: dir)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let out = dir.appendingPathComponent("out.sqlite").path
    let run = runMapc(["run", plan, "--store", store, "--output", out])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
        "diary.cdm", "diary.sqlite", "out.sqlite",
      ])
    let peer = dir.appendingPathComponent("peer.sqlite").path
    _ = Self.python("diary_sqlite.py", [store, peer])
    let compared = Self.python("compare_sqlite.py", [out, peer])
    #expect(compared.stdout.contains("rows: equal") && !compared.stdout.contains("only decoded"), "\(compared.stdout)")

    // The export holds the records gen_diary_store.py makes for the same N and seed.
    let exported = dir.appendingPathComponent("diary.json").path
    let export = runMapc(["store", "export", store, "--model", Self.diaryModel, "-o", exported])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let reference = dir.appendingPathComponent("reference.json").path
    let gen = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", SharedPaths.bench!.appendingPathComponent("gen_diary_store.py").path, "\(records)", reference,
        "--seed", "2",
      ])
    #expect(gen.exitCode == 0, "\(gen.stderr)")
    let same = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); sys.exit(a['objects'] != b['objects'])",
        exported, reference,
      ])
    #expect(same.exitCode == 0, "the export's objects differ from gen_diary_store.py's")
    // And importing it gives the generator's rows back, archives byte for byte.
    let imported = dir.appendingPathComponent("imported.sqlite").path
    #expect(runMapc(["store", "import", exported, "--model", Self.diaryModel, "-o", imported]).exitCode == 0)
    _ = Self.python("transformable_check.py", [store, exported, imported])
  }

  @Test(arguments: RealStore.all.filter { !$0.store.path.contains("v2CorruptDatabase") })
  func realTransformablesExportAndImportBack(_ s: RealStore) throws {
    let dir = try FileManagerTemp.folder("sqlite-transformable")
    defer { try? FileManager.default.removeItem(at: dir) }
    let json = dir.appendingPathComponent("export.json").path
    let export = runMapc(["store", "export", s.store.path, "--model", s.bundle.path, "-o", json])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let imported = dir.appendingPathComponent("imported.sqlite").path
    let r = runMapc(["store", "import", json, "--model", s.bundle.path, "-o", imported])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let check = Self.python("transformable_check.py", [s.store.path, json, imported])
    #expect(check.stdout.contains("\"problems\": []"), "\(check.stdout)")
    if s.store.lastPathComponent == "XCServerCoreData_1.2.0.sqlite" {
      // The two NSArray archives re-encode byte for byte and are read as arrays; the 14
      // NSDictionary archives (written with shared UIDs) stay bytes.
      #expect(check.stdout.contains("\"decoded\": 2"), "\(check.stdout)")
      #expect(try String(contentsOfFile: json, encoding: .utf8).contains("\"richard@richardpiazza.com\""))
    }
  }

  /// A WAL-mode store is opened through a `file:` URI (immutable): characters a URI gives a
  /// meaning (`%41` would be read as `A`, `?` and `#` would end the path) must reach the file.
  @Test func storeAtAPathWithURICharactersReadsInPlace() throws {
    let dir = try FileManagerTemp.folder("sqlite-uri")
    defer { try? FileManager.default.removeItem(at: dir) }
    let plain = dir.appendingPathComponent("diary.sqlite").path
    _ = Self.python("gen_diary_sqlite.py", ["40", plain, "--seed", "3"])
    let odd = dir.appendingPathComponent("odd ?#% folder")
    try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: false)
    let store = odd.appendingPathComponent("diary %41?x=1#é.sqlite").path
    try FileManager.default.copyItem(atPath: plain, toPath: store)
    var exports: [Data] = []
    for (k, path) in [plain, store].enumerated() {
      let json = dir.appendingPathComponent("export-\(k).json").path
      let r = runMapc(["store", "export", path, "--model", Self.diaryModel, "-o", json])
      #expect(r.exitCode == 0, "\(r.stderr)")
      exports.append(try Data(contentsOf: URL(fileURLWithPath: json)))
    }
    #expect(exports[0] == exports[1] && !exports[0].isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: odd.path) == ["diary %41?x=1#é.sqlite"])
  }

  /// A string with U+0000 inside (escaped in the JSON store) is stored whole: SQLite is given
  /// its length, not a C string.
  @Test func textWithANulCharacterIsStoredWhole() throws {
    let dir = try FileManagerTemp.folder("sqlite-nul")
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = try String(
      contentsOf: SharedPaths.fixtures!.appendingPathComponent("diary/store-v1.json"), encoding: .utf8)
    let json = dir.appendingPathComponent("store.json")
    try source.replacingOccurrences(of: "\"date\": \"2017-12-30\"", with: "\"date\": \"a\\u0000b\"")
      .write(to: json, atomically: false, encoding: .utf8)
    let out = dir.appendingPathComponent("out.sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", Self.diaryModel, "-o", out])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let check = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT hex(ZDATE) FROM ZRECORDS WHERE Z_PK = 1').fetchone()[0])",
        out,
      ])
    #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "610062", "\(check.stdout) \(check.stderr)")
  }

  /// Archives Foundation lays out otherwise than mapc's writer would (an `NSMutableArray`, an
  /// equal string archived twice, the class dictionary before its instance) are still the
  /// arrays a mapping looks into, as Foundation's unarchiver gives them on the device: the
  /// migrated answers equal the Python peer's, which unarchives with plistlib. Their export
  /// keeps their bytes (`$bytes`), since writing their value again would not give them back.
  @Test func archivesLaidOutOtherwiseAreStillLookedInto() throws {
    let dir = try FileManagerTemp.folder("sqlite-other-layouts")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("diary.sqlite").path
    _ = Self.python("gen_diary_sqlite.py", ["20", store, "--seed", "5"])
    let script = """
      import sqlite3, sys
      sys.path.insert(0, sys.argv[2])
      from keyed_archive import unarchive
      def cls(name):
          return {"$classname": name, "$classes": [name, "NSArray", "NSObject"] if name != "NSArray" else [name, "NSObject"]}
      def mutable(texts):
          n = len(texts)
          return top(["$null", {"NS.objects": [U(2 + i) for i in range(n)], "$class": U(2 + n)}] + texts + [cls("NSMutableArray")])
      def twice(texts):
          # The first string archived a second time in place of the second.
          texts = texts[:1] * 2 + texts[2:]
          n = len(texts)
          return top(["$null", {"NS.objects": [U(2 + i) for i in range(n)], "$class": U(2 + n)}] + texts + [cls("NSArray")])
      def class_first(texts):
          n = len(texts)
          return top(["$null", cls("NSArray"), {"NS.objects": [U(3 + i) for i in range(n)], "$class": U(1)}] + texts, root=2)
      db = sqlite3.connect(sys.argv[1])
      db.execute("PRAGMA journal_mode = DELETE")
      rows = [(pk, len(unarchive(q))) for pk, q in db.execute("SELECT Z_PK, ZQUESTIONS FROM ZRECORDS ORDER BY Z_PK")]
      chosen = [(pk, n) for pk, n in rows if n >= 2][:3]
      assert len(chosen) == 3, rows
      for (pk, n), make in zip(chosen, (mutable, twice, class_first)):
          texts = [f"answer {pk}.{j}" for j in range(n)]
          db.execute("UPDATE ZRECORDS SET ZANSWERS = ? WHERE Z_PK = ?", (make(texts), pk))
      db.commit()
      """
    Self.editWithArchives(script, [store, Self.scripts.path])
    let plan = Self.diaryPlan(in: dir)
    let out = dir.appendingPathComponent("out.sqlite").path
    let run = runMapc(["run", plan, "--store", store, "--output", out])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let peer = dir.appendingPathComponent("peer.sqlite").path
    _ = Self.python("diary_sqlite.py", [store, peer])
    let compared = Self.python("compare_sqlite.py", [out, peer])
    #expect(compared.stdout.contains("rows: equal"), "\(compared.stdout)")
    let answers = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT count(*) FROM ZQUESTION WHERE ZANSWER LIKE 'answer %'\").fetchone()[0])",
        out,
      ])
    #expect(Int(answers.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 6, "\(answers.stdout)")
    let json = dir.appendingPathComponent("export.json").path
    #expect(runMapc(["store", "export", store, "--model", Self.diaryModel, "-o", json]).exitCode == 0)
    #expect(try String(contentsOfFile: json, encoding: .utf8).components(separatedBy: "\"$bytes\"").count - 1 == 3)
  }

  /// A mapping that looks inside a Transformable value mapc cannot read (an archive of a custom
  /// class in an SQLite store; `{"$bytes": …}` in a JSON store), by index or as a forEach
  /// collection, stops with `run-opaque-transformable` naming the object, and writes nothing:
  /// on the device the class would answer, and guessing nil (or one element) would lose data
  /// without a word.
  @Test func lookingInsideAValueMapcCannotReadIsAnError() throws {
    let dir = try FileManagerTemp.folder("sqlite-opaque")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("diary.sqlite").path
    _ = Self.python("gen_diary_sqlite.py", ["20", store, "--seed", "4"])
    let json = dir.appendingPathComponent("diary.json").path
    let script = """
      import json, sqlite3, sys
      custom = top(["$null", {"NS.objects": [], "$class": U(2)}, {"$classname": "MyThing", "$classes": ["MyThing", "NSObject"]}])
      db = sqlite3.connect(sys.argv[1])
      db.execute("PRAGMA journal_mode = DELETE")
      db.execute("UPDATE ZRECORDS SET ZANSWERS = ? WHERE Z_PK = 3", (custom,))
      db.commit()
      d = json.load(open(sys.argv[2]))
      d["objects"]["Records"][1]["answers"] = {"$bytes": "AAEC"}
      json.dump(d, open(sys.argv[3], "w"))
      d["objects"]["Records"][1]["answers"] = ["Well", "8"]
      d["objects"]["Records"][0]["questions"] = {"$bytes": "AAEC"}
      json.dump(d, open(sys.argv[4], "w"))
      """
    let fixture = SharedPaths.fixtures!.appendingPathComponent("diary/store-v1.json").path
    let forEach = dir.appendingPathComponent("diary-foreach.json").path
    Self.editWithArchives(script, [store, fixture, json, forEach])
    let plan = Self.diaryPlan(in: dir)
    for (input, object) in [
      (store, "from Records/3):"), (json, "from Records/2):"), (forEach, "Records/1 (forEach of RecordsToQuestion):"),
    ] {
      let out = dir.appendingPathComponent("out-\(UUID().uuidString)").path
      let run = runMapc(["run", plan, "--store", input, "--output", out])
      #expect(run.exitCode == 2, "\(run.stderr)")
      #expect(run.stderr.contains("[run-opaque-transformable]") && run.stderr.contains(object), "\(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
  }

  @Test func hostileArchivesInAStoreStayBytes() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile-archives")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("diary.sqlite").path
    _ = Self.python("gen_diary_sqlite.py", ["20", store, "--seed", "4"])
    // Truncated, cyclic, out-of-range, deeply nested and custom-class archives in ZANSWERS.
    let script = """
      import sqlite3, sys
      cls = {"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]}
      deep = ["$null"] + [{"NS.objects": [U(i + 2)], "$class": U(302)} for i in range(300)] + ["x", cls]
      blobs = [
          top(["$null", {"NS.objects": [U(1)], "$class": U(2)}, cls]),
          top(["$null", {"NS.objects": [U(99)], "$class": U(2)}, cls]),
          top(deep),
          top(["$null", {"NS.objects": [], "$class": U(2)}, {"$classname": "MyThing", "$classes": ["MyThing", "NSObject"]}]),
          top(["$null", "a"])[:-5],
          b"not an archive",
      ]
      db = sqlite3.connect(sys.argv[1])
      db.execute("PRAGMA journal_mode = DELETE")
      for i, b in enumerate(blobs, 1):
          db.execute("UPDATE ZRECORDS SET ZANSWERS = ? WHERE Z_PK = ?", (b, i))
      db.commit()
      """
    Self.editWithArchives(script, [store])
    let json = dir.appendingPathComponent("export.json").path
    let export = runMapc(["store", "export", store, "--model", Self.diaryModel, "-o", json])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let text = try String(contentsOfFile: json, encoding: .utf8)
    #expect(text.components(separatedBy: "\"$bytes\"").count - 1 == 6)
    let imported = dir.appendingPathComponent("imported.sqlite").path
    #expect(runMapc(["store", "import", json, "--model", Self.diaryModel, "-o", imported]).exitCode == 0)
    let check = Self.python("transformable_check.py", [store, json, imported])
    #expect(check.stdout.contains("\"problems\": []"), "\(check.stdout)")
  }
}
