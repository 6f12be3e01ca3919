import Foundation
import MapRuntime
import MapTestSupport
import Testing

@testable import MapSQLite

/// `SQLiteStoreFormat.readBack`, the in-memory hand-off between the steps of a fused chain,
/// against its oracle: the store `write` writes, read back by `read`. Where it hands a graph on,
/// the graph and metadata must be those of the round trip through the file; a graph it cannot
/// be sure of (another model's layout, values of `ReadBackObjectsTests`) it does not hand on.
struct ReadBackTests {
  /// The destination graph of a step that made no objects, with the numbers it took over.
  static func emptyDestination(_ model: ObjectModel, highWater: [String: Int64] = [:]) -> ObjectGraph {
    let graph = ObjectGraph(layout: StoreLayout(model: model), input: nil, isSource: false)
    graph.keyHighWater = highWater
    return graph
  }

  /// What reading the store written from `graph` gives: the oracle.
  static func writtenAndRead(
    _ graph: ObjectGraph, _ metadata: StoreWriteMetadata, layout: StoreLayout
  ) throws -> (ObjectGraph, StoreMetadata) {
    let dir = try FileManagerTemp.folder("read-back")
    defer { FileManagerTemp.remove(dir.path) }
    let path = dir.appendingPathComponent("store.sqlite").path
    let format = SQLiteStoreFormat().forIntermediateStores
    var options = StoreWriteOptions()
    options.durable = false
    try format.write(graph, source: nil, metadata: metadata, to: path, backup: nil, options: options)
    return try format.read(path, layout: layout, options: StoreReadOptions())
  }

  /// Everything a step sees of a read store without objects.
  static func expectSame(_ a: (ObjectGraph, StoreMetadata), _ b: (ObjectGraph, StoreMetadata)) {
    #expect(a.0.layout === b.0.layout)
    #expect(a.0.objectCount == 0 && b.0.objectCount == 0)
    #expect(a.0.tables.map(\.count) == b.0.tables.map(\.count))
    #expect(a.0.isSource && b.0.isSource)
    #expect(a.0.keyHighWater == b.0.keyHighWater)
    #expect(a.0.splitEntities == b.0.splitEntities)
    #expect((a.0.storeAttachment == nil) == (b.0.storeAttachment == nil))
    #expect(a.0.pendingObjectKeys == nil && b.0.pendingObjectKeys == nil)
    #expect(a.0.input?.count == b.0.input?.count)
    #expect(a.0.transformableCodec.map { "\($0)" } == b.0.transformableCodec.map { "\($0)" })
    #expect(a.1.format == b.1.format && a.1.formatVersion == b.1.formatVersion)
    #expect(a.1.modelVersionIdentifiers == b.1.modelVersionIdentifiers)
    #expect(
      a.1.entityVersionHashes?.map { [$0.entity, $0.hash] } == b.1.entityVersionHashes?.map { [$0.entity, $0.hash] })
    #expect(a.1.extra.map(\.key) == b.1.extra.map(\.key))
    #expect(a.1.extra.map(\.value) == b.1.extra.map(\.value))
  }

  @Test func anEmptyGraphIsWhatReadingItsStoreGives() throws {
    let model = HandOffSamples.model
    let metadata = HandOffSamples.metadata(model)
    for highWater: [String: Int64] in [[:], ["Item": 42, "List": 3, "Tag": 0, "Task": 9, "Gone": 5], ["Tag": -4]] {
      let graph = Self.emptyDestination(model, highWater: highWater)
      let layout = StoreLayout(model: model)
      let handed = try #require(
        SQLiteStoreFormat().forIntermediateStores.readBack(
          graph, source: nil, metadata: metadata, layout: layout, path: "/nowhere/store.sqlite"))
      let read = try Self.writtenAndRead(graph, metadata, layout: layout)
      Self.expectSame(handed, read)
    }
  }

  @Test func aGraphWithAnObjectIsWhatReadingItsStoreGives() throws {
    let graph = Self.emptyDestination(HandOffSamples.model)
    _ = graph.appendObject(entity: 0)
    graph.finalize()
    let layout = StoreLayout(model: HandOffSamples.model)
    let handed = try #require(
      SQLiteStoreFormat().forIntermediateStores.readBack(
        graph, source: nil, metadata: HandOffSamples.metadata(HandOffSamples.model), layout: layout,
        path: "store.sqlite"))
    let read = try Self.writtenAndRead(graph, HandOffSamples.metadata(HandOffSamples.model), layout: layout)
    #expect(HandOffSamples.dump(handed.0) == HandOffSamples.dump(read.0))
    #expect(handed.0.objectCount == 1)
  }

  @Test func anotherModelsLayoutIsNotHandedOn() throws {
    var entities = HandOffSamples.model.entities
    entities[4].attributes.append(AttributeDescription(name: "color", type: .string, isOptional: true))
    let other = ObjectModel(entities: entities, versionIdentifiers: ["v3"], versionName: "V3")
    #expect(
      SQLiteStoreFormat().readBack(
        Self.emptyDestination(HandOffSamples.model), source: nil,
        metadata: HandOffSamples.metadata(HandOffSamples.model),
        layout: StoreLayout(model: other), path: "store.sqlite") == nil)
  }

  @Test func aFormatWithoutTheCapabilityHandsNothingOn() throws {
    struct Plain: StoreFormat {
      var name: String { "plain" }
      func recognizes(prefix: [UInt8]) -> Bool { false }
      func read(_ path: String, layout: StoreLayout, options: StoreReadOptions) throws(MigrationFailure)
        -> (ObjectGraph, StoreMetadata)
      { throw MigrationFailure([]) }
      func peekMetadata(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek { .found(hashes: nil) }
      func write(
        _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, to target: String?,
        backup: String?, options: StoreWriteOptions
      ) throws(MigrationFailure) {}
    }
    #expect(
      Plain().readBack(
        Self.emptyDestination(HandOffSamples.model), source: nil,
        metadata: HandOffSamples.metadata(HandOffSamples.model),
        layout: StoreLayout(model: HandOffSamples.model), path: "store") == nil)
  }

  /// Every real store's own model (`Z_MODELCACHE`): an empty graph of it handed on is what its
  /// written store reads back as.
  @Test(.needsShared, arguments: RealStoreFile.all)
  func everyRealStoresModel(_ store: RealStoreFile) throws {
    guard let model = try CoreDataModelCacheReader.read(storeAt: store.path)?.model else { return }
    let metadata = HandOffSamples.metadata(model)
    let graph = Self.emptyDestination(model, highWater: Dictionary(model.entities.map { ($0.name, 7) }) { a, _ in a })
    let layout = StoreLayout(model: model)
    guard
      let handed = SQLiteStoreFormat().forIntermediateStores.readBack(
        graph, source: nil, metadata: metadata, layout: layout, path: store.path)
    else {
      // Not handed on: then writing it must fail or the model be one the reader cannot map.
      print("\(store): not handed on in memory")
      return
    }
    Self.expectSame(handed, try Self.writtenAndRead(graph, metadata, layout: layout))
  }
}
