import Foundation
import MapTestSupport
import Testing

/// Issue 37's acceptance: the schema mapc derives for a store's model version, framework
/// version and options is the one Core Data wrote, `sqlite_master` row for row (type, name,
/// table and SQL byte for byte; row order and `rootpage` aside), read by python3's sqlite3
/// (`sqlite_master.py`). The derived schema is that of the empty store mapc writes for the
/// store's metadata (its objects removed). The only rows left out are those listed in
/// `leftBehind`, each with its evidence.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct ExactSchemaTests {
  /// Indexes Core Data left in a real store that its model version does not declare, by store
  /// number, each with why.
  static let leftBehind: [String: [String: String]] = [
    "19": [
      // AddressBookEntry's version hash is the same from zmessaging2.24.1 (where it appears) to
      // 2.80.0, so Core Data's in-place migrations never rebuilt its table: the index in the
      // naming of frameworks before 800 stayed beside the one of 866 (`Z_AddressBookEntry_localIdentifier`,
      // same table and column).
      "ZADDRESSBOOKENTRY_ZLOCALIDENTIFIER_INDEX":
        "an index of an earlier framework era on a table no migration rebuilt"
    ]
  ]

  /// Objects of persistent history tracking: they come from the store's option, not from its
  /// model (Specs/sqlite-store.md §7).
  static func isHistory(_ row: [String?]) -> Bool {
    let table = row[2] ?? ""
    return ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"].contains(table)
  }

  static func master(_ path: String) throws -> [[String?]] {
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/sqlite_master.py")
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, path])
    guard r.exitCode == 0 else { throw RealStore.PythonFailed(message: r.stderr) }
    return try JSONDecoder().decode([[String?]].self, from: Data(r.stdout.utf8))
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var number: String?
    var store: String
    /// The model bundle of the version, or nil for a store read with its own model.
    var bundle: String?
    var testDescription: String { name }
  }

  static let cases: [Case] = {
    var result = SQLiteRoundTripTests.readable.map {
      Case(name: $0.testDescription, number: $0.number, store: $0.store.path, bundle: $0.bundle.path)
    }
    result += SwiftDataStoreTests.swiftDataStores.map {
      Case(name: "SwiftData " + URL(fileURLWithPath: $0).deletingLastPathComponent().lastPathComponent, store: $0)
    }
    return result
  }()

  func mapc(_ arguments: [String]) throws {
    let r = runMapc(arguments)
    try #require(r.exitCode == 0, "mapc \(arguments.joined(separator: " ")): \(r.stderr)")
  }

  /// The empty store mapc writes for the version, framework version and metadata of `c.store`.
  /// A store read with its own model (SwiftData's) is converted as it is instead: its schema is
  /// derived from the cached model all the same (only its rows come from the store), and the
  /// model written out as Xcode XML would not do (Xcode's compiler indexes an attribute that a
  /// one-element fetch index covers; SwiftData's run-time models are not so marked).
  func derived(_ c: Case, in dir: URL) throws -> String {
    let (json, empty, out) = (
      dir.appendingPathComponent("a.json").path, dir.appendingPathComponent("empty.json"),
      dir.appendingPathComponent("empty.sqlite").path
    )
    guard let bundle = c.bundle else {
      try mapc(["store", "convert", c.store, "-o", out, "--to", "sqlite"])
      return out
    }
    try mapc(["store", "export", c.store, "--model", bundle, "-o", json])
    var store = try #require(
      try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
    store["objects"] = [String: Any]()
    try JSONSerialization.data(withJSONObject: store).write(to: empty)
    try mapc(["store", "import", empty.path, "--model", bundle, "-o", out])
    return out
  }

  @Test(arguments: cases) func derivedSchemaIsCoreDatas(_ c: Case) throws {
    let dir = try FileManagerTemp.folder("exact-schema")
    defer { try? FileManager.default.removeItem(at: dir) }
    let real = try Self.master(c.store)
    let left = Self.leftBehind[c.number ?? ""] ?? [:]
    let expected = real.filter { !Self.isHistory($0) && left[$0[1] ?? ""] == nil }
    let got = try Self.master(try derived(c, in: dir)).filter { !Self.isHistory($0) }
    let (e, g) = (Set(expected.map { $0.map { $0 ?? "NULL" } }), Set(got.map { $0.map { $0 ?? "NULL" } }))
    #expect(e.subtracting(g).sorted { $0.lexicographicallyPrecedes($1) } == [], "only in Core Data's")
    #expect(g.subtracting(e).sorted { $0.lexicographicallyPrecedes($1) } == [], "only in mapc's")
    // Each listed row is really there (the list does not outlive its reason).
    for name in left.keys { #expect(real.contains { $0[1] == name }, "\(name) is no longer in the store") }
  }

  /// `store convert` SQLite → SQLite writes Core Data's whole `sqlite_master`, persistent
  /// history's tables included where the store has them.
  @Test(arguments: cases) func convertKeepsTheWholeSchema(_ c: Case) throws {
    let dir = try FileManagerTemp.folder("exact-schema-convert")
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("c.sqlite").path
    var arguments = ["store", "convert", c.store, "-o", out, "--to", "sqlite"]
    if let b = c.bundle { arguments += ["--model", b] }
    try mapc(arguments)
    let left = Self.leftBehind[c.number ?? ""] ?? [:]
    let real = Set(try Self.master(c.store).filter { left[$0[1] ?? ""] == nil }.map { $0.map { $0 ?? "NULL" } })
    let got = Set(try Self.master(out).map { $0.map { $0 ?? "NULL" } })
    #expect(real.subtracting(got).sorted { $0.lexicographicallyPrecedes($1) } == [], "only in Core Data's")
    #expect(got.subtracting(real).sorted { $0.lexicographicallyPrecedes($1) } == [], "only in mapc's")
  }
}

