import Foundation
import MapRuntime
@testable import MapSQLite
import MapTestSupport
import Testing

/// `mapc test`'s comparison a chunk at a time (`StreamingComparison` with
/// `ComparisonSpillDatabase`) on every real store of `../shared` that carries its model: the
/// store against itself, each copy changed by python3's sqlite3 (`touch_texts.py`): one text of
/// each entity table gets "x" appended in one copy, and a row nothing refers to is deleted from
/// one copy or the other. At `--memory-limit` 16K and 64K the comparison either
/// refuses with `run-memory-limit` or finds exactly the differences, in the same order and
/// words, that the comparison of the two stores read whole finds; and those are the changes
/// python3 made, each as the old text and the new.
@Suite(.enabled(if: SharedPaths.stores != nil, "needs ../shared/stores"))
struct StreamingComparisonTests {
  /// Stores (file names) whose comparison must go a chunk at a time at 64K, in two chunks or
  /// more (the stores whose migration does, `RealStoreMemoryLimitTests.inChunks`).
  static let inChunks: Set<String> = [
    "Bookmarks_V1.sqlite", "Bookmarks_V2.sqlite", "Bookmarks_V3.sqlite", "Bookmarks_V4.sqlite", "Bookmarks_V5.sqlite",
    "CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example_2.sqlite", "CoreDataMigration_Example_3.sqlite",
    "ATDataModelv2.sqlite", "ATDataModelv3.sqlite", "ATDataModelv5.sqlite", "store2-80-0.wiredatabase",
  ]

  struct Change: Decodable {
    var kind: String
    var entity: String
    var pk: Int
    var column: String
    var old: String
  }

  @Test(arguments: RealStoreFile.all)
  func chunksFindWhatTheWholeStoresShow(_ store: RealStoreFile) throws {
    guard let model = try CoreDataModelCacheReader.read(storeAt: store.path)?.model else { return }
    let layout = StoreLayout(model: model)
    let dir = try FileManagerTemp.folder("streaming-comparison")
    defer { FileManagerTemp.remove(dir.path) }
    let expected = dir.appendingPathComponent("expected.sqlite").path
    let got = dir.appendingPathComponent("got.sqlite").path
    for target in [expected, got] {
      for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store.path + suffix) {
        try FileManager.default.copyItem(atPath: store.path + suffix, toPath: target + suffix)
      }
    }
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapSQLiteTests/touch_texts.py").path
    var changes: [StreamingComparison.Side: [Change]] = [:]
    for (side, path) in [(StreamingComparison.Side.expected, expected), (.got, got)] {
      let touched = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, path, "\(side.rawValue)"])
      try #require(touched.exitCode == 0, "\(touched.stderr)")
      changes[side] = try JSONDecoder().decode([Change].self, from: Data(touched.stdout.utf8))
    }

    let format = SQLiteStoreFormat()
    let whole = GraphComparison.differences(
      expected: try format.read(expected, layout: layout, options: StoreReadOptions()).0,
      got: try format.read(got, layout: layout, options: StoreReadOptions()).0, limit: 10_000)
    #expect(!whole.truncated)
    // The whole comparison shows python's changes, each as its old and new text (a change to
    // a column that is not a plain string attribute, a Transformable's, shows otherwise).
    let name = store.path.split(separator: "/").last.map(String.init) ?? ""
    for change in changes.values.joined() where change.kind == "deleted" {
      // Deleted from the expected store: the result has an object more; from the result: one less.
      let id = "\(change.entity)/\(change.pk)"
      let wanted: GraphComparison.Difference =
        changes[.got, default: []].contains { $0.kind == "deleted" && $0.entity == change.entity && $0.pk == change.pk }
        ? .missing(change.entity, id) : .unexpected(change.entity, id)
      #expect(whole.differences.contains(wanted), "\(name): \(wanted)")
    }
    for change in changes[.got, default: []] where change.kind == "text" {
      let property = layout.entities.first { $0.name == change.entity }?.properties.first {
        "Z" + $0.name.uppercased() == change.column
      }
      guard let property, property.relationship == nil else { continue }
      let found = whole.differences.first {
        $0.object == "\(change.entity)/\(change.pk)" && $0.property == property.name
      }
      #expect(found != nil, "\(name): \(change.entity)/\(change.pk).\(property.name) not found")
      if let found, found.expected.hasPrefix("\"") {
        #expect(found.expected == GraphComparison.quoted(change.old))
        #expect(found.got == GraphComparison.quoted(change.old + "x"))
      }
    }

    for limit in [16 << 10, 64 << 10] {
      let scratch = dir.appendingPathComponent("scratch-\(limit)").path
      try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
      let comparison = StreamingComparison(
        layout: layout, limit: limit, scratch: scratch,
        spill: try ComparisonSpillDatabase(folder: scratch, cacheKiB: 512))
      do {
        let a = try comparison.add(.got, path: got, format: format)
        let b = try comparison.add(.expected, path: expected, format: format)
        if limit == 64 << 10 && Self.inChunks.contains(name) {
          #expect(a >= 2 && b >= 2, "\(name): \(a) and \(b) chunks")
        }
        let chunked = try comparison.differences(limit: 10_000)
        #expect(chunked.differences == whole.differences, "\(name) at \(limit)")
        #expect(chunked.truncated == whole.truncated)
        // The first 20 too, as `mapc test` shows them.
        let shown = try comparison.differences()
        let wholeShown = GraphComparison.differences(
          expected: try format.read(expected, layout: layout, options: StoreReadOptions()).0,
          got: try format.read(got, layout: layout, options: StoreReadOptions()).0)
        #expect(shown.differences == wholeShown.differences)
        #expect(shown.truncated == wholeShown.truncated)
      } catch {
        let codes = Set(error.errors.map(\.code))
        #expect(codes == ["run-memory-limit"], "\(name) at \(limit): \(error)")
        #expect(!(limit == 64 << 10 && Self.inChunks.contains(name)), "\(name) refused at 64K")
      }
    }
  }
}
