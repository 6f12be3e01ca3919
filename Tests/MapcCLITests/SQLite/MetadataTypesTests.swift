import Foundation
import MapTestSupport
import Testing

/// Issue 24, item 7: an app's own `Z_METADATA` keys keep their property-list types through
/// `store export` → `store import`, `store convert` SQLite → SQLite and through `mapc migrate` of an SQLite store (an `NSDate`
/// stays a date, `NSData` data, NaN a NaN real, Booleans Booleans, nested dictionaries, a
/// dictionary that looks like one of the JSON forms). python3's plistlib writes the keys into a
/// store mapc made and reads them back from the stores mapc writes.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct MetadataTypesTests {
  static func model(_ extra: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>\(extra)
        </entity>
    </model>
    """
  }

  static let keys = """
    import datetime, math, plistlib, sqlite3, sys
    def custom():
        return {
            "AppDate": datetime.datetime(2020, 1, 2, 3, 4, 5, 500000),
            "AppData": b"\\x00\\x01\\xff",
            "AppNaN": float("nan"),
            "AppFlag": True,
            "AppReal": 1.5,
            "AppWhole": 7,
            "AppNested": {"when": datetime.datetime(1999, 12, 31), "list": [1, "two", False, b"3"]},
            "AppLookalike": {"$date": 5},
        }
    def same(a, b):
        if isinstance(a, float) and math.isnan(a):
            return isinstance(b, float) and math.isnan(b)
        if type(a) is not type(b):
            return False
        if isinstance(a, dict):
            return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        if isinstance(a, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        return a == b
    db = sqlite3.connect(sys.argv[2])
    blob = db.execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()[0]
    plist = plistlib.loads(blob)
    if sys.argv[1] == "add":
        plist.update(custom())
        db.execute("UPDATE Z_METADATA SET Z_PLIST = ?", (plistlib.dumps(plist, fmt=plistlib.FMT_BINARY),))
        db.commit()
        print("added")
    else:
        wrong = [k for k, v in custom().items() if k not in plist or not same(v, plist[k])]
        print("kept" if not wrong else "changed: " + ", ".join(f"{k}={plist.get(k)!r}" for k in wrong))
    """

  func python(_ action: String, _ store: String) -> MapcResult {
    runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.keys, action, store])
  }

  @Test func customKeysKeepTheirTypes() throws {
    let dir = try FileManagerTemp.folder("metadata-types")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundle = dir.appendingPathComponent("M.xcdatamodeld")
    for (version, extra) in [
      ("M", ""), ("M 2", #"\n        <attribute name="note" optional="YES" attributeType="String"/>"#),
    ] {
      let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(Self.model(extra).utf8).write(to: folder.appendingPathComponent("contents"))
    }
    let h = runMapc(["hash", bundle.path, "--model-version", "M", "--format", "json"])
    try #require(h.exitCode == 0, "\(h.stderr)")
    let hashes = try #require(
      (try JSONSerialization.jsonObject(with: Data(h.stdout.utf8)) as? [String: Any])?["entityVersionHashes"])
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": ["entityVersionHashes": hashes], "objects": ["Item": [["id": "a", "name": "x"]]],
    ]).write(to: json)
    let store = dir.appendingPathComponent("s.sqlite").path
    try #require(runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store]).exitCode == 0)
    try #require(python("add", store).stdout.hasPrefix("added"), "\(python("add", store).stderr)")

    // Export and import.
    let exported = dir.appendingPathComponent("e.json").path
    let imported = dir.appendingPathComponent("i.sqlite").path
    for args in [
      ["store", "export", store, "--model", bundle.path, "-o", exported],
      ["store", "import", exported, "--model", bundle.path, "-o", imported],
    ] {
      let r = runMapc(args)
      try #require(r.exitCode == 0, "\(r.stderr)")
    }
    let afterRoundTrip = python("check", imported)
    #expect(afterRoundTrip.stdout.hasPrefix("kept"), "\(afterRoundTrip.stdout) \(afterRoundTrip.stderr)")

    // SQLite to SQLite, with no JSON between them.
    let converted = dir.appendingPathComponent("c.sqlite").path
    let c = runMapc(["store", "convert", store, "--model", bundle.path, "-o", converted, "--to", "sqlite"])
    try #require(c.exitCode == 0, "\(c.stderr)")
    let afterConvert = python("check", converted)
    #expect(afterConvert.stdout.hasPrefix("kept"), "\(afterConvert.stdout) \(afterConvert.stderr)")

    // A migration of the SQLite store one version on.
    let m = runMapc(["migrate", "--model", bundle.path, "--store", store, "--quiet"])
    try #require(m.exitCode == 0, "\(m.stderr)")
    let afterMigrate = python("check", store)
    #expect(afterMigrate.stdout.hasPrefix("kept"), "\(afterMigrate.stdout) \(afterMigrate.stderr)")
  }
}
