import Foundation
import MapTestSupport
import Testing

/// Issue 37, part 2: the model a store carries (`Z_MODELCACHE`), read the same way for every
/// framework era of ../shared (754 to 1403; Specs/sqlite-store.md §7.2). The oracles are
/// independent of mapc: the Xcode model the store's SOURCES.md row names (`model_declared.py`,
/// python3's xml.etree), the store's export with that model, and caches python3 rewrites
/// (`odd_cache.py`: sqlite3, zlib, plistlib). Hashes: `SwiftDataStoreTests.cachedModelHashesLikeTheStore`.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct ModelCacheEraTests {
  static func python(_ script: String, _ arguments: [String]) throws -> String {
    try SwiftDataStoreTests.python(script, arguments)
  }

  /// `model_declared.py` of a `contents` file, decoded.
  struct Declared: Decodable, Equatable, CustomStringConvertible {
    var parent: String?
    var abstract: Bool
    var attributes: [String]
    var relationships: [String]
    var description: String {
      "parent \(parent ?? "-")\(abstract ? " abstract" : ""): \(attributes) \(relationships)"
    }
  }

  static func declared(_ contents: String) throws -> [String: Declared] {
    try JSONDecoder().decode([String: Declared].self, from: Data(try python("model_declared.py", [contents]).utf8))
  }

  static func errorLines(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") }
  }

  /// The model `mapc store model` writes declares, entity by entity, the parent, abstractness
  /// and own attributes and relationships of the Xcode model version the store names: an
  /// inherited property is the parent's alone, whatever form the sub-entity's copy takes in the
  /// archive (a proxy at 754, apptentive v6; a copy naming the sub-entity at 866, Wire).
  @Test(.enabled(if: SharedPaths.stores != nil, "needs ../shared/stores"), arguments: RealStore.all)
  func cachedModelDeclaresWhatItsVersionDeclares(_ s: RealStore) throws {
    guard try SwiftDataStoreTests.facts(s.store.path).cache else { return }
    let dir = try FileManagerTemp.folder("model-cache-declared")
    defer { FileManagerTemp.remove(dir.path) }
    let model = dir.appendingPathComponent("Cached.xcdatamodel")
    let r = runMapc(["store", "model", s.store.path, "-o", model.path])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let version = s.bundle.appendingPathComponent("\(s.version).xcdatamodel/contents")
    let (found, expected) = (
      try Self.declared(model.appendingPathComponent("contents").path), try Self.declared(version.path)
    )
    #expect(found.keys.sorted() == expected.keys.sorted())
    for (name, e) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(found[name] == e, "entity \(name)")
    }
  }

  /// `store export` without `--model` (the store's own model) writes the same JSON as with
  /// `--model` of the bundle the store's SOURCES.md row names, for every store with a cache.
  @Test(.enabled(if: SharedPaths.stores != nil, "needs ../shared/stores"), arguments: RealStore.all)
  func exportWithoutModelIsTheVersionsExport(_ s: RealStore) throws {
    guard try SwiftDataStoreTests.facts(s.store.path).cache else { return }
    let dir = try FileManagerTemp.folder("model-cache-export")
    defer { FileManagerTemp.remove(dir.path) }
    let (own, named) = (dir.appendingPathComponent("own.json"), dir.appendingPathComponent("named.json"))
    let a = runMapc(["store", "export", s.store.path, "-o", own.path])
    let b = runMapc(["store", "export", s.store.path, "--model", s.bundle.path, "-o", named.path])
    try #require(b.exitCode == 0, "\(b.stderr)")
    try #require(a.exitCode == 0, "\(a.stderr)")
    #expect(a.stderr.contains("using the model the store carries (Z_MODELCACHE"))
    #expect(try Data(contentsOf: own) == Data(contentsOf: named))
  }

  /// A cache with a Transformable-style default of the app's own class (an instance referring
  /// to itself) and fetch request templates in an `NSKnownKeysDictionary1` is read: both are
  /// named in notes, the store exports, and a store converted to SQLite with the store's own
  /// model holds the default as python wrote it (the templates are not written, §7.1).
  @Test func appClassDefaultAndKnownKeysTemplatesAreRead() throws {
    let dir = try FileManagerTemp.folder("model-cache-odd")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("Trips.sqlite").path
    _ = try Self.python("swiftdata_store.py", [store])
    let written = try Self.python("odd_cache.py", ["write", store, "Stop.title"])
    let model = dir.appendingPathComponent("T.xcdatamodel").path
    let r = runMapc(["store", "model", store, "-o", model])
    try #require(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("the default value of Stop.title, an archived TripsApp.Palette, kept only to be"))
    #expect(r.stderr.contains("the fetch request templates 'recentTrips'"))
    let export = runMapc(["store", "export", store, "-o", dir.appendingPathComponent("t.json").path])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let out = dir.appendingPathComponent("out.sqlite").path
    let convert = runMapc(["store", "convert", store, "-o", out])
    try #require(convert.exitCode == 0, "\(convert.stderr)")
    #expect(try Self.python("odd_cache.py", ["default", out, "Stop.title"]) == written)
    #expect(written.contains("TripsApp.Palette"))
  }
}
