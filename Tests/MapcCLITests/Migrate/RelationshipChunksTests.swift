import Foundation
import MapTestSupport
import Testing

/// `mapc migrate --memory-limit` over entities with to-one relationships (issue 41): `Item`
/// refers to a `Folder` (inverse: the folder's unordered to-many `items`) and to a `Person`
/// (no inverse), so its chunks refer to objects of other parts of the store, which each chunk
/// holds as stubs. The result must be the run in memory's bytes; python3's sqlite3 reads every
/// item's `Z_PK`, `Z_OPT`, foreign keys and values in the result as in the source.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: python3 != nil, "python3 is needed to edit the stores and read them"))
struct RelationshipChunksTests {
  /// V2 adds an attribute to `Item` and to `Folder`; V3 drops `Item.folder` and its inverse (a
  /// loss of links). `ordered`: `Folder.items` is ordered (its members' positions are in the
  /// items' rows).
  /// `labels`: `Folder` also has a many-to-many relationship (to `Label`), which keeps it whole:
  /// its objects are read whole, and `Item`'s chunks hold stubs of them.
  static func version(_ v: Int, ordered: Bool = false, labels: Bool = false) -> String {
    let label =
      labels
      ? #"<entity name="Label"><relationship name="folders" optional="YES" toMany="YES" destinationEntity="Folder" inverseName="labels" inverseEntity="Folder"/></entity>"#
      : ""
    let folderLabels =
      labels
      ? #"<relationship name="labels" optional="YES" toMany="YES" destinationEntity="Label" inverseName="folders" inverseEntity="Label"/>"#
      : ""
    let extra = v >= 2 ? #"<attribute name="extra" optional="YES" attributeType="String"/>"# : ""
    let color = v >= 2 ? #"<attribute name="color" optional="YES" attributeType="String"/>"# : ""
    let items =
      v < 3
      ? #"<relationship name="items" optional="YES" toMany="YES" ordered="\#(ordered ? "YES" : "NO")" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>"#
      : ""
    let folder =
      v < 3
      ? #"<relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>"#
      : ""
    return model(
      """
      <entity name="Folder"><attribute name="name" attributeType="String"/>\(color)\(items)\(folderLabels)</entity>\(label)
      <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\
      <attribute name="n" attributeType="Integer 64" defaultValueString="0"/>\(extra)\(folder)\
      <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person"/></entity>
      <entity name="Person"><attribute name="name" attributeType="String"/></entity>
      """)
  }

