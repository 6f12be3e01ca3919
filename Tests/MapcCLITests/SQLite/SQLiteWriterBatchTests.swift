import Foundation
import MapTestSupport
import Testing

/// The writer inserts each entity's rows 16 to a statement and the rest one by one
/// (Specs/sqlite-store.md §7). A hierarchy table with an entity of two batches and a remainder,
/// one of exactly one batch and one of fewer rows than a batch is written by `mapc store import`
/// and read back with Python's sqlite3: every object is its own row, under its own entity, with
/// its own values.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SQLiteWriterBatchTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" \
    sourceLanguage="Swift" userDefinedModelVersionIdentifier="1">
        <entity name="Item" representedClassName="Item">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="rank" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
        </entity>
        <entity name="Book" parentEntity="Item">
            <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
        </entity>
        <entity name="Novel" parentEntity="Book">
            <attribute name="genre" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

  /// 37 items (two batches and 5 rows), 16 books (one batch) and 5 novels (one by one): 58 rows
  /// in ZITEM.
  static func store(in dir: URL) throws -> (json: URL, bundle: URL, expected: [String]) {
    let bundle = try ModelBundles.bundle(model, named: "B", in: dir)
    let metadata = try ModelBundles.storeMetadata(bundle)
    var objects: [String: [[String: Any]]] = [:]
    var expected: [String] = []
    for (entity, count) in [("Item", 37), ("Book", 16), ("Novel", 5)] {
      objects[entity] = (1...count).map { i in
        var o: [String: Any] = ["id": "\(entity)/\(i)", "title": "\(entity) \(i)", "rank": i * 7]
        var line = "\(entity)|\(entity) \(i)|\(i * 7)"
        if entity != "Item" {
          o["pages"] = 100 + i
          line += "|\(100 + i)"
        } else {
          line += "|None"
        }
        if entity == "Novel" {
          o["genre"] = i % 2 == 0 ? "crime" : NSNull()
          line += i % 2 == 0 ? "|crime" : "|None"
        } else {
          line += "|None"
        }
        expected.append(line)
        return o
      }
    }
    let json = dir.appendingPathComponent("store.json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: json)
    return (json, bundle, expected.sorted())
  }

  /// Rows as `entity|title|rank|pages|genre` (Python's `None` for NULL), sorted; then the `Z_PK`s.
  static let reader = """
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1])
    names = dict(db.execute('SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY'))
    rows = db.execute('SELECT Z_PK, Z_ENT, ZTITLE, ZRANK, ZPAGES, ZGENRE FROM ZITEM').fetchall()
    for line in sorted('|'.join(str(v) for v in (names[r[1]],) + r[2:]) for r in rows): print(line)
    print('keys', ','.join(str(r[0]) for r in sorted(rows)))
    print('max', db.execute("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'").fetchone()[0])
    """

  @Test func batchesAcrossEntitiesKeepEveryRow() throws {
    let dir = try FileManagerTemp.folder("sqlite-batches")
    defer { try? FileManager.default.removeItem(at: dir) }
    let (json, bundle, expected) = try Self.store(in: dir)
    let out = dir.appendingPathComponent("out.sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", out])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let read = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.reader, out])
    try #require(read.exitCode == 0, "\(read.stderr)")
    let lines = read.stdout.split(separator: "\n").map(String.init)
    #expect(Array(lines.prefix(58)) == expected)
    #expect(lines.dropFirst(58).first == "keys " + (1...58).map(String.init).joined(separator: ","))
    #expect(lines.last == "max 58")
  }

  /// A relative path that starts with `file:` is a file of that name, not an SQLite URI: the
  /// store is written to it and read from it, and nothing else appears in the folder.
  @Test func relativePathsStartingWithFileAreFiles() throws {
    let dir = try FileManagerTemp.folder("sqlite-file-prefix")
    defer { try? FileManager.default.removeItem(at: dir) }
    let (json, bundle, expected) = try Self.store(in: dir)
    let imported = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", "file:out.sqlite"], in: dir)
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let read = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", Self.reader, dir.appendingPathComponent("file:out.sqlite").path])
    #expect(Array(read.stdout.split(separator: "\n").map(String.init).prefix(58)) == expected)
    // A rollback-journal store is opened by its path (a WAL-mode one through an absolute URI).
    let rollback = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c", "import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode=DELETE')",
        dir.appendingPathComponent("file:out.sqlite").path,
      ])
    try #require(rollback.exitCode == 0, "\(rollback.stderr)")
    let exported = runMapc(
      ["store", "export", "file:out.sqlite", "--model", bundle.path, "-o", "file:back.json"], in: dir)
    #expect(exported.exitCode == 0, "\(exported.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
        "B.xcdatamodeld", "file:back.json", "file:out.sqlite", "store.json",
      ])
  }
}
