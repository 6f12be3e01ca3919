import Foundation
import MapTestSupport
import Testing

/// A step whose destination composite lacks an element of the source's (`place.location` loses
/// `longitude`): refused with `migrate-data-loss` naming `Trip.place.location.longitude` and the
/// values the store holds, nothing written; with `--allow-drop Trip.place` (or the element, or
/// `--allow-data-loss`) the element is gone and every other cell is as python wrote it. The
/// store is python's (`swiftdata_store.py`), its cells read back with python3's sqlite3
/// (`store_facts.py`); the one longitude python wrote is the one value lost.
@Suite struct CompositeElementRemovalTests {
  /// python's store and a bundle of two versions: the store's own model (T) and T2 without
  /// `place.location.longitude`.
  static func prepare(_ dir: URL) throws -> (store: String, bundle: String) {
    let store = dir.appendingPathComponent("Trips.sqlite").path
    _ = try SwiftDataStoreTests.python("swiftdata_store.py", [store])
    let bundle = dir.appendingPathComponent("T.xcdatamodeld")
    let model = runMapc(["store", "model", store, "-o", bundle.path])
    try #require(model.exitCode == 0, "\(model.stderr)")
    let v1 = try String(contentsOf: bundle.appendingPathComponent("T.xcdatamodel/contents"), encoding: .utf8)
    let longitude = #"<element name="longitude" optional="YES" attributeType="Double"/>"#
    try #require(v1.contains(longitude))
    let v2 = v1.replacingOccurrences(of: longitude, with: "")
    try FileManager.default.createDirectory(
      at: bundle.appendingPathComponent("T2.xcdatamodel"), withIntermediateDirectories: true)
    try v2.write(to: bundle.appendingPathComponent("T2.xcdatamodel/contents"), atomically: false, encoding: .utf8)
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>T2.xcdatamodel</string></dict></plist>
    """.write(to: bundle.appendingPathComponent(".xccurrentversion"), atomically: false, encoding: .utf8)
    return (store, bundle.path)
  }

  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func refusedWithoutConsent() throws {
    let dir = try FileManagerTemp.folder("composite-drop-refused")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, bundle) = try Self.prepare(dir)
    let before = Self.bytes(store)
    let r = runMapc(["migrate", "--model", bundle, "--store", store])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("[migrate-data-loss]"), "\(r.stderr)")
    #expect(r.stderr.contains("Trip.place.location.longitude: 1 value"), "\(r.stderr)")
    #expect(r.stderr.contains("--allow-drop Trip.place.location.longitude"), "\(r.stderr)")
    #expect(Self.bytes(store) == before)
  }

  @Test(arguments: [
    ["--allow-drop", "Trip.place"], ["--allow-drop", "Trip.place.location.longitude"], ["--allow-data-loss"],
  ])
  func removedWithConsent(_ consent: [String]) throws {
    let dir = try FileManagerTemp.folder("composite-drop")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, bundle) = try Self.prepare(dir)
    let before = try SwiftDataStoreTests.facts(store, rows: true)
    let r = runMapc(["migrate", "--model", bundle, "--store", store] + consent)
    try #require(r.exitCode == 0, "\(r.stderr)")
    let after = try SwiftDataStoreTests.facts(store, rows: true)
    let columns = after.columns["ZTRIP"]?.map { $0[0] } ?? []
    #expect(!columns.contains("ZLONGITUDE") && columns.contains("ZLATITUDE"))
    // Every cell but the longitude's, as python wrote it.
    let kept = { (rows: [[SwiftDataStoreTests.JSONScalar]]) in
      rows.map { $0.filter { !$0.text.hasPrefix("[s:ZLONGITUDE,") }.map(\.text).joined(separator: ";") }.sorted()
    }
    #expect(kept(after.rows?["ZTRIP"] ?? []) == kept(before.rows?["ZTRIP"] ?? []))
    #expect(after.rows?["ZSTOP"] == before.rows?["ZSTOP"])
  }

  /// The same step on the store exported as JSON (composites as objects, read unread by the
  /// JSON reader): the element is refused, then removed with consent, and the JSON written
  /// has `location` without `longitude` (read with JSONSerialization).
  @Test func jsonStore() throws {
    let dir = try FileManagerTemp.folder("composite-drop-json")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, bundle) = try Self.prepare(dir)
    let json = dir.appendingPathComponent("t.json").path
    let export = runMapc(["store", "export", store, "-o", json])
    try #require(export.exitCode == 0, "\(export.stderr)")
    let refused = runMapc(["migrate", "--model", bundle, "--store", json])
    #expect(refused.exitCode == 2 && refused.stderr.contains("Trip.place.location.longitude: 1 value"))
    let r = runMapc(["migrate", "--model", bundle, "--store", json, "--allow-drop", "Trip.place"])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let top = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
    let trips = (top?["objects"] as? [String: Any])?["Trip"] as? [[String: Any]] ?? []
    let places = trips.compactMap { $0["place"] as? [String: Any] }
    #expect(places.count == 1)
    #expect((places.first?["location"] as? [String: Any])?.keys.sorted() == ["latitude"])
    #expect((places.first?["location"] as? [String: Any])?["latitude"] as? Double == 41.15)
    #expect(places.first?["name"] as? String == "Porto")
  }
}
