import Foundation
import MapTestSupport
import Testing

/// `mapc store convert` with `--memory-limit` (issue 41): a store larger than the limit allows
/// in memory is read a chunk at a time and written as it goes, or refused with
/// `run-memory-limit` (exit 2, nothing written). Either way the store is as it was, and a
/// conversion that goes gives the bytes of the conversion in memory, to JSON and to SQLite.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct ConvertChunksTests {
  /// Stores (file names) that go in two chunks or more at 64K, to either format.
  static let inChunks: Set<String> = [
    "Bookmarks_V1.sqlite", "Bookmarks_V2.sqlite", "Bookmarks_V3.sqlite", "Bookmarks_V4.sqlite", "Bookmarks_V5.sqlite",
    "CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example_2.sqlite", "CoreDataMigration_Example_3.sqlite",
    "SurfJournalModel.sqlite", "XCServerCoreData_1.2.0.sqlite", "store2-80-0.wiredatabase",
  ]

  struct Case: CustomTestStringConvertible, Sendable {
    var store: String
    /// The model bundle, nil for the model the store carries.
    var bundle: String?
    var to: String
    var limit: String
    var testDescription: String { "\((store as NSString).lastPathComponent) → \(to) at \(limit)" }
  }

  /// Every real store of `../shared/stores` (the corrupt one aside: its errors come in the
  /// order the chunks are read) and of `../shared/swiftdata`, to both formats, at 16K and 64K.
  static let cases: [Case] = {
    let stores =
      RealStore.all.filter { !$0.store.path.contains("/v2CorruptDatabase/") }.map { ($0.store.path, $0.bundle.path) }
      + SwiftDataStoreTests.swiftDataStores.map { ($0, nil as String?) }
    return stores.flatMap { store, bundle in
      ["json", "sqlite"].flatMap { to in ["16K", "64K"].map { Case(store: store, bundle: bundle, to: to, limit: $0) } }
    }
  }()

  /// `mapc: converted N objects[ in K chunks (--memory-limit)] from …`: N and K (0: read whole).
  static func counts(_ stderr: String) -> (objects: Int, chunks: Int)? {
    guard let m = stderr.firstMatch(of: /converted (\d+) objects( in (\d+) chunks?)?/) else { return nil }
    return (Int(m.1) ?? -1, m.3.flatMap { Int($0) } ?? 0)
  }

  @Test(
    .enabled(if: SharedPaths.stores != nil, "needs ../shared/stores"), arguments: cases)
  func realStoreGivesTheBytesInMemoryOrARefusal(_ c: Case) throws {
    let dir = try FileManagerTemp.folder("convert-chunks")
    defer { FileManagerTemp.remove(dir.path) }
    let before = RealStore.siblings(c.store)
    func convert(_ out: String, _ extra: [String]) -> MapcResult {
      runMapc(
        ["store", "convert", c.store, "-o", out, "--to", c.to] + (c.bundle.map { ["--model", $0] } ?? []) + extra)
    }
    let whole = dir.appendingPathComponent("whole.\(c.to)").path
    let a = convert(whole, [])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let chunked = dir.appendingPathComponent("chunks.\(c.to)").path
    let b = convert(chunked, ["--memory-limit", c.limit])
    if b.exitCode == 2 && b.stderr.contains("[run-memory-limit]") {
      #expect(!FileManager.default.fileExists(atPath: chunked))
      #expect(c.limit == "16K" || !Self.inChunks.contains((c.store as NSString).lastPathComponent), "\(b.stderr)")
    } else {
      try #require(b.exitCode == 0, "\(b.stderr)")
      let (objects, chunks) = try #require(Self.counts(b.stderr), "\(b.stderr)")
      #expect(objects == Self.counts(a.stderr)?.objects)
      if c.limit == "64K" && Self.inChunks.contains((c.store as NSString).lastPathComponent) {
        #expect(chunks >= 2, "\(b.stderr)")
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    }
    #expect(RealStore.siblings(c.store) == before)
  }

  /// Stores (file names) whose JSON export goes into SQLite in two chunks or more at 256K: their
  /// related entities with stubs, the ordered relationships' indexes and the owners of
  /// relationships without an inverse (MetaCocktails' `Cocktail.spec`) from a first pass over
  /// the JSON store (`MemberPlaces`).
  static let jsonInChunks: Set<String> = [
    "Bookmarks_V5.sqlite", "CoreDataMigration_Example_3.sqlite", "XCServerCoreData_2.0.1.sqlite",
    "store2-80-0.wiredatabase", "default.store",
  ]

  /// Every real store of `../shared/stores` (the corrupt one aside) and of `../shared/swiftdata`,
  /// once each, exported to JSON in memory.
  static let exportCases: [Case] = cases.filter { $0.to == "sqlite" && $0.limit == "64K" }

  /// Each real store exported to JSON in memory, then converted back to SQLite in memory and at
  /// 64K and 256K: refused with nothing written, or the bytes of the conversion in memory
  /// (`jsonInChunks` in two chunks or more at 256K), whose every row but `Z_OPT` (which a JSON
  /// store does not keep) python3's sqlite3 finds in the original store, table by table.
  @Test(
    .enabled(if: SharedPaths.stores != nil, "needs ../shared/stores"),
    .enabled(if: python3 != nil, "python3 is needed to read the stores"), arguments: exportCases)
  func realStoreExportedToJSONGoesBackToSQLiteInChunks(_ c: Case) throws {
    let dir = try FileManagerTemp.folder("convert-chunks-json-back")
    defer { FileManagerTemp.remove(dir.path) }
    let name = (c.store as NSString).lastPathComponent
    let before = RealStore.siblings(c.store)
    defer { #expect(RealStore.siblings(c.store) == before, "\(name) and its -wal, -shm are as they were") }
    // The model: the bundle, or the one the store carries (a JSON store carries none).
    var model = c.bundle
    if model == nil {
      let carried = dir.appendingPathComponent("M.xcdatamodeld").path
      let m = runMapc(["store", "model", c.store, "-o", carried])
      try #require(m.exitCode == 0, "\(m.stderr)")
      model = carried
    }
    let json = dir.appendingPathComponent("export.json").path
    let e = runMapc(["store", "export", c.store, "--model", model!, "-o", json, "--quiet"])
    guard e.exitCode == 0 else {
      // (apptentive's older stores: their bundle has no version of their hashes.)
      #expect(e.stderr.contains("[store-unknown-version]"), "\(e.stderr)")
      return
    }
    let convert = ["store", "convert", json, "--model", model!, "--to", "sqlite", "-o"]
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = runMapc(convert + [whole, "--quiet"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    // python3 reads a copy of the store with its -wal and -shm: SQLite makes and changes them
    // when it opens a store in WAL mode, even read-only.
    let original = dir.appendingPathComponent("original.sqlite").path
    for (suffix, bytes) in before { try bytes.write(to: URL(fileURLWithPath: original + suffix)) }
    let rows = Self.everyRowButVersions(of: whole, from: original)
    #expect(!rows.isEmpty)
    #expect(Self.everyRowButVersions(of: whole, from: whole) == rows, "\(name)")
    for limit in ["64K", "256K"] {
      let chunked = dir.appendingPathComponent("chunks-\(limit).sqlite").path
      let b = runMapc(convert + [chunked, "--memory-limit", limit])
      if b.exitCode == 2 && b.stderr.contains("[run-memory-limit]") {
        #expect(!FileManager.default.fileExists(atPath: chunked))
        #expect(limit == "64K" || !Self.jsonInChunks.contains(name), "\(b.stderr)")
        continue
      }
      try #require(b.exitCode == 0, "\(b.stderr)")
      if limit == "256K" && Self.jsonInChunks.contains(name) {
        #expect((Self.counts(b.stderr)?.chunks ?? 0) >= 2, "\(b.stderr)")
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    }
  }

  /// Every row of every table of the store at `converted` but `Z_METADATA` and `Z_MODELCACHE`
  /// (never a real store: opening one, SQLite writes its `-wal` and `-shm`),
  /// without the `Z_OPT` column, as python3's sqlite3 reads them from the store at `store`
  /// (the tables and columns `converted` has; `Z_PRIMARYKEY`'s rows of Core Data's own
  /// entities, numbered from 16000, left out: a JSON store keeps no persistent history).
  static func everyRowButVersions(of converted: String, from store: String) -> String {
    let script = """
      import sqlite3, sys
      c = sqlite3.connect(sys.argv[1])
      s = sqlite3.connect(sys.argv[2])
      for (t,) in s.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE') ORDER BY name"):
        cols = [r[1] for r in s.execute('PRAGMA table_info("%s")' % t) if r[1] != 'Z_OPT']
        where = ' WHERE Z_ENT < 16000' if t == 'Z_PRIMARYKEY' else ''
        print(t, cols, c.execute('SELECT %s FROM "%s"%s ORDER BY 1, 2' % (', '.join('"%s"' % x for x in cols), t, where)).fetchall())
      """
    return runTool(python3!, ["-c", script, store, converted]).stdout
  }

  /// The real SwiftData stores at 256K, where their history tables (read whole) fit a quarter
  /// of the limit: each goes in two chunks or more, with the bytes in memory, MetaCocktails'
  /// `Cocktail.spec` (a to-many relationship without an inverse: its members' rows hold the
  /// owner's key) included.
  @Test(
    .enabled(if: SharedPaths.swiftdata != nil, "needs ../shared/swiftdata"),
    arguments: SwiftDataStoreTests.swiftDataStores, ["json", "sqlite"])
  func swiftDataStoreGoesInChunks(_ store: String, _ to: String) throws {
    let dir = try FileManagerTemp.folder("convert-chunks-swiftdata")
    defer { FileManagerTemp.remove(dir.path) }
    let whole = dir.appendingPathComponent("whole.\(to)").path
    let a = runMapc(["store", "convert", store, "-o", whole, "--to", to, "--quiet"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let chunked = dir.appendingPathComponent("chunks.\(to)").path
    let b = runMapc(["store", "convert", store, "-o", chunked, "--to", to, "--memory-limit", "256K"])
    try #require(b.exitCode == 0, "\(b.stderr)")
    #expect((Self.counts(b.stderr)?.chunks ?? 0) >= 2, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
  }

  /// A tree of messages (`InheritanceChunksTests.store`: an abstract `Message` and three
  /// sub-entities in one table, gaps in `Z_PK`, raised `Z_OPT`), whose people's messages are
  /// ordered, and whose messages have ordered tags (a many-to-many), converted to JSON at 1M:
  /// more than two chunks, the bytes of the export in memory, and each person's `messages`,
  /// each message's `tags` and each tag's `messages` are, in order, what python3's sqlite3
  /// reads from the store (`Z_FOK_` columns, the join table's).
  @Test(.enabled(if: python3 != nil, "python3 is needed to make and read the store"))
  func aTreeExportedInChunksListsEachRelationshipAsTheStoreHasIt() throws {
    let dir = try FileManagerTemp.folder("convert-chunks-tree")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try InheritanceChunksTests.store(dir, ordered: true, tags: true)
    let bundle = dir.appendingPathComponent("R.xcdatamodeld").path
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    /// Converted to `to` in memory and at 1M: more than two chunks, the same bytes.
    func inChunks(_ to: String) throws -> String {
      let convert = ["store", "convert", store, "--model", bundle, "--to", to, "-o"]
      let whole = dir.appendingPathComponent("whole.\(to)").path
      let a = runMapc(convert + [whole, "--quiet"])
      try #require(a.exitCode == 0, "\(a.stderr)")
      let chunked = dir.appendingPathComponent("chunks.\(to)").path
      let b = runMapc(convert + [chunked, "--memory-limit", "1M"])
      try #require(b.exitCode == 0, "\(b.stderr)")
      #expect((Self.counts(b.stderr)?.chunks ?? 0) > 2, "\(b.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
      return chunked
    }
    let chunked = try inChunks("json")
    let check = runTool(python3!, ["-c", Self.relationshipsAsStored, store, chunked])
    #expect(check.exitCode == 0, "\(check.stderr)")
    #expect(check.stdout.contains("people 50, messages"), "\(check.stdout)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)

    // To SQLite in chunks: the same bytes as in memory, and every row of every table as the
    // store has it.
    let chunkedSQLite = try inChunks("sqlite")
    let source = runTool(python3!, ["-c", InheritanceChunksTests.everyColumn, store]).stdout
    #expect(source.contains("Z_2TAGS ['Z_2MESSAGES'"), "\(source.prefix(300))")
    #expect(runTool(python3!, ["-c", InheritanceChunksTests.everyColumn, chunkedSQLite, store]).stdout == source)
  }

  /// The same tree, exported to JSON in memory, then converted back to SQLite: in memory, and
  /// at 1M and 256K in chunks with stubs. A JSON store lists an ordered relationship's members
  /// with their owner only, so the chunks' members of people and tags in other chunks take
  /// their indexes from a first pass over the store (`MemberPlaces`): the bytes of the
  /// conversion in memory, and every row of every table (`Z_FOK_` positions, the join table's
  /// included) as python3's sqlite3 reads the original store, but for `Z_OPT`, which a JSON
  /// store does not keep.
  @Test(.enabled(if: python3 != nil, "python3 is needed to make and read the store"))
  func aTreeImportedFromJSONInChunksHasEveryRowOfTheStore() throws {
    let dir = try FileManagerTemp.folder("convert-chunks-json-tree")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try InheritanceChunksTests.store(dir, ordered: true, tags: true)
    let bundle = dir.appendingPathComponent("R.xcdatamodeld").path
    let json = dir.appendingPathComponent("tree.json").path
    let export = runMapc(["store", "export", store, "--model", bundle, "-o", json, "--quiet"])
    try #require(export.exitCode == 0, "\(export.stderr)")
    let before = try Data(contentsOf: URL(fileURLWithPath: json))
    let convert = ["store", "convert", json, "--model", bundle, "--to", "sqlite", "-o"]
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = runMapc(convert + [whole, "--quiet"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let everyColumn = InheritanceChunksTests.everyColumn.replacing(
      "% t)]", with: "% t) if r[1] != 'Z_OPT']")
    #expect(everyColumn != InheritanceChunksTests.everyColumn)
    let rows = runTool(python3!, ["-c", everyColumn, store]).stdout
    #expect(rows.contains("Z_2TAGS ['Z_2MESSAGES'") && rows.contains("Z_FOK_SENDER"), "\(rows.prefix(300))")
    #expect(runTool(python3!, ["-c", everyColumn, whole, store]).stdout == rows)
    for limit in ["1M", "256K"] {
      let chunked = dir.appendingPathComponent("chunks-\(limit).sqlite").path
      let b = runMapc(convert + [chunked, "--memory-limit", limit])
      try #require(b.exitCode == 0, "\(b.stderr)")
      #expect((Self.counts(b.stderr)?.chunks ?? 0) > 2, "\(b.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
      #expect(runTool(python3!, ["-c", everyColumn, chunked, store]).stdout == rows)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: json)) == before)
  }

  /// Reads the store (argv[1]) with sqlite3 and the JSON export (argv[2]) with json; exits 1
  /// naming the first relationship whose members differ.
  static let relationshipsAsStored = """
    import sqlite3, sys, json
    db = sqlite3.connect(sys.argv[1])
    doc = json.load(open(sys.argv[2]))["objects"]
    ent = dict(db.execute("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY").fetchall())
    def ident(e, pk): return "%s/%d" % (ent[e], pk)
    people = {o["id"]: o["messages"] for o in doc["Person"]}
    for (pk,) in db.execute("SELECT Z_PK FROM ZPERSON"):
        want = [ident(e, m) for e, m in db.execute("SELECT Z_ENT, Z_PK FROM ZMESSAGE WHERE ZSENDER = ? ORDER BY Z_FOK_SENDER, Z_PK", (pk,))]
        if people["Person/%d" % pk] != want: sys.exit("Person/%d messages %r, the store %r" % (pk, people["Person/%d" % pk], want))
    messages = {o["id"]: o for kind in ("Text", "Image", "Reply") for o in doc[kind]}
    cols = [r[1] for r in db.execute("PRAGMA table_info(Z_2TAGS)")]
    order = [c for c in cols if c.startswith("Z_FOK_")]
    tag = [c for c in cols if c != "Z_2MESSAGES" and not c.startswith("Z_FOK_")]
    if len(order) != 1 or len(tag) != 1 or "Z_2MESSAGES" not in cols: sys.exit("join table columns %r" % cols)
    for e, pk in db.execute("SELECT Z_ENT, Z_PK FROM ZMESSAGE"):
        want = ["Tag/%d" % t for (t,) in db.execute('SELECT "%s" FROM Z_2TAGS WHERE Z_2MESSAGES = ? ORDER BY "%s"' % (tag[0], order[0]), (pk,))]
        if messages[ident(e, pk)]["tags"] != want: sys.exit("%s tags %r, the store %r" % (ident(e, pk), messages[ident(e, pk)]["tags"], want))
    for o in doc["Tag"]:
        pk = int(o["id"].split("/")[1])
        want = sorted(ident(e, m) for e, m in db.execute('SELECT Z_ENT, Z_PK FROM ZMESSAGE WHERE Z_PK IN (SELECT Z_2MESSAGES FROM Z_2TAGS WHERE "%s" = ?)' % tag[0], (pk,)))
        if sorted(o["messages"]) != want: sys.exit("%s messages differ" % o["id"])
    print("people %d, messages %d" % (len(people), len(messages)))
    """

  /// A store converted SQLite → SQLite in chunks keeps its persistent-history tables, every row
  /// (`ConvertKeepsHistoryTests`, through python3's sqlite3), in more than one chunk.
  @Test(.enabled(if: python3 != nil, "python3 is needed to make and read the store"))
  func historyIsKeptInChunks() throws {
    let dir = try FileManagerTemp.folder("convert-chunks-history")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("Trips.sqlite").path
    _ = try SwiftDataStoreTests.python("swiftdata_store.py", [store])
    try ConvertKeepsHistoryTests().convertsEverything(store, in: dir, extra: ["--memory-limit", "16K"]) { stderr in
      #expect((Self.counts(stderr)?.chunks ?? 0) >= 2, "\(stderr)")
    }
  }

  /// How a JSON store's notes are named: `Note/<number>` with gaps (their numbers kept),
  /// other ids (numbered from 1), numbers but for one id near the end (the conversion starts
  /// over, numbering from 1), or other ids and a recorded highest number (refused in chunks:
  /// the writers would number after it, which the last part read says).
  enum Ids: String, CaseIterable, Sendable {
    case numbered, other, oneOtherLate, otherWithHighest
  }

  /// A JSON store of 3,000 notes (an entity that stands alone) converted to SQLite and to JSON
  /// at 64K: the bytes of the conversion in memory, more than two chunks, and python3's sqlite3
  /// finds each note's values under the `Z_PK` its id gives (or its place, from 1), `Z_MAX` the
  /// highest; or, for `otherWithHighest`, refused with nothing written.
  @Test(arguments: Ids.allCases) func aJSONStoreGoesInChunks(_ ids: Ids) throws {
    let dir = try FileManagerTemp.folder("convert-chunks-json")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(
      RelationshipChunksTests.model(
        #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="n" attributeType="Integer 64" defaultValueString="0"/><attribute name="weight" optional="YES" attributeType="Double"/></entity>"#
      ), named: "N", in: dir)
    var metadata = try ModelBundles.storeMetadata(bundle)
    metadata["NSStoreUUID"] = "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"
    if ids == .otherWithHighest { metadata["mapcObjectKeyMax"] = ["Note": 50] }
    let notes = (1...3000).map { i -> [String: Any] in
      let id: String
      switch ids {
      case .numbered, .oneOtherLate: id = ids == .oneOtherLate && i == 2900 ? "note-2900" : "Note/\(3 * i + 7)"
      case .other, .otherWithHighest: id = "n\(i)"
      }
      return ["id": id, "title": "note \(i), with a few words to fill its row", "n": i * i, "weight": Double(i) / 8]
    }
    let store = dir.appendingPathComponent("notes.json").path
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": ["Note": notes]])
      .write(to: URL(fileURLWithPath: store))
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    for to in ["sqlite", "json"] {
      let convert = ["store", "convert", store, "--model", bundle.path, "--to", to, "-o"]
      let whole = dir.appendingPathComponent("whole.\(to)").path
      let a = runMapc(convert + [whole, "--quiet"])
      try #require(a.exitCode == 0, "\(a.stderr)")
      let chunked = dir.appendingPathComponent("chunks.\(to)").path
      let b = runMapc(convert + [chunked, "--memory-limit", "64K"])
      if ids == .otherWithHighest {
        #expect(b.exitCode == 2 && b.stderr.contains("[run-memory-limit]"), "\(b.stderr)")
        #expect(b.stderr.contains("records 50 as its highest number"), "\(b.stderr)")
        #expect(!FileManager.default.fileExists(atPath: chunked))
        continue
      }
      try #require(b.exitCode == 0, "\(b.stderr)")
      #expect((Self.counts(b.stderr)?.chunks ?? 0) > 2, "\(b.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
      guard to == "sqlite" else { continue }
      let numbered = ids == .numbered
      let script = """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        rows = db.execute("SELECT Z_PK, ZTITLE, ZN, ZWEIGHT FROM ZNOTE ORDER BY Z_PK").fetchall()
        want = [((3 * i + 7) if \(numbered ? "True" : "False") else i, "note %d, with a few words to fill its row" % i, i * i, i / 8) for i in range(1, 3001)]
        high = db.execute("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'").fetchone()[0]
        print("rows equal" if rows == want else "rows differ: %r" % (rows[:2],), high == want[-1][0])
        """
      let read = runTool(python3!, ["-c", script, chunked])
      #expect(read.stdout == "rows equal True\n", "\(read.stdout)\(read.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }
}
