import Foundation
import MapRuntime
import MapTestSupport
import Testing

@testable import MapSQLite

/// MapSQLite read as a library, without the command line: every real store's metadata hashes,
/// and, where the store carries its model (`Z_MODELCACHE`), every object of every entity read
/// with that model, compared with what python3's sqlite3 and plistlib read from the same file.
@Suite(.needsShared)
struct RealStoreReadingTests {
  @Test func thereAreRealStores() {
    #expect(RealStoreFile.all.count >= 20, "\(RealStoreFile.all.count) stores found")
  }

  @Test(arguments: RealStoreFile.all)
  func metadataHashesAreTheStoresOwn(_ store: RealStoreFile) throws {
    let facts = try store.facts()
    #expect(try SQLiteStoreFormat().peekMetadata(store.path).entityVersionHashes == facts.hashes)
  }

  @Test(arguments: RealStoreFile.all)
  func everyObjectIsReadWithTheCachedModel(_ store: RealStoreFile) throws {
    let facts = try store.facts()
    let cached = try CoreDataModelCacheReader.read(storeAt: store.path)
    #expect((cached != nil) == facts.cache)
    guard let model = cached?.model else { return }
    let (graph, metadata) = try SQLiteStoreFormat().read(
      store.path, layout: StoreLayout(model: model), options: StoreReadOptions())
    var rows: [String: Int] = [:]
    for table in graph.tables { rows[table.layout.name] = table.count }
    #expect(rows == facts.rows, "\(store)")
    let hashes = try #require(metadata.entityVersionHashes)
    #expect(Dictionary(uniqueKeysWithValues: hashes.map { ($0.entity, $0.hash) }) == facts.hashes)
  }

  /// The object count the memory estimate goes by (`objectCountBound`) is the rows python3's
  /// sqlite3 counts per entity, added up.
  @Test(arguments: RealStoreFile.all)
  func theObjectCountIsPythonsRows(_ store: RealStoreFile) throws {
    let facts = try store.facts()
    // (Rows only a `-wal` holds are not counted: python3 reads them, the bound does not.)
    guard !FileManager.default.fileExists(atPath: store.path + "-wal") else { return }
    #expect(SQLiteStoreFormat().objectCountBound(store.path, cap: .max) == facts.rows.values.reduce(0, +), "\(store)")
  }
}
