import Foundation
import MapTestSupport
import Testing

/// Issue 24, item 7: a Decimal an SQLite store cannot give back (SQLite keeps a DECIMAL column's
/// non-integer numbers as doubles) is refused before anything is written, naming the object and
/// attribute; decimals a double holds exactly are stored. What SQLite keeps is python3's sqlite3's
/// (3.40: `0.12345678901234567` reads back as `0.12345678901234566`).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct UnwritableDecimalTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="amount" optional="YES" attributeType="Decimal"/>
        </entity>
    </model>
    """

  func importing(_ amounts: [String]) throws -> (MapcResult, String, URL) {
    let dir = try FileManagerTemp.folder("decimal")
    let bundleURL = try ModelBundles.bundle(Self.model, named: "M", in: dir)
    let bundle = bundleURL.path
    let objects = amounts.enumerated().map { ["id": "Item/\($0.offset + 1)", "amount": $0.element] }
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": try ModelBundles.storeMetadata(bundleURL), "objects": ["Item": objects],
    ]).write(to: json)
    let out = dir.appendingPathComponent("s.sqlite").path
    return (runMapc(["store", "import", json.path, "--model", bundle, "-o", out]), out, dir)
  }

  @Test func aDecimalSQLiteWouldRoundIsRefused() throws {
    let (r, out, dir) = try importing(["0.1", "12345678901234567890.123456789012345678", "0.12345678901234567"])
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(
      r.stderr.contains("Item/2.amount: the Decimal 12345678901234567890.123456789012345678 cannot be stored exactly"))
    #expect(r.stderr.contains("Item/3.amount: the Decimal 0.12345678901234567 cannot be stored exactly"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func decimalsADoubleHoldsAreStored() throws {
    let (r, out, dir) = try importing(["0.1", "9223372036854775807", "-2.5", "1e160"])
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(r.exitCode == 0, "\(r.stderr)")
    let p = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import sqlite3,sys; print([r[0] for r in sqlite3.connect(sys.argv[1]).execute('SELECT ZAMOUNT FROM ZITEM ORDER BY Z_PK')])",
        out,
      ])
    #expect(p.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[0.1, 9223372036854775807, -2.5, 1e+160]")
  }
}

/// -0.0 in a Double attribute: SQLite gives it back as 0.0 (python3's sqlite3 3.40 reads 0.0 for
/// an inserted -0.0 in a FLOAT column), so it is refused like a decimal that would change.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct NegativeZeroTests {
  @Test func negativeZeroIsRefused() throws {
    let dir = try FileManagerTemp.folder("negative-zero")
    defer { try? FileManager.default.removeItem(at: dir) }
    let model = UnwritableDecimalTests.model.replacingOccurrences(
      of: #"attributeType="Decimal""#, with: #"attributeType="Double" usesScalarValueType="YES""#)
    let bundleURL = try ModelBundles.bundle(model, named: "M", in: dir)
    let bundle = bundleURL.path
    var metadata = try ModelBundles.storeMetadata(bundleURL)
    metadata["formatVersion"] = nil
    let header = String(decoding: try JSONSerialization.data(withJSONObject: metadata), as: UTF8.self)
    // Written by hand: JSONSerialization would write -0.0 as 0.
    let json = dir.appendingPathComponent("s.json")
    try Data(#"{"metadata": \#(header), "objects": {"Item": [{"id": "Item/1", "amount": -0.0}]}}"#.utf8).write(to: json)
    let out = dir.appendingPathComponent("s.sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", bundle, "-o", out])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("Item/1.amount: -0.0 cannot be stored"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
