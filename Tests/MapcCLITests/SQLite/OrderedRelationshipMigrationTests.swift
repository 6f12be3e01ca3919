import Foundation
import MapTestSupport
import Testing

/// Issue 24, item 1: every ordered to-many (and ordered many-to-many) relationship keeps its
/// owner's order through `mapc migrate`, SQLite to SQLite and through a JSON store. DuckDuckGo's
/// bookmark stores V1…V4 are each migrated one version on; python3's sqlite3 reads the members
/// of every ordered relationship in position order (`ordered_members.py`), naming objects by
/// their `uuid`, from the migrated store and from the store Core Data itself wrote at the
/// target version (the app's test stores hold the same bookmarks at every version).
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct OrderedRelationshipMigrationTests {
  static let steps: [(RealStore, RealStore)] = {
    let stores = (1...5).compactMap { SQLiteRunTests.store("Bookmarks_V\($0).sqlite") }
    return stores.count == 5 ? Array(zip(stores, stores.dropFirst())) : []
  }()

  static func ordered(_ path: String) throws -> [String: [String: [String]]] {
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/ordered_members.py")
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, path, "ZBOOKMARKENTITY", "ZUUID"])
    guard r.exitCode == 0 else { throw RealStore.PythonFailed(message: r.stderr) }
    return try JSONDecoder().decode([String: [String: [String]]].self, from: Data(r.stdout.utf8))
  }

  /// A copy of a real store and its `-wal`/`-shm` in `dir`.
  static func copy(_ s: RealStore, to dir: URL) throws -> String {
    let target = dir.appendingPathComponent(s.store.lastPathComponent).path
    for (suffix, data) in s.files() { try data.write(to: URL(fileURLWithPath: target + suffix)) }
    return target
  }

  @Test func duckDuckGoHasFourSteps() {
    #expect(Self.steps.count == 4)
  }

  @Test(arguments: steps.indices) func sqliteStepKeepsEveryOrder(_ k: Int) throws {
    let (from, to) = Self.steps[k]
    let dir = try FileManagerTemp.folder("ordered-sqlite")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try Self.copy(from, to: dir)
    // V2 → V3 removes `isFavorite` (the app's own change): consent to that loss.
    let r = runMapc([
      "migrate", "--model", from.bundle.path, "--store", store, "--to", to.version, "--quiet", "--allow-data-loss",
    ])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let expected = try Self.ordered(to.store.path)
    #expect(expected.values.contains { $0.values.contains { $0.count > 2 } }, "a store with orders to keep")
    #expect(try Self.ordered(store) == expected)
  }

  @Test(arguments: steps.indices) func jsonStepKeepsEveryOrder(_ k: Int) throws {
    let (from, to) = Self.steps[k]
    let dir = try FileManagerTemp.folder("ordered-json")
    defer { try? FileManager.default.removeItem(at: dir) }
    let json = dir.appendingPathComponent("store.json").path
    let back = dir.appendingPathComponent("back.sqlite").path
    for args in [
      ["store", "export", from.store.path, "--model", from.bundle.path, "-o", json],
      ["migrate", "--model", from.bundle.path, "--store", json, "--to", to.version, "--quiet", "--allow-data-loss"],
      ["store", "import", json, "--model", to.bundle.path, "-o", back],
    ] {
      let r = runMapc(args)
      try #require(r.exitCode == 0, "\(args[0]) \(args[1]): \(r.stderr)")
    }
    #expect(try Self.ordered(back) == (try Self.ordered(to.store.path)))
  }
}
