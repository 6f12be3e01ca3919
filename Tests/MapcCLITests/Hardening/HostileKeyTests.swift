import Foundation
import MapTestSupport
import Testing

/// Integers read from an SQLite store that arithmetic follows (`Z_PK`, `Z_MAX`) are range-checked:
/// a key of `Int64.min` in a table with a Transformable column is a `sqlite-layout` error, not an
/// arithmetic trap (exit 132); a `Z_MAX` of `Int64.max` leaves no room for new numbers, so the
/// objects are numbered from 1. Stores are written by `mapc store import` and damaged by python3.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct HostileKeyTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Note" representedClassName="Note">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="data" optional="YES" attributeType="Transformable"/>
        </entity>
    </model>
    """

  static let mapping = """
    <mappingModel name="Same" formatVersion="1">
      <sourceModel path="N.xcdatamodeld/N.xcdatamodel"/>
      <destinationModel path="N.xcdatamodeld/N.xcdatamodel"/>
      <entityMapping name="NoteToNote" type="transform" source="Note" destination="Note"/>
    </mappingModel>
    """

  /// An SQLite store of two notes with Transformable values, then `sql` run on it by python3.
  static func store(in dir: URL, _ sql: String) throws -> (store: String, bundle: String) {
    let bundle = try ModelBundles.bundle(model, named: "N", in: dir)
    let metadata = try ModelBundles.storeMetadata(bundle)
    let objects: [String: Any] = [
      "Note": [["id": "Note/1", "title": "a", "data": "x"], ["id": "Note/2", "title": "b", "data": ["y", 1]]]
    ]
    let json = dir.appendingPathComponent("store.json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: json)
    let store = dir.appendingPathComponent("s.sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    try #require(r.exitCode == 0, "\(r.stderr)")
    try python(
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()", store, sql)
    return (store, bundle.path)
  }

  @discardableResult
  static func python(_ script: String, _ arguments: String...) throws -> String {
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments)
    try #require(r.exitCode == 0, "\(r.stderr)")
    return r.stdout
  }

  @Test func keyOfInt64MinIsALayoutError() throws {
    let dir = try FileManagerTemp.folder("hostile-key")
    defer { try? FileManager.default.removeItem(at: dir) }
    // The widest range of keys SQLite holds: its width does not fit an Int64.
    let (store, bundle) = try Self.store(
      in: dir,
      "UPDATE ZNOTE SET Z_PK = -9223372036854775808 WHERE Z_PK = 1; UPDATE ZNOTE SET Z_PK = 9223372036854775807 WHERE Z_PK = 2;"
    )
    try Data(Self.mapping.utf8).write(to: dir.appendingPathComponent("m.xml"))
    let plan = dir.appendingPathComponent("m.cdm").path
    let compiled = runMapc(["compile", dir.appendingPathComponent("m.xml").path, "-o", plan])
    try #require(compiled.exitCode == 0, "\(compiled.stderr)")
    let out = dir.appendingPathComponent("out.json").path
    for args in [
      ["store", "export", store, "--model", bundle, "-o", out],
      ["run", plan, "--store", store, "--output", dir.appendingPathComponent("out.sqlite").path],
    ] {
      let r = runMapc(args)
      #expect(r.exitCode == 2, "\(args[0]) \(args[1]): exit \(r.exitCode) \(r.stderr)")
      #expect(
        r.stderr.contains("\(store): error: ZNOTE: Z_PK -9223372036854775808 is out of range")
          && r.stderr.contains("[sqlite-layout]"), "\(args[0]): \(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.sqlite").path))
  }

  @Test func highestKeyOfInt64MaxLeavesRoomByRenumbering() throws {
    let dir = try FileManagerTemp.folder("hostile-key")
    defer { try? FileManager.default.removeItem(at: dir) }
    let (store, _) = try Self.store(in: dir, "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807;")
    try Data(Self.mapping.utf8).write(to: dir.appendingPathComponent("m.xml"))
    let plan = dir.appendingPathComponent("m.cdm").path
    let compiled = runMapc(["compile", dir.appendingPathComponent("m.xml").path, "-o", plan])
    try #require(compiled.exitCode == 0, "\(compiled.stderr)")
    let out = dir.appendingPathComponent("out.sqlite").path
    let r = runMapc(["run", plan, "--store", store, "--output", out])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let keys = try Self.python(
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
        + "print(sorted(k for (k,) in c.execute('SELECT Z_PK FROM ZNOTE')), c.execute('SELECT Z_MAX FROM Z_PRIMARYKEY').fetchall())",
      out)
    #expect(keys == "[1, 2] [(2,)]\n")
  }
}
