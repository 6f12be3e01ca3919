import Foundation
import MapTestSupport
import Testing

/// Issue 16's `Z_MODELCACHE` row (Specs/sqlite-store.md §7.1), read by python3 alone
/// (`model_cache.py`: sqlite3, zlib's raw inflate, plistlib, UIDs followed into one tree). For
/// every real store with a cache, the store mapc imports from its export holds the same model
/// graph as Core Data's cache, apart from the exact exceptions listed here; the row's bytes
/// are the same on every run; a store written for a model with features no real cache shows
/// still opens and inflates to a model archive.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SQLiteModelCacheTests {
  /// The stores of `../shared/stores/SOURCES.md` that have a `Z_MODELCACHE` row.
  static let cached = RealStore.all.filter { ["6", "26", "27", "28", "41", "42", "43", "45"].contains($0.number) }

  struct Comparison: Decodable {
    struct Row: Decodable {
      var bytes: Int
      var inflated: Int
      var objects: Int
      var sha256: String
    }
    struct Difference: Decodable, Hashable, CustomStringConvertible {
      var at: String
      var path: String
      var real: String
      var other: String
      var description: String { "\(at) \(path): Core Data \(real), mapc \(other)" }
    }
    var real: Row
    var other: Row?
    var differences: [Difference]?
  }

  static func compare(_ store: String, with other: String? = nil) throws -> Comparison {
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/model_cache.py")
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, store] + (other.map { [$0] } ?? []))
    guard r.exitCode == 0 else { throw RealStore.PythonFailed(message: r.stderr) }
    return try JSONDecoder().decode(Comparison.self, from: Data(r.stdout.utf8))
  }

  /// What the real caches hold that the model does not say, store by store, exactly:
  /// - XCServer's entities are `.Name` in the model (Xcode's "current product module"), which
  ///   momc replaced with the app's module: `XCServerCoreData` for the library's own test
  ///   stores, `Pocket_Bot` for 2.0.1 (written by that app). mapc keeps `.Name`.
  /// - wibosco's 2 and 3 were written by Core Data's migration (the project's tests migrate its
  ///   version 1 store), whose copy of the model has no class names, empty sub-entity
  ///   dictionaries and index arrays on every entity, plain-string renaming identifiers and an
  ///   immutable version-identifier set; its own version 1 store, written by the app at the
  ///   same framework version, has what mapc writes.
  static func exceptions(_ s: RealStore, entities: [String]) -> Set<Comparison.Difference> {
    typealias D = Comparison.Difference
    let module = ["26": "Pocket_Bot", "27": "XCServerCoreData", "28": "XCServerCoreData"][s.number]
    if let module {
      return Set(
        entities.map {
          D(at: "entity \($0)", path: "NSClassNameForEntity", real: "\"\(module).\($0)\"", other: "\".\($0)\"")
        }
      )
    }
    guard ["42", "43"].contains(s.number) else { return [] }
    let emptyArray = #"{"$class": "NSMutableArray", "NS.objects": []}"#
    var result: Set<D> = [
      D(at: "model", path: "NSVersionIdentifiers.$class", real: "\"NSSet\"", other: "\"NSMutableSet\"")
    ]
    for e in entities {
      result.formUnion([
        D(at: "entity \(e)", path: "NSClassNameForEntity", real: "null", other: "\"\(e)\""),
        D(at: "entity \(e)", path: "NSCompoundIndexes", real: emptyArray, other: "(absent)"),
        D(at: "entity \(e)", path: "NSFetchIndexDescriptions", real: emptyArray, other: "(absent)"),
        D(
          at: "entity \(e)", path: "NSRenamingIdentifier", real: "\"\(e)\"",
          other: #"{"$class": "NSMutableString", "NS.string": "\#(e)"}"#),
        D(
          at: "entity \(e)", path: "NSSubentities", real: #"{"$class": "NSMutableDictionary", "entries": {}}"#,
          other: "null"),
      ])
    }
    return result
  }

  @Test(.enabled(if: SharedPaths.stores != nil, "needs ../shared/stores"), arguments: cached)
  func cacheHoldsTheRealCachesModel(_ s: RealStore) throws {
    let dir = try FileManagerTemp.folder("sqlite-model-cache")
    defer { try? FileManager.default.removeItem(at: dir) }
    let (json, out) = (dir.appendingPathComponent("a.json").path, dir.appendingPathComponent("b.sqlite").path)
    for args in [
      ["store", "export", s.store.path, "--model", s.bundle.path, "-o", json],
      ["store", "import", json, "--model", s.bundle.path, "-o", out],
    ] {
      let r = runMapc(args)
      try #require(r.exitCode == 0, "\(args[1]): \(r.stderr)")
    }
    let c = try Self.compare(s.store.path, with: out)
    let found = c.differences ?? []
    let expected = Self.exceptions(s, entities: try s.independent().hashes.keys.sorted())
    #expect(found.count == Set(found).count)
    #expect(
      Set(found).subtracting(expected).isEmpty,
      "not expected: \(Set(found).subtracting(expected).sorted { "\($0)" < "\($1)" })")
    #expect(
      expected.subtracting(found).isEmpty,
      "expected, not found: \(expected.subtracting(found).sorted { "\($0)" < "\($1)" })")
    // Never the same bytes: Core Data's archive lists hash-ordered dictionaries and repeats
    // equal strings (Specs/sqlite-store.md §7.1).
    #expect(c.other?.sha256 != c.real.sha256)
  }

  /// `mapc migrate` of wibosco's version 1 store writes version 2's cache: Core Data's own
  /// migration of that store differs from it by exactly the listed exceptions.
  @Test(.enabled(if: SharedPaths.stores != nil, "needs ../shared/stores")) func migrateWritesTheCache() throws {
    let v1 = try #require(Self.cached.first { $0.number == "41" })
    let v2 = try #require(Self.cached.first { $0.number == "42" })
    let dir = try FileManagerTemp.folder("sqlite-model-cache-migrate")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("s.sqlite").path
    try FileManager.default.copyItem(atPath: v1.store.path, toPath: store)
    let r = runMapc(["migrate", "--model", v1.bundle.path, "--store", store, "--to", v2.version, "--quiet"])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let found = try Self.compare(v2.store.path, with: store).differences ?? []
    #expect(Set(found) == Self.exceptions(v2, entities: ["Post"]) && found.count == 6, "\(found)")
  }

  /// A model with what no real cache shows: a three-level hierarchy, user info, a renaming
  /// identifier, version hash modifiers, a transient, a Decimal and a Date default, an indexed
  /// attribute, a two-element fetch index, a uniqueness constraint, external storage, an
  /// inverse-less to-many and an ordered many-to-many.
  static let featureModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="21754" \
    systemVersion="22G120" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="v7">
        <entity name="Item" representedClassName="Item" isAbstract="YES" elementID="OldItem" versionHashModifier="m1">
            <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="created" optional="YES" attributeType="Date" defaultDateTimeInterval="700000000"/>
            <attribute name="price" optional="YES" attributeType="Decimal" defaultValueString="1.5"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
            <attribute name="title" attributeType="String" defaultValueString="untitled" indexed="YES"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Deny" ordered="YES" \
    destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
            <userInfo><entry key="k" value="v"/></userInfo>
            <uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Book" parentEntity="Item">
            <attribute name="pages" optional="YES" attributeType="Integer 64" defaultValueString="0"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Tag"/>
            <fetchIndex name="byPagesAndTitle">
                <fetchIndexElement property="pages" type="Binary" order="descending"/>
                <fetchIndexElement property="title" type="Binary" order="ascending"/>
            </fetchIndex>
        </entity>
        <entity name="Novel" parentEntity="Book">
            <attribute name="genre" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Tag">
            <attribute name="name" optional="YES" attributeType="String" versionHashModifier="2">
                <userInfo><entry key="a" value="b"/></userInfo>
            </attribute>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" \
    inverseName="tags" inverseEntity="Item"/>
        </entity>
    </model>
    """

  /// An empty store of the feature model written by `mapc store import` at `frameworkVersion`.
  static func emptyStore(in dir: URL, frameworkVersion: Int, name: String) throws -> String {
    let bundle = try ModelBundles.bundle(featureModel, named: "F", in: dir)
    var metadata = try ModelBundles.storeMetadata(bundle)
    metadata["NSPersistenceFrameworkVersion"] = frameworkVersion
    let json = dir.appendingPathComponent("\(name).json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": [String: Any]()]).write(to: json)
    let out = dir.appendingPathComponent("\(name).sqlite").path
    let r = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", out])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return out
  }

  @Test func rowIsDeterministicAndInflatesToTheModel() throws {
    let dir = try FileManagerTemp.folder("sqlite-model-cache-features")
    defer { try? FileManager.default.removeItem(at: dir) }
    for (version, mutable) in [(866, true), (1344, false)] {
      let a = try Self.compare(try Self.emptyStore(in: dir, frameworkVersion: version, name: "a\(version)"))
      let b = try Self.compare(try Self.emptyStore(in: dir, frameworkVersion: version, name: "b\(version)"))
      #expect(a.real.sha256 == b.real.sha256, "framework \(version)")
      let entities = try Self.entities(dir.appendingPathComponent("a\(version).sqlite").path)
      #expect(entities.keys.sorted() == ["Book", "Item", "Novel", "Tag"])
      let novel = try #require(entities["Novel"]?["NSProperties"] as? [String: Any])
      let properties = try #require(novel["entries"] as? [String: [String: Any]])
      // Own genre, then proxies of Book's pages and notes and of Item's properties.
      #expect(
        properties.keys.sorted() == ["blob", "created", "genre", "notes", "pages", "price", "scratch", "tags", "title"])
      #expect(properties["genre"]?["$class"] as? String == "NSAttributeDescription")
      #expect(properties["title"]?["$class"] as? String == "_NSPropertyDescriptionProxy")
      #expect(properties["title"]?["NSReferenceID"] as? Int == 4)
      #expect(properties["tags"]?["NSReferenceID"] as? Int == 5)
      let item = try #require(entities["Item"])
      #expect(item["NSIsAbstract"] as? Bool == true)
      #expect((item["NSRenamingIdentifier"] as? [String: Any])?["NS.string"] as? String == (mutable ? "OldItem" : nil))
      // The key of the real SwiftData caches (../shared/swiftdata: 1345, 1403).
      #expect(item["NSUniqueTuples"] != nil)
      #expect((entities["Tag"]?["NSSubentities"] is NSNull) == mutable)
    }
    // Before 640 Core Data wrote no model cache: no table, no row.
    let old = try Self.emptyStore(in: dir, frameworkVersion: 519, name: "old")
    #expect(try SQLiteRoundTripTests.schema(old).tables["Z_MODELCACHE"] == nil)
  }

  /// Each entity's tree, as python3 reads it.
  static func entities(_ store: String) throws -> [String: [String: Any]] {
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/model_cache.py")
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, store])
    guard r.exitCode == 0 else { throw RealStore.PythonFailed(message: r.stderr) }
    let top = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    return (top?["entities"] as? [String: Any])?.compactMapValues { $0 as? [String: Any] } ?? [:]
  }
}