/// A relationship that is its own inverse: its join table keys the second column `REFLEXIVE`
/// (reference §5.1, from Core Data's code; no real store here has one), and its links come back.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct ReflexiveJoinTableTests {
  @Test func selfInverseRelationshipUsesReflexive() throws {
    let dir = try FileManagerTemp.folder("reflexive")
    defer { try? FileManager.default.removeItem(at: dir) }
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
          <entity name="Person" representedClassName="Person" syncable="YES">
              <attribute name="name" optional="YES" attributeType="String"/>
              <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
          </entity>
      </model>
      """
    let bundle = try ModelBundles.bundle(model, named: "M", in: dir)
    let people: [[String: Any]] = [
      ["id": "Person/1", "name": "a", "friends": ["Person/2", "Person/3"]],
      ["id": "Person/2", "name": "b", "friends": ["Person/1"]],
      ["id": "Person/3", "name": "c", "friends": ["Person/1"]],
    ]
    let out = try ModelBundles.importedStore(bundle, objects: ["Person": people], in: dir)
    let p = ModelBundles.python(
      "print([c[1] for c in db.execute('PRAGMA table_info(Z_1FRIENDS)')]); print(sorted(db.execute('SELECT Z_1FRIENDS, REFLEXIVE FROM Z_1FRIENDS')))",
      on: out)
    #expect(p.stdout == "['Z_1FRIENDS', 'REFLEXIVE']\n[(1, 2), (1, 3), (2, 1), (3, 1)]\n", "\(p.stderr)")
    let back = dir.appendingPathComponent("b.json").path
    let e = runMapc(["store", "export", out, "--model", bundle.path, "-o", back])
    try #require(e.exitCode == 0, "\(e.stderr)")
    let objects = try #require(
      (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: back))) as? [String: Any])?[
        "objects"] as? [String: [[String: Any]]])
    let friends = (objects["Person"] ?? []).map { ($0["id"] as? String ?? "", $0["friends"] as? [String] ?? []) }
    #expect(friends.map(\.0) == ["Person/1", "Person/2", "Person/3"])
    #expect(friends.map(\.1) == [["Person/2", "Person/3"], ["Person/1"], ["Person/1"]])
  }
}

/// A fetch index of one element named `by<Property>Index` is Xcode's "Indexed" box only when it
/// is ascending without a predicate: the attribute's own index, named after it. Any other, a
/// descending one of that name among them, keeps its own name beside the attribute's index
/// (LoopKit's `Reservoir.byDateIndex` is descending). `sqlite_master` read by python3's sqlite3.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct FetchIndexNameTests {
  @Test func aDescendingIndexNamedAfterItsPropertyKeepsItsName() throws {
    let dir = try FileManagerTemp.folder("fetch-index-names")
    defer { try? FileManager.default.removeItem(at: dir) }
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
          <entity name="Reservoir" representedClassName="Reservoir" syncable="YES">
              <attribute name="date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
              <attribute name="level" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
              <attribute name="note" optional="YES" attributeType="String"/>
              <fetchIndex name="byDateIndex">
                  <fetchIndexElement property="date" type="Binary" order="descending"/>
              </fetchIndex>
              <fetchIndex name="byLevelIndex">
                  <fetchIndexElement property="level" type="Binary" order="ascending"/>
              </fetchIndex>
              <fetchIndex name="recent">
                  <fetchIndexElement property="note" type="Binary" order="descending"/>
              </fetchIndex>
          </entity>
      </model>
      """
    let bundle = try ModelBundles.bundle(model, named: "M", in: dir)
    let out = try ModelBundles.importedStore(bundle, objects: ["Reservoir": [[String: Any]]()], in: dir)
    let p = ModelBundles.python(
      "[print(s) for (s,) in db.execute(\"SELECT sql FROM sqlite_master WHERE type='index' AND tbl_name='ZRESERVOIR' ORDER BY name\")]",
      on: out)
    #expect(
      p.stdout == """
        CREATE INDEX Z_Reservoir_byDateIndex ON ZRESERVOIR (ZDATE COLLATE BINARY DESC)
        CREATE INDEX Z_Reservoir_date ON ZRESERVOIR (ZDATE COLLATE BINARY ASC)
        CREATE INDEX Z_Reservoir_level ON ZRESERVOIR (ZLEVEL COLLATE BINARY ASC)
        CREATE INDEX Z_Reservoir_note ON ZRESERVOIR (ZNOTE COLLATE BINARY ASC)
        CREATE INDEX Z_Reservoir_recent ON ZRESERVOIR (ZNOTE COLLATE BINARY DESC)

        """, "\(p.stderr)")
  }
}
