import Foundation
import MapTestSupport
import Testing

/// Issue 31: stores that carry their model (`Z_MODELCACHE`), SwiftData's stores, composite
/// attributes and Core Data's history tables (Specs/sqlite-store.md §§4.1, 5.2, 7.2). The oracles
/// are python3 alone: `store_facts.py` reads hashes, columns and rows with sqlite3 and plistlib;
/// `swiftdata_store.py` writes a SwiftData-shaped store (its own keyed archive, its own hashes)
/// and prints the values it wrote.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SwiftDataStoreTests {
  struct Facts: Decodable {
    var hashes: [String: String]
    var entities: [String]
    var columns: [String: [[String]]]
    var cache: Bool
    var history: [String]
    var rows: [String: [[JSONScalar]]]?
  }

  /// A cell of `store_facts.py`'s rows: `[column, type, value]`, compared as text.
  struct JSONScalar: Decodable, Equatable {
    var text: String
    init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if c.decodeNil() {
        text = "null"
      } else if let s = try? c.decode(String.self) {
        text = "s:" + s
      } else if let i = try? c.decode(Int64.self) {
        text = "i:\(i)"
      } else if let d = try? c.decode(Double.self) {
        text = "d:\(d.bitPattern)"
      } else {
        text = "[" + (try c.decode([JSONScalar].self)).map(\.text).joined(separator: ",") + "]"
      }
    }
  }

  static let scripts = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite")

  static func python(_ script: String, _ arguments: [String]) throws -> String {
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", scripts.appendingPathComponent(script).path] + arguments)
    guard r.exitCode == 0 else { throw RealStore.PythonFailed(message: r.stderr) }
    return r.stdout
  }

  static func facts(_ store: String, rows: Bool = false) throws -> Facts {
    try JSONDecoder().decode(
      Facts.self, from: Data(try python("store_facts.py", [store] + (rows ? ["--rows", ""] : [])).utf8))
  }

  /// Every real store: those of `../shared/stores/SOURCES.md` and `../shared/swiftdata`.
  static let allStores: [String] = {
    var paths = RealStore.all.map(\.store.path)
    if let root = SharedPaths.swiftdata {
      let found = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
      paths += found.filter { $0.hasSuffix(".store") }.sorted().map { root.appendingPathComponent($0).path }
    }
    return paths
  }()

  static var swiftDataStores: [String] { allStores.filter { $0.hasSuffix(".store") } }

  func run(_ arguments: [String]) throws -> MapcResult {
    let r = runMapc(arguments)
    try #require(r.exitCode == 0, "mapc \(arguments.joined(separator: " ")): \(r.stderr)")
    return r
  }

  /// A SwiftData-shaped store written by python in `dir`, and what python says it wrote.
  func pythonStore(in dir: URL) throws -> (path: String, written: [String: Any]) {
    let path = dir.appendingPathComponent("Trips.sqlite").path
    let out = try Self.python("swiftdata_store.py", [path])
    let written = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
    return (path, written)
  }

  // MARK: - Models from the store

  /// `mapc hash` of the model `mapc store model` writes, and of the store itself, equals the store's own
  /// `NSStoreModelVersionHashes` (python's plistlib), entity for entity, for every real store
  /// with a cache (composites included); a store without one is refused, nothing written.
  @Test(.enabled(if: SharedPaths.shared != nil, "needs ../shared"), arguments: allStores)
  func cachedModelHashesLikeTheStore(_ store: String) throws {
    let dir = try FileManagerTemp.folder("swiftdata-hash")
    defer { FileManagerTemp.remove(dir.path) }
    let facts = try Self.facts(store)
    let model = dir.appendingPathComponent("Cached.xcdatamodel").path
    let r = runMapc(["store", "model", store, "-o", model])
    let direct = runMapc(["hash", store, "--format", "json"])
    guard facts.cache else {
      #expect(r.exitCode == 2)
      #expect(r.stderr.contains("[store-no-model-cache]"))
      #expect(!FileManager.default.fileExists(atPath: model))
      #expect(direct.exitCode == 2 && direct.stderr.contains("[store-no-model-cache]"))
      return
    }
    try #require(r.exitCode == 0, "\(r.stderr)")
    // The Xcode model written, and the store itself (`mapc hash STORE`).
    for output in [try run(["hash", model, "--format", "json"]).stdout, direct.stdout] {
      let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
      #expect(json?["entityVersionHashes"] as? [String: String] == facts.hashes)
    }
  }

  /// Every real store with a cache is among them: as many as the rows of
  /// `../shared/stores/SOURCES.md` that say `Z_MODELCACHE`, and every SwiftData store (16 when
  /// written: 14 and 2). The test above is not vacuous.
  @Test(.enabled(if: SharedPaths.shared != nil, "needs ../shared")) func everyRealCache() throws {
    let sources = try String(
      contentsOf: try #require(SharedPaths.stores).appendingPathComponent("SOURCES.md"), encoding: .utf8)
    let rows = sources.split(separator: "\n").filter {
      let cells = $0.split(separator: "|", omittingEmptySubsequences: false)
      return cells.count > 5 && Int(cells[1].trimmingCharacters(in: .whitespaces)) != nil
        && $0.contains("Z_MODELCACHE")
    }
    let expected = rows.count + Self.swiftDataStores.count
    #expect(expected >= 16)
    #expect(try Self.allStores.filter { try Self.facts($0).cache }.count == expected)
  }

  /// A `--model` that differs from the store's own model is reported by entity and property.
  @Test func mismatchIsReportedByEntityAndProperty() throws {
    let dir = try FileManagerTemp.folder("swiftdata-mismatch")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, _) = try pythonStore(in: dir)
    let bundle = dir.appendingPathComponent("Trips.xcdatamodeld").path
    _ = try run(["store", "model", store, "-o", bundle])
    let contents = bundle + "/Trips.xcdatamodel/contents"
    var text = try String(contentsOfFile: contents, encoding: .utf8)
    text = text.replacingOccurrences(
      of: #"<attribute name="name" attributeType="String"/>"#,
      with: #"<attribute name="name" attributeType="Integer 64"/>"#)
    text = text.replacingOccurrences(
      of: #"<element name="longitude" optional="YES" attributeType="Double"/>"#, with: "")
    try text.write(toFile: contents, atomically: false, encoding: .utf8)
    let r = try run(["store", "info", store, "--model", bundle])
    #expect(r.stdout.contains("store's own model (Z_MODELCACHE) differs from 'Trips':"))
    #expect(r.stdout.contains("  Trip.name: type Integer 64 in 'Trips', String in the store's model"))
    #expect(
      r.stdout.contains(
        "  Trip.place: elements [id UUID optional, location Composite [latitude Double optional], name String optional] in 'Trips', [id UUID optional, location Composite [latitude Double optional, longitude Double optional], name String optional] in the store's model"
      ))
    #expect(!r.stdout.contains("Stop."))
  }

  // MARK: - Stores that describe themselves, history tables

  /// `store info` without `--model` names the cached model and its entities, and lists the
  /// history tables apart, never as entities.
  @Test func infoNamesTheCachedModelAndKeepsHistoryApart() throws {
    let dir = try FileManagerTemp.folder("swiftdata-info")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, _) = try pythonStore(in: dir)
    let r = try run(["store", "info", store])
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "model version: the store's own model (Z_MODELCACHE): 2 entities, hashes like the store's metadata"))
    #expect(lines.contains("model entities: Stop, Trip"))
    let entities = try #require(lines.firstIndex(of: "entities (Z_ENT, name, table, rows):"))
    let own = try #require(lines.firstIndex(of: "Core Data's own tables (not entities of the model):"))
    #expect(own == entities + 3)
    #expect(lines[own + 1] == "  ACHANGE (Z_ENT 16001 CHANGE): 5 rows")
    #expect(lines[own + 2] == "  ATRANSACTION (Z_ENT 16002 TRANSACTION): 1 rows")
    #expect(lines[own + 3] == "  ATRANSACTIONSTRING (Z_ENT 16003 TRANSACTIONSTRING): 1 rows")
    #expect(r.stderr.contains("no --model given"))
  }

  /// A real SwiftData store exported without a model and imported with the model it carries
  /// gives the same tables, columns (names, order, types) and rows, composites included; the
  /// history it drops is said.
  @Test(.enabled(if: SharedPaths.swiftdata != nil, "needs ../shared/swiftdata"), arguments: swiftDataStores)
  func realStoreExportsAndImportsTheSameRows(_ store: String) throws {
    let dir = try FileManagerTemp.folder("swiftdata-roundtrip")
    defer { FileManagerTemp.remove(dir.path) }
    let (json, bundle, out) = (
      dir.appendingPathComponent("s.json").path, dir.appendingPathComponent("M.xcdatamodeld").path,
      dir.appendingPathComponent("s.sqlite").path
    )
    let export = try run(["store", "export", store, "-o", json])
    #expect(export.stderr.contains("using the model the store carries (Z_MODELCACHE"))
    #expect(export.stderr.contains("holds persistent history ("))
    _ = try run(["store", "model", store, "-o", bundle])
    _ = try run(["store", "import", json, "--model", bundle, "-o", out])
    let (a, b) = (try Self.facts(store, rows: true), try Self.facts(out, rows: true))
    #expect(b.columns == a.columns)
    #expect(b.rows?.keys.sorted() == a.rows?.keys.sorted())
    for (table, rows) in a.rows ?? [:] {
      #expect(b.rows?[table] == rows, "table \(table)")
    }
    #expect(b.history.isEmpty)
    #expect(b.hashes == a.hashes)
  }

  // MARK: - Composites

  /// The export holds each composite as one object of its elements (a nested one as an
  /// object), with the values python wrote; a nil optional composite is null.
  @Test func compositesExportAsObjectsOfTheirElements() throws {
    let dir = try FileManagerTemp.folder("swiftdata-composites")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, written) = try pythonStore(in: dir)
    let json = dir.appendingPathComponent("t.json").path
    _ = try run(["store", "export", store, "-o", json])
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
    let trips = try #require((root?["objects"] as? [String: Any])?["Trip"] as? [[String: Any]])
    let expected = try #require(written["trips"] as? [[String: Any]])
    try #require(trips.count == expected.count)
    for (got, want) in zip(trips, expected) {
      #expect(got["id"] as? String == want["id"] as? String)
      #expect(got["name"] as? String == want["name"] as? String)
      #expect(
        NSDictionary(dictionary: got["kind"] as? [String: Any] ?? [:]).isEqual(
          to: want["kind"] as? [String: Any] ?? [:]))
      if let place = want["place"] as? [String: Any] {
        #expect(NSDictionary(dictionary: got["place"] as? [String: Any] ?? [:]).isEqual(to: place))
      } else {
        #expect(got["place"] is NSNull)
      }
    }
  }

  /// Imported back with the model the store carries, the rows are python's, column for column
  /// (`ZID`/`ZID1`, `ZNAME`/`ZNAME1`: the entity's and the composite's), and the model cache
  /// written holds the composite (its hash is the store's).
  @Test func compositesImportIntoTheirColumns() throws {
    let dir = try FileManagerTemp.folder("swiftdata-composite-import")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, _) = try pythonStore(in: dir)
    let (json, bundle, out) = (
      dir.appendingPathComponent("t.json").path, dir.appendingPathComponent("T.xcdatamodeld").path,
      dir.appendingPathComponent("out.sqlite").path
    )
    _ = try run(["store", "export", store, "-o", json])
    _ = try run(["store", "model", store, "-o", bundle])
    _ = try run(["store", "import", json, "--model", bundle, "-o", out])
    let (a, b) = (try Self.facts(store, rows: true), try Self.facts(out, rows: true))
    #expect(b.columns["ZTRIP"] == a.columns["ZTRIP"])
    #expect(b.rows?["ZTRIP"] == a.rows?["ZTRIP"])
    #expect(b.rows?["ZSTOP"] == a.rows?["ZSTOP"])
    #expect(b.hashes == a.hashes)
    // The written cache reads back as the same model.
    let again = dir.appendingPathComponent("Again.xcdatamodel").path
    _ = try run(["store", "model", out, "-o", again])
    let hash = try run(["hash", again, "--format", "json"])
    let hashes =
      (try JSONSerialization.jsonObject(with: Data(hash.stdout.utf8)) as? [String: Any])?[
        "entityVersionHashes"] as? [String: String]
    #expect(hashes == a.hashes)
  }

  /// A key that is no element of the composite has no column to go to: refused, nothing written.
  @Test func unknownElementIsRefused() throws {
    let dir = try FileManagerTemp.folder("swiftdata-composite-unknown")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, _) = try pythonStore(in: dir)
    let (json, bundle, out) = (
      dir.appendingPathComponent("t.json").path, dir.appendingPathComponent("T.xcdatamodeld").path,
      dir.appendingPathComponent("out.sqlite").path
    )
    _ = try run(["store", "export", store, "-o", json])
    _ = try run(["store", "model", store, "-o", bundle])
    var text = try String(contentsOfFile: json, encoding: .utf8)
    text = text.replacingOccurrences(of: #""name": "Porto","#, with: #""name": "Porto", "country": "PT","#)
    try text.write(toFile: json, atomically: false, encoding: .utf8)
    let r = runMapc(["store", "import", json, "--model", bundle, "-o", out])
    #expect(r.exitCode == 2)
    #expect(r.stderr.contains("'country'"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// `migrate` of a store at no version of the bundle starts from the model the store carries:
  /// one inferred step adds an attribute and a composite element; every row and element value is
  /// kept, the new column is NULL, the history is dropped with a note.
  @Test func migrateStartsFromTheCachedModel() throws {
    let dir = try FileManagerTemp.folder("swiftdata-migrate")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, _) = try pythonStore(in: dir)
    let before = try Self.facts(store, rows: true)
    let bundle = dir.appendingPathComponent("Trips.xcdatamodeld").path
    _ = try run(["store", "model", store, "-o", bundle])
    let contents = bundle + "/Trips.xcdatamodel/contents"
    var text = try String(contentsOfFile: contents, encoding: .utf8)
    text = text.replacingOccurrences(
      of: #"<element name="name" optional="YES" attributeType="String"/>"#,
      with:
        #"<element name="name" optional="YES" attributeType="String"/><element name="country" optional="YES" attributeType="String"/>"#
    )
    text = text.replacingOccurrences(
      of: #"<attribute name="name" attributeType="String"/>"#,
      with:
        #"<attribute name="name" attributeType="String"/><attribute name="note" optional="YES" attributeType="String"/>"#
    )
    try text.write(toFile: contents, atomically: false, encoding: .utf8)
    let r = try run(["migrate", "--model", bundle, "--store", store])
    #expect(r.stderr.contains("it carries the model that wrote it (Z_MODELCACHE)"))
    #expect(r.stderr.contains("holds persistent history (1 transactions, 5 changes)"))
    let after = try Self.facts(store, rows: true)
    #expect(after.history.isEmpty)
    #expect(after.rows?["ZSTOP"] == before.rows?["ZSTOP"])
    let columns = after.columns["ZTRIP"]?.map { $0[0] } ?? []
    #expect(columns.contains("ZCOUNTRY") && columns.contains("ZNOTE"))
    // The old columns hold the old values; the new ones are NULL.
    let isNew = { (cell: JSONScalar) in cell.text.hasPrefix("[s:ZCOUNTRY,") || cell.text.hasPrefix("[s:ZNOTE,") }
    let newCells = (after.rows?["ZTRIP"] ?? []).flatMap { $0 }.filter(isNew)
    #expect(newCells.count == 4 && newCells.allSatisfy { $0.text.hasSuffix(",s:null,null]") })
    let rowTexts = { (rows: [[JSONScalar]]) in
      rows.map { $0.filter { !isNew($0) }.map(\.text).joined(separator: ";") }.sorted()
    }
    #expect(rowTexts(after.rows?["ZTRIP"] ?? []) == rowTexts(before.rows?["ZTRIP"] ?? []))
  }
  /// Key paths reach into composites (`$source.place.name`, nested `$source.place.location.latitude`)
  /// in a mapping run on the SQLite store itself; a composite the mapping does not name is copied.
  @Test func mappingsReadCompositeElements() throws {
    let dir = try FileManagerTemp.folder("swiftdata-keypaths")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, _) = try pythonStore(in: dir)
    let bundle = dir.appendingPathComponent("T.xcdatamodeld")
    _ = try run(["store", "model", store, "-o", bundle.path])
    let v1 = try String(contentsOf: bundle.appendingPathComponent("T.xcdatamodel/contents"), encoding: .utf8)
    let v2 = v1.replacingOccurrences(
      of: #"<attribute name="name" attributeType="String"/>"#,
      with:
        #"<attribute name="name" attributeType="String"/><attribute name="city" optional="YES" attributeType="String"/><attribute name="lat" optional="YES" attributeType="Double"/>"#
    )
    try FileManager.default.createDirectory(
      at: bundle.appendingPathComponent("T2.xcdatamodel"), withIntermediateDirectories: true)
    try v2.write(to: bundle.appendingPathComponent("T2.xcdatamodel/contents"), atomically: false, encoding: .utf8)
    let mapping = dir.appendingPathComponent("m.xml")
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <mappingModel name="T1ToT2" formatVersion="1">
      <sourceModel path="T.xcdatamodeld" version="T"/>
      <destinationModel path="T.xcdatamodeld" version="T2"/>
      <entityMapping name="TripToTrip" source="Trip" destination="Trip">
        <attribute name="city">$source.place.name</attribute>
        <attribute name="lat">$source.place.location.latitude</attribute>
        <relationship name="stops">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "StopToStop", $source.stops)</relationship>
      </entityMapping>
      <entityMapping name="StopToStop" source="Stop" destination="Stop">
        <relationship name="trip">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "TripToTrip", $source.trip)</relationship>
      </entityMapping>
    </mappingModel>
    """.write(to: mapping, atomically: false, encoding: .utf8)
    let out = dir.appendingPathComponent("out.sqlite").path
    _ = try run(["run", mapping.path, "--store", store, "--output", out])
    let rows = try Self.facts(out, rows: true).rows?["ZTRIP"] ?? []
    let cells = rows.map { Set($0.map(\.text)) }
    #expect(
      cells.contains { $0.contains("[s:ZCITY,s:text,s:Porto]") && $0.contains("[s:ZLAT,s:real,d:\(41.15.bitPattern)]") }
    )
    #expect(cells.contains { $0.contains("[s:ZCITY,s:null,null]") && $0.contains("[s:ZLAT,s:null,null]") })
    // The composite itself was copied: its element columns hold python's values.
    #expect(
      cells.contains {
        $0.contains("[s:ZNAME1,s:text,s:Porto]") && $0.contains("[s:ZLATITUDE,s:real,d:\(41.15.bitPattern)]")
      })
  }
  /// A cache that inflates past 16 MB (a deflate bomb) or is no deflate stream is
  /// `sqlite-model-cache`, bounded and without output; `store info` still describes the store.
  @Test(arguments: [
    (
      "(lambda c: c.compress(bytes(20 << 20)) + c.flush())(zlib.compressobj(9, zlib.DEFLATED, -15))",
      "more than 16777216 bytes"
    ),
    ("b'not deflate at all'", "not a raw DEFLATE stream"),
  ])
  func unreadableCacheIsRefused(_ content: String, _ message: String) throws {
    let dir = try FileManagerTemp.folder("swiftdata-bomb")
    defer { FileManagerTemp.remove(dir.path) }
    let (store, _) = try pythonStore(in: dir)
    let script = """
      import sqlite3, sys, zlib
      db = sqlite3.connect(sys.argv[1])
      db.execute("UPDATE Z_MODELCACHE SET Z_CONTENT = ?", (\(content),))
      db.commit()
      """
    let py = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, store])
    try #require(py.exitCode == 0, "\(py.stderr)")
    let model = dir.appendingPathComponent("M.xcdatamodel").path
    let r = runMapc(["store", "model", store, "-o", model])
    #expect(r.exitCode == 2)
    #expect(r.stderr.contains("[sqlite-model-cache]") && r.stderr.contains(message), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: model))
    let info = try run(["store", "info", store])
    #expect(info.stdout.contains("model cache: unreadable ("))
  }
}
