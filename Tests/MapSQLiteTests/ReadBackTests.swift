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
  /// Inheritance three deep, an ordered to-many with its inverse, to-many relationships without
  /// inverse (hidden keys, one ordered), many-to-many ones (each with one ordered side, one on each side of its join table), a Transformable, a Binary kept in external files, and an
  /// attribute of each other kind.
  static let model: ObjectModel = {
    let kinds: [AttributeType] = [
      .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid, .uri,
    ]
    let item = EntityDescription(
      name: "Item",
      attributes: kinds.map {
        AttributeDescription(name: "a" + $0.rawValue.filter { $0.isLetter || $0.isNumber }, type: $0, isOptional: true)
      }
        + [
          AttributeDescription(name: "payload", type: .transformable, isOptional: true),
          AttributeDescription(name: "photo", type: .binary, isOptional: true, allowsExternalBinaryDataStorage: true),
        ],
      relationships: [
        RelationshipDescription(
          name: "list", destinationEntity: "List", inverseName: "items", inverseEntity: "List", isOptional: true),
        RelationshipDescription(
          name: "tags", destinationEntity: "Tag", inverseName: "items", inverseEntity: "Tag", isOptional: true,
          isToMany: true, isOrdered: true, maxCount: 0),
        RelationshipDescription(
          name: "featuredIn", destinationEntity: "List", inverseName: "featured", inverseEntity: "List",
          isOptional: true, isToMany: true, maxCount: 0),
      ])
    let task = EntityDescription(
      name: "Task", parentName: "Item", attributes: [AttributeDescription(name: "due", type: .date, isOptional: true)])
    let urgent = EntityDescription(
      name: "Urgent", parentName: "Task",
      attributes: [AttributeDescription(name: "level", type: .integer16, isOptional: true)])
    let list = EntityDescription(
      name: "List",
      relationships: [
        RelationshipDescription(
          name: "items", destinationEntity: "Item", inverseName: "list", inverseEntity: "Item", isOptional: true,
          isToMany: true, isOrdered: true, maxCount: 0),
        RelationshipDescription(
          name: "pinned", destinationEntity: "Item", isOptional: true, isToMany: true, maxCount: 0),
        RelationshipDescription(
          name: "queue", destinationEntity: "Item", isOptional: true, isToMany: true, isOrdered: true, maxCount: 0),
        RelationshipDescription(
          name: "featured", destinationEntity: "Item", inverseName: "featuredIn", inverseEntity: "Item",
          isOptional: true, isToMany: true, isOrdered: true, maxCount: 0),
      ])
    let tag = EntityDescription(
      name: "Tag",
      relationships: [
        RelationshipDescription(
          name: "items", destinationEntity: "Item", inverseName: "tags", inverseEntity: "Item", isOptional: true,
          isToMany: true, maxCount: 0)
      ])
    return ObjectModel(entities: [item, task, urgent, list, tag], versionIdentifiers: ["v2"], versionName: "V2")
  }()

  static func metadata(_ model: ObjectModel, uuid: String = "6B0E2A54-3C9E-4C55-9E36-0F1F2B1C5D11")
    -> StoreWriteMetadata
  {
    let hashes = model.entities.enumerated().map { i, e in
      EntityHash(entity: e.name, hash: (0..<32).map { UInt8(truncatingIfNeeded: $0 * 7 + i) })
    }
    return StoreWriteMetadata(
      modelVersionIdentifiers: model.versionIdentifiers, entityHashes: hashes,
      extra: [
        ("NSStoreUUID", .string(uuid)), ("NSPersistenceFrameworkVersion", .int(1344)),
        ("appKey", .string("é\u{1F600}")),
        ("appNumber", .real(1.5)), ("appFlag", .bool(true)), ("appDate", .date(7.25)), ("appData", .data([0, 1, 255])),
        ("appList", .array([.int(1), .string("two")])),
        ("appObject", .object([.init("b", .int(2)), .init("a", .null)])),
        ("appNull", .null),
      ],
      generated: [
        (
          StoreMetadataPeek.migrationsKey,
          .array([
            .object([
              .init("from", .string("V1")), .init("to", .string("V2")),
              .init("mapping", .string("inferred")),
            ])
          ])
        )
      ])
  }

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
    let model = Self.model
    let metadata = Self.metadata(model)
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
    let graph = Self.emptyDestination(Self.model)
    _ = graph.appendObject(entity: 0)
    graph.finalize()
    let layout = StoreLayout(model: Self.model)
    let handed = try #require(
      SQLiteStoreFormat().forIntermediateStores.readBack(
        graph, source: nil, metadata: Self.metadata(Self.model), layout: layout, path: "store.sqlite"))
    let read = try Self.writtenAndRead(graph, Self.metadata(Self.model), layout: layout)
    #expect(ReadBackObjectsTests.dump(handed.0) == ReadBackObjectsTests.dump(read.0))
    #expect(handed.0.objectCount == 1)
  }

  @Test func anotherModelsLayoutIsNotHandedOn() throws {
    var entities = Self.model.entities
    entities[4].attributes.append(AttributeDescription(name: "color", type: .string, isOptional: true))
    let other = ObjectModel(entities: entities, versionIdentifiers: ["v3"], versionName: "V3")
    #expect(
      SQLiteStoreFormat().readBack(
        Self.emptyDestination(Self.model), source: nil, metadata: Self.metadata(Self.model),
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
        Self.emptyDestination(Self.model), source: nil, metadata: Self.metadata(Self.model),
        layout: StoreLayout(model: Self.model), path: "store") == nil)
  }

  /// Every real store's own model (`Z_MODELCACHE`): an empty graph of it handed on is what its
  /// written store reads back as.
  @Test(.needsShared, arguments: RealStoreFile.all)
  func everyRealStoresModel(_ store: RealStoreFile) throws {
    guard let model = try CoreDataModelCacheReader.read(storeAt: store.path)?.model else { return }
    let metadata = Self.metadata(model)
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
