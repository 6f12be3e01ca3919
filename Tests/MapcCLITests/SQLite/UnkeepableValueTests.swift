import Foundation
import MapTestSupport
import Testing

/// Issue 37, item 3: values a store could not give back are refused before anything is written,
/// naming object and attribute. Core Data keeps a date as a double of seconds since 2001 and a
/// Decimal within about 1e-128…1e165; what a double holds is python3's to say.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct UnkeepableValueTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="when" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        </entity>
    </model>
    """

  func python(_ code: String, _ args: [String] = []) -> String {
    runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", code] + args).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func importing(_ dates: [String], in dir: URL) throws -> (MapcResult, String) {
    let bundleURL = try ModelBundles.bundle(Self.model, named: "M", in: dir)
    let objects = dates.enumerated().map { ["id": "Item/\($0.offset + 1)", "when": $0.element] }
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": try ModelBundles.storeMetadata(bundleURL), "objects": ["Item": objects],
    ]).write(to: json)
    let out = dir.appendingPathComponent("s.sqlite").path
    return (runMapc(["store", "import", json.path, "--model", bundleURL.path, "-o", out]), out)
  }

  @Test func aDateNoDoubleHoldsIsRefused() throws {
    let dir = try FileManagerTemp.folder("unkeepable-date")
    defer { try? FileManager.default.removeItem(at: dir) }
    // python3: the nearest double to 9999-12-31T23:59:59.999999 in seconds since 2001 is the
    // next year's first second.
    let nearest = python(
      "from datetime import datetime as D; w=(D(9999,12,31,23,59,59)-D(2001,1,1)).total_seconds(); print(w+0.999999 == w+1)"
    )
    #expect(nearest == "True")
    let (r, out) = try importing(["2020-01-01T00:00:00.5Z", "9999-12-31T23:59:59.999999Z"], in: dir)
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("Item/2.when: '9999-12-31T23:59:59.999999Z' cannot be kept"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func datesADoubleHoldsAreKept() throws {
    let dir = try FileManagerTemp.folder("keepable-date")
    defer { try? FileManager.default.removeItem(at: dir) }
    let dates = [
      "2020-01-01T00:00:00.5Z", "9999-12-31T23:59:59.5Z", "0001-01-01T00:00:00.25Z", "2001-01-01T00:00:00.000001Z",
    ]
    let (r, out) = try importing(dates, in: dir)
    try #require(r.exitCode == 0, "\(r.stderr)")
    // The stored doubles, and those python3 computes from the texts.
    let stored = python(
      "import sqlite3,sys; print([r[0] for r in sqlite3.connect(sys.argv[1]).execute('SELECT ZWHEN FROM ZITEM ORDER BY Z_PK')])",
      [out])
    let computed = python(
      """
      from datetime import datetime as D
      import sys
      r=[]
      for t in sys.argv[1:]:
          whole, frac = t[:19], t[20:-1]
          s=(D.strptime(whole,'%Y-%m-%dT%H:%M:%S')-D(2001,1,1))
          r.append(s.days*86400+s.seconds+float('0.'+frac))
      print(r)
      """, dates)
    #expect(stored == computed)
  }

  /// An inferred step from Double to Decimal: 1e300 is no decimal Core Data holds.
  @Test(arguments: ["json", "sqlite"]) func aNumberNoDecimalHoldsIsRefused(_ format: String) throws {
    let dir = try FileManagerTemp.folder("unkeepable-decimal")
    defer { try? FileManager.default.removeItem(at: dir) }
    let v1 = Self.model.replacingOccurrences(
      of: #"name="when" optional="YES" attributeType="Date" usesScalarValueType="NO""#,
      with: #"name="amount" optional="YES" attributeType="Double" usesScalarValueType="YES""#)
    let bundleURL = try ModelBundles.bundle(v1, named: "M", in: dir)
    let v2 = bundleURL.appendingPathComponent("M 2.xcdatamodel")
    try FileManager.default.createDirectory(at: v2, withIntermediateDirectories: true)
    try v1.replacingOccurrences(
      of: #"attributeType="Double" usesScalarValueType="YES""#, with: #"attributeType="Decimal""#
    )
    .write(to: v2.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": try ModelBundles.storeMetadata(bundleURL.appendingPathComponent("M.xcdatamodel")),
      "objects": ["Item": [["id": "Item/1", "amount": 2.5], ["id": "Item/2", "amount": 1e300]]],
    ]).write(to: json)
    var store = json.path
    if format == "sqlite" {
      store = dir.appendingPathComponent("s.sqlite").path
      let i = runMapc(["store", "import", json.path, "--model", bundleURL.path, "-o", store])
      try #require(i.exitCode == 0, "\(i.stderr)")
    }
    let out = dir.appendingPathComponent("out.\(format)").path
    let r = runMapc(["migrate", "--store", store, "--model", bundleURL.path, "--output", out])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("Item.amount: the number 1e+300 cannot be stored in a Decimal attribute"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
