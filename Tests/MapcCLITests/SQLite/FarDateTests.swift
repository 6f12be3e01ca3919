import Foundation
import MapTestSupport
import Testing

/// Issue 24, item 7: a date outside the years an ISO 8601 text holds (0000–9999), which a real
/// store may hold, is carried through export and import as `{"$date": seconds since 2001}`
/// instead of refused; python3's sqlite3 puts it into a store and reads it back.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct FarDateTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="when" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        </entity>
    </model>
    """

  @Test func aDateBeyondYear9999IsCarried() throws {
    let dir = try FileManagerTemp.folder("far-date")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundleURL = try ModelBundles.bundle(Self.model, named: "M", in: dir)
    let bundle = bundleURL.path
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": try ModelBundles.storeMetadata(bundleURL),
      "objects": ["Item": [["id": "Item/1", "when": "2001-01-01T00:00:10Z"], ["id": "Item/2", "when": NSNull()]]],
    ]).write(to: json)
    let store = dir.appendingPathComponent("s.sqlite").path
    try #require(runMapc(["store", "import", json.path, "--model", bundle, "-o", store]).exitCode == 0)
    // Year 33,690 and year -29,687 (seconds from 2001).
    let set = """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("UPDATE ZITEM SET ZWHEN = 1.0e12 + 0.5 WHERE Z_PK = 1")
      db.execute("UPDATE ZITEM SET ZWHEN = -1.0e12 - 0.25 WHERE Z_PK = 2")
      db.commit()
      """
    #expect(runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", set, store]).exitCode == 0)
    let exported = dir.appendingPathComponent("e.json").path
    let back = dir.appendingPathComponent("b.sqlite").path
    let e = runMapc(["store", "export", store, "--model", bundle, "-o", exported])
    try #require(e.exitCode == 0, "\(e.stderr)")
    let text = try String(contentsOfFile: exported, encoding: .utf8)
    #expect(text.contains(#""$date": 1000000000000.5"#), "\(text)")
    #expect(text.contains(#""$date": -1000000000000.25"#), "\(text)")
    let i = runMapc(["store", "import", exported, "--model", bundle, "-o", back])
    try #require(i.exitCode == 0, "\(i.stderr)")
    let read =
      "import sqlite3, sys; print([r[0] for r in sqlite3.connect(sys.argv[1]).execute('SELECT ZWHEN FROM ZITEM ORDER BY Z_PK')])"
    let p = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", read, back])
    #expect(p.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[1000000000000.5, -1000000000000.25]")
  }
}
