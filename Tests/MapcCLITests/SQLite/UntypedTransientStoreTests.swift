import Foundation
import MapTestSupport
import Testing

/// A transient attribute Xcode saved without `attributeType` (type Undefined) is accepted by
/// `mapc hash` and `mapc store import`, and has no column in the SQLite store Python reads back.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct UntypedTransientStoreTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" \
    sourceLanguage="Swift" userDefinedModelVersionIdentifier="1">
        <entity name="Note" representedClassName="Note">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="scratch" optional="YES" transient="YES"/>
        </entity>
    </model>
    """

  @Test func importedWithoutAColumn() throws {
    let dir = try FileManagerTemp.folder("untyped-transient")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundle = try ModelBundles.bundle(Self.model, named: "N", in: dir)
    let metadata = try ModelBundles.storeMetadata(bundle)
    // python3: base64(H(b'Note' + b'\x00' + H(H(b'title' + pack('<H', 1)) + pack('<i', 700))))
    let hashes = metadata["entityVersionHashes"] as? [String: String]
    #expect(hashes == ["Note": "TQEkXehyNUtyA95wkMOdpRGt+T/ZbMgi8HAu/3e6Fn4="])
    let objects: [String: Any] = ["Note": [["id": "Note/1", "title": "hello"]]]
    let json = dir.appendingPathComponent("store.json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: json)
    let out = dir.appendingPathComponent("out.sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", out])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let read = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        print(','.join(c[1] for c in db.execute('PRAGMA table_info(ZNOTE)')))
        print(db.execute('SELECT ZTITLE FROM ZNOTE').fetchall())
        """,
        out,
      ])
    try #require(read.exitCode == 0, "\(read.stderr)")
    #expect(read.stdout == "Z_PK,Z_ENT,Z_OPT,ZTITLE\n[('hello',)]\n")
  }
}