  /// A model document holding `entities` (their XML).
  static func model(_ entities: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    \(entities)
    </model>

    """
  }

  /// A bundle `R` of V1 and V2 (current) of the entities `entities(extra)` gives: V2 with an
  /// attribute `extra` where they put it.
  static func twoVersions(_ dir: URL, _ entities: (_ extra: String) -> String) throws -> URL {
    let extra = #"<attribute name="extra" optional="YES" attributeType="String"/>"#
    return try ModelBundles.bundle(
      versions: [("V1", model(entities(""))), ("V2", model(entities(extra)))], named: "R", in: dir, current: "V2")
  }

  /// A bundle of V1 and `to`, and an SQLite store at V1 of 20,000 items in 40 folders (every
  /// 11th in none), every 3rd owned by one of 7 people, edited with python3's sqlite3: items
  /// deleted (gaps in `Z_PK`), some `Z_OPT` raised. Returns the store's path.
  static func store(_ dir: URL, to: Int, ordered: Bool = false, labels: Bool = false) throws -> String {
    let bundle = try ModelBundles.bundle(
      versions: [
        ("V1", version(1, ordered: ordered, labels: labels)), ("V\(to)", version(to, ordered: ordered, labels: labels)),
      ], named: "R", in: dir, current: "V\(to)")
    let items = (1...20_000).map { n -> [String: Any] in
      var item: [String: Any] = ["id": "Item/\(n)", "title": "item \(n), some text to fill its row", "n": n]
      if n % 11 != 0 { item["folder"] = "Folder/\(1 + n % 40)" }
      if n % 3 == 0 { item["owner"] = "Person/\(1 + n % 7)" }
      return item
    }
    var members: [Int: [String]] = [:]
    for n in 1...20_000 where n % 11 != 0 { members[1 + n % 40, default: []].append("Item/\(n)") }
    let folders = (1...40).map {
      ["id": "Folder/\($0)", "name": "folder \($0)", "items": members[$0]!] as [String: Any]
    }
    let people = (1...7).map { ["id": "Person/\($0)", "name": "person \($0)"] as [String: Any] }
    let store = try Self.imported(dir, bundle, ["Folder": folders, "Item": items, "Person": people])
    try edit(store, "DELETE FROM ZITEM WHERE Z_PK % 13 = 0", "UPDATE ZITEM SET Z_OPT = 4 WHERE Z_PK % 5 = 0")
    return store
  }

  static func edit(_ store: String, _ statements: String...) throws {
    let script =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + statements.map { "c.execute('\($0)')\n" }.joined() + "c.commit()\n"
    let r = runTool(python3!, ["-c", script, store])
    try #require(r.exitCode == 0, "\(r.stderr)")
  }

  /// What python3's sqlite3 reads: every item's key, version, foreign keys and values; every
  /// folder's and person's key and values; `Z_MAX` per entity.
  static func rows(_ path: String) -> String {
    let script =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + "print(c.execute('SELECT Z_PK, Z_OPT, ZFOLDER, ZOWNER, ZTITLE, ZN FROM ZITEM ORDER BY Z_PK').fetchall())\n"
      + "print(c.execute('SELECT Z_PK, Z_OPT, ZNAME FROM ZFOLDER ORDER BY Z_PK').fetchall())\n"
      + "print(c.execute('SELECT Z_PK, Z_OPT, ZNAME FROM ZPERSON ORDER BY Z_PK').fetchall())\n"
      + "print(c.execute('SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_NAME').fetchall())\n"
    return runTool(python3!, ["-c", script, path]).stdout
  }

  /// A JSON store of `objects` (entity → objects) at V1 of `bundle`, imported as SQLite by mapc.
  static func imported(_ dir: URL, _ bundle: URL, _ objects: [String: Any]) throws -> String {
    let json = dir.appendingPathComponent("s.json")
    let metadata = try ModelBundles.storeMetadata(bundle, version: "V1")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: json)
    let store = dir.appendingPathComponent("s.sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return store
  }

  /// Migrates `store` to V`to` in memory and with `--memory-limit limit`: both succeed, the run
  /// in chunks takes more than two, and the files are the same bytes. Returns the one written
  /// in chunks.
  func expectTheBytesInMemory(_ dir: URL, _ store: String, to: Int, limit: String) throws -> String {
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = migrate(dir, store, whole, to: to, ["--quiet"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let chunked = dir.appendingPathComponent("chunks.sqlite").path
    let b = migrate(dir, store, chunked, to: to, ["--memory-limit", limit])
    try #require(b.exitCode == 0, "\(b.stderr)")
    let chunks = b.stderr.firstMatch(of: /objects in (\d+) chunks/).flatMap { Int($0.1) } ?? 0
    #expect(chunks > 2, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    return chunked
  }

  /// python3 running `script` on `chunked` prints what it prints on `store`, which holds
  /// `sourceHas` (so that the script read something).
  static func expectPythonReadsTheSame(
    _ script: String, in chunked: String, as store: String, sourceHas: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let inSource = runTool(python3!, ["-c", script, store]).stdout
    #expect(inSource.contains(sourceHas), "\(inSource.prefix(300))", sourceLocation: sourceLocation)
    let same = runTool(python3!, ["-c", script, chunked]).stdout == inSource
    #expect(same, "python3 reads other rows in the store written in chunks", sourceLocation: sourceLocation)
  }

  func migrate(_ dir: URL, _ store: String, _ out: String, to: Int, _ extra: [String]) -> MapcResult {
    runMapc(
      [
        "migrate", "--model", dir.appendingPathComponent("R.xcdatamodeld").path, "--store", store, "--to", "V\(to)",
        "--output", out,
      ] + extra)
  }

  /// At 128K a folder's members (up to 455, 64 bytes each: `CoreDataReader.bytesPerMember`)
  /// fit the quarter of the limit one row may take; at 64K they do not.
  @Test(arguments: ["128K", "256K"]) func toOneRelationshipsGoInChunksWithTheBytesOfTheRunInMemory(
    _ limit: String
  ) throws {
    let dir = try FileManagerTemp.folder("relationship-chunks")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, to: 2)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let chunked = try expectTheBytesInMemory(dir, store, to: 2, limit: limit)
    // Every item kept its number, version, folder, owner and values (read by python3).
    let source = Self.rows(store)
    #expect(source.contains("(5, 4, 6, None, 'item 5, some text to fill its row', 5)"), "\(source.prefix(300))")
    let same = Self.rows(chunked) == source
    #expect(same, "python3 reads other rows in the store written in chunks")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  /// A foreign key to no row is the store's error either way, with the same message.
  @Test func aDanglingReferenceIsTheSameErrorInChunks() throws {
    let dir = try FileManagerTemp.folder("relationship-chunks-dangling")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, to: 2)
    try Self.edit(store, "UPDATE ZITEM SET ZFOLDER = 999 WHERE Z_PK = 12000")
    let a = migrate(dir, store, dir.appendingPathComponent("whole.sqlite").path, to: 2, ["--quiet"])
    let b = migrate(
      dir, store, dir.appendingPathComponent("chunks.sqlite").path, to: 2, ["--quiet", "--memory-limit", "128K"])
    #expect(a.exitCode != 0)
    #expect(a.stderr.contains("ZITEM.ZFOLDER row Z_PK=12000: 999 is no Z_PK of ZFOLDER"), "\(a.stderr)")
    #expect(b.exitCode == a.exitCode)
    #expect(b.stderr == a.stderr)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("chunks.sqlite").path))
  }

  /// Dropping the relationship loses its links on both sides: the refusal counts them as the
  /// run in memory does (Item.folder and Folder.items: 20,000 − ⌊20,000/11⌋ − the deleted items
  /// that had a folder), and with consent the bytes are the same; whether Folder goes in chunks
  /// (its own chunks count its items) or, with a many-to-many relationship, is read whole (the
  /// stubs of folders in Item's chunks count them: `StreamingPlanStubsTests`).
  @Test(arguments: [false, true]) func droppedLinksAreCountedAsInMemory(folderReadWhole: Bool) throws {
    let dir = try FileManagerTemp.folder("relationship-chunks-loss")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, to: 3, labels: folderReadWhole)
    // Items with a folder: not every 11th; minus those deleted (every 13th) that had one.
    let linked = (1...20_000).filter { $0 % 11 != 0 && $0 % 13 != 0 }.count
    let a = migrate(dir, store, dir.appendingPathComponent("whole.sqlite").path, to: 3, ["--quiet"])
    let b = migrate(
      dir, store, dir.appendingPathComponent("chunks.sqlite").path, to: 3, ["--quiet", "--memory-limit", "128K"])
    #expect(a.exitCode == 2)
    #expect(a.stderr.contains("Item.folder: \(linked) "), "\(a.stderr)")
    #expect(a.stderr.contains("Folder.items: \(linked) "), "\(a.stderr)")
    #expect(b.stderr == a.stderr)
    let whole = dir.appendingPathComponent("whole2.sqlite").path
    let chunked = dir.appendingPathComponent("chunks2.sqlite").path
    #expect(migrate(dir, store, whole, to: 3, ["--quiet", "--allow-data-loss"]).exitCode == 0)
    let c = migrate(dir, store, chunked, to: 3, ["--quiet", "--allow-data-loss", "--memory-limit", "128K"])
    #expect(c.exitCode == 0, "\(c.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
  }

  /// A store of many small objects needs more memory than twice its bytes (`StoreFootprint`:
  /// 300 bytes an object besides): at a limit above the baseline and twice the file's bytes
  /// but below that with 150 bytes for each row python3's sqlite3 counts, the run goes a chunk
  /// at a time (before 2026-11-30 it went in memory and passed the limit), with the bytes of
  /// the run in memory.
  @Test func manySmallObjectsCountAgainstTheLimit() throws {
    let dir = try FileManagerTemp.folder("relationship-chunks-footprint")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, to: 2)
    let count =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + "print(sum(c.execute('SELECT count(*) FROM ' + t).fetchone()[0] for t in ('ZITEM', 'ZFOLDER', 'ZPERSON')))\n"
    let rows = try #require(
      Int(runTool(python3!, ["-c", count, store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(rows > 18_000)
    let bytes = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
    let limit = (48 << 20) + 2 * bytes + 150 * rows
    _ = try expectTheBytesInMemory(dir, store, to: 2, limit: String(limit))
  }

  /// An ordered inverse puts each member's position in its row (`Z_FOK_FOLDER`), counted in the
  /// whole relationship of its folder. A chunk of items counts, for each folder it refers to
  /// (a stub), the folder's items before each of its own, through the index on `ZFOLDER`, and
  /// holds none of them; only a chunk of folders reads each folder's items whole (its own rows'
  /// relationships). At 8M and at 256K the store is the run in memory's, and python3 reads each
  /// folder's items in the same order as in the source. At 256K a chunk of items that read the
  /// whole relationship of each folder it refers to (43 folders of about 420 items, 64 bytes
  /// each) would pass a quarter of the limit, as it did before the counting. At 64K one folder's
  /// 420 or so items, 64 bytes each, come to more than a quarter of the limit in the folder's
  /// own chunk, and the refusal names the folder.
  @Test(arguments: ["8M", "256K"])
  func anOrderedInverseGoesInChunksWhenItsOwnersFit(limit: String) throws {
    let dir = try FileManagerTemp.folder("relationship-chunks-ordered")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, to: 2, ordered: true)
    let chunked = try expectTheBytesInMemory(dir, store, to: 2, limit: limit)
    // Each folder's items in the source's order, each with the position Core Data gives the
    // item at its index (2048 + 1024 × index), against the written store's rows as they are.
    let rows =
      "SELECT ZFOLDER, Z_PK, Z_FOK_FOLDER FROM ZITEM WHERE ZFOLDER IS NOT NULL ORDER BY ZFOLDER, Z_FOK_FOLDER, Z_PK"
    let expected =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nseen = {}\nout = []\n"
      + "for f, pk, _ in c.execute('\(rows)'):\n  i = seen.get(f, 0)\n  seen[f] = i + 1\n  out.append((f, pk, 2048 + 1024 * i))\nprint(out)\n"
    let written = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nprint(c.execute('\(rows)').fetchall())\n"
    let inSource = runTool(python3!, ["-c", expected, store]).stdout
    #expect(inSource.count > 10_000)
    let same = runTool(python3!, ["-c", written, chunked]).stdout == inSource
    #expect(same, "the folders' items are in another order, or at other positions")
    guard limit == "8M" else { return }

    let refused = dir.appendingPathComponent("refused.sqlite").path
    let c = migrate(dir, store, refused, to: 2, ["--quiet", "--memory-limit", "64K"])
    #expect(c.exitCode == 2)
    #expect(c.stderr.contains("[run-memory-limit]"), "\(c.stderr)")
    #expect(c.stderr.contains("ZFOLDER row Z_PK="), "\(c.stderr)")
    #expect(c.stderr.contains("its relationship items holds"), "\(c.stderr)")
    #expect(!FileManager.default.fileExists(atPath: refused))
  }

  /// A many-to-many relationship (a join table): 3,000 items with two of 60 tags each (every
  /// 7th with none), `Item.tags` ordered or not, and `Tag.items` ordered too (`bothOrdered`).
  /// Each goes in chunks: each chunk reads its objects' join rows (and, where the other side is
  /// ordered, that side of each tag or item it refers to, but not the sides of that side's
  /// members: a stub's join rows are not rendered), and renders the join rows of its objects;
  /// the store is the run in memory's, and python3 reads the same join rows (keys and
  /// positions) as in the source. At 64K; with both sides ordered at 2M, since a chunk of items
  /// then reads the whole side of every tag (60 sides of about 86 items, 64 bytes each, within a
  /// quarter of the limit).
  @Test(arguments: [(false, false), (true, false), (true, true)])
  func aManyToManyRelationshipGoesInChunks(ordered: Bool, bothOrdered: Bool) throws {
    let dir = try FileManagerTemp.folder("relationship-chunks-many")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.twoVersions(dir) { extra in
      """
      <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\(extra)\
      <relationship name="tags" optional="YES" toMany="YES" ordered="\(ordered ? "YES" : "NO")" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/></entity>
      <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="items" optional="YES" toMany="YES" ordered="\(bothOrdered ? "YES" : "NO")" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/></entity>
      """
    }
    func tags(_ n: Int) -> [Int] { n % 7 == 0 ? [] : [1 + (n * 7 + 1) % 60, 1 + n % 60] }
    let items = (1...3000).map { n in
      ["id": "Item/\(n)", "title": "item \(n)", "tags": tags(n).map { "Tag/\($0)" }] as [String: Any]
    }
    let tagObjects = (1...60).map { t in
      ["id": "Tag/\(t)", "name": "tag \(t)", "items": (1...3000).filter { tags($0).contains(t) }.map { "Item/\($0)" }]
        as [String: Any]
    }
    let store = try Self.imported(dir, bundle, ["Item": items, "Tag": tagObjects])
    let chunked = try expectTheBytesInMemory(dir, store, to: 2, limit: bothOrdered ? "2M" : "64K")
    let join =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + "t = [r[0] for r in c.execute(\"SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\\\_%' ESCAPE '\\\\' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')\")]\n"
      + "print(t, c.execute('SELECT * FROM ' + t[0] + ' ORDER BY 1, 2').fetchall())\n"
    Self.expectPythonReadsTheSame(join, in: chunked, as: store, sourceHas: "(1, ")
  }

  /// A one-to-one relationship: each side's row holds the other's key. 5,000 people, 4,000 of
  /// them with a passport, go in chunks at 64K with the bytes in memory, every key read by
  /// python3 as in the source; when a passport's row names another person than the person's
  /// row names, a chunk cannot read it as memory does, and the run is refused saying so.
  @Test func aOneToOneRelationshipGoesInChunksWhenItsSidesAgree() throws {
    let dir = try FileManagerTemp.folder("relationship-chunks-one")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.twoVersions(dir) { extra in
      """
      <entity name="Passport"><attribute name="number" optional="YES" attributeType="String"/>\
      <relationship name="person" optional="YES" maxCount="1" destinationEntity="Person" inverseName="passport" inverseEntity="Person"/></entity>
      <entity name="Person"><attribute name="name" optional="YES" attributeType="String"/>\(extra)\
      <relationship name="passport" optional="YES" maxCount="1" destinationEntity="Passport" inverseName="person" inverseEntity="Passport"/></entity>
      """
    }
    let people = (1...5000).map { n -> [String: Any] in
      var p: [String: Any] = ["id": "Person/\(n)", "name": "person \(n) with a name to fill the row"]
      if n % 5 != 0 { p["passport"] = "Passport/\(n - n / 5)" }
      return p
    }
    let passports = (1...5000).filter { $0 % 5 != 0 }.map { n in
      ["id": "Passport/\(n - n / 5)", "number": "P-\(n)", "person": "Person/\(n)"] as [String: Any]
    }
    let store = try Self.imported(dir, bundle, ["Person": people, "Passport": passports])
    let chunked = try expectTheBytesInMemory(dir, store, to: 2, limit: "64K")
    let keys =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + "print(c.execute('SELECT Z_PK, ZPASSPORT, ZNAME FROM ZPERSON ORDER BY Z_PK').fetchall())\n"
      + "print(c.execute('SELECT Z_PK, ZPERSON, ZNUMBER FROM ZPASSPORT ORDER BY Z_PK').fetchall())\n"
    Self.expectPythonReadsTheSame(
      keys, in: chunked, as: store, sourceHas: "(7, 6, 'person 7 with a name to fill the row')")

    try Self.edit(store, "UPDATE ZPASSPORT SET ZPERSON = 9 WHERE Z_PK = 6")
    let refused = dir.appendingPathComponent("refused.sqlite").path
    let c = migrate(dir, store, refused, to: 2, ["--quiet", "--memory-limit", "64K"])
    #expect(c.exitCode == 2)
    #expect(c.stderr.contains("the two sides of a one-to-one relationship disagree"), "\(c.stderr)")
    #expect(!FileManager.default.fileExists(atPath: refused))
  }
}
