import Foundation
import MapRuntime
import MapTestSupport
import Testing

@testable import MapJSON

/// `JSONStoreFormat.readBack` (`HandedObjects`), the in-memory hand-off between the steps of a
/// fused chain over a JSON store, against its oracle: the store `write` writes, read back by
/// `read`. Wherever a graph is handed on, every object, id, number, value (by bits) and member
/// in order, and the metadata, must be what the round trip gives; a graph whose write or read
/// fails must not be handed on.
struct HandedObjectsTests {
  static let format = JSONStoreFormat().forIntermediateStores

  /// What reading the store written from `graph` gives: the oracle.
  static func writtenAndRead(
    _ graph: ObjectGraph, source: ObjectGraph? = nil, _ metadata: StoreWriteMetadata, layout: StoreLayout
  ) throws -> (ObjectGraph, StoreMetadata) {
    let folder = try TemporaryFolder()
    let path = folder.path + "/store.json"
    var options = StoreWriteOptions()
    options.durable = false
    try format.write(graph, source: source, metadata: metadata, to: path, backup: nil, options: options)
    return try format.read(path, layout: layout, options: StoreReadOptions())
  }

  /// Everything a step sees of the two: objects and values (`HandOffSamples.dump`, numbers read
  /// from the ids as a read takes them), ids, high water marks and metadata.
  static func expectSame(
    _ handed: (ObjectGraph, StoreMetadata), _ read: (ObjectGraph, StoreMetadata), _ comment: Comment
  ) {
    #expect(handed.0.isSource && read.0.isSource, comment)
    #expect((handed.0.pendingObjectKeys == nil) == (read.0.pendingObjectKeys == nil), comment)
    handed.0.resolveObjectKeys()
    read.0.resolveObjectKeys()
    // A JSON store keeps no flag byte before a value it keeps as text.
    #expect(HandOffSamples.dump(handed.0, flags: false) == HandOffSamples.dump(read.0, flags: false), comment)
    let ids = { (g: ObjectGraph) in
      g.tables.indices.flatMap { e in (0..<g.tables[e].count).map { g.idText(ObjectRef(entity: e, row: $0)) } }
    }
    #expect(ids(handed.0) == ids(read.0), comment)
    #expect(handed.1.format == read.1.format && handed.1.formatVersion == read.1.formatVersion, comment)
    #expect(handed.1.modelVersionIdentifiers == read.1.modelVersionIdentifiers, comment)
    #expect(
      handed.1.entityVersionHashes?.map { [$0.entity, $0.hash] }
        == read.1.entityVersionHashes?.map { [$0.entity, $0.hash] }, comment)
    #expect(handed.1.extra.map(\.key) == read.1.extra.map(\.key), comment)
    #expect(handed.1.extra.map(\.value) == read.1.extra.map(\.value), comment)
  }

  /// The invariant on drawn graphs: handed on, or written and read, the same; not handed on when
  /// the write or the read fails. Risky graphs hold NaN, which has no JSON form.
  @Test(arguments: [false, true])
  func aGraphHandedOnIsWhatReadingItsStoreGives(risky: Bool) throws {
    let metadata = HandOffSamples.metadata(HandOffSamples.model)
    var (handedOn, failed) = (0, 0)
    for seed in 1...150 as ClosedRange<UInt64> {
      let graph = HandOffSamples.graph(seed: seed, risky: risky, validUUIDs: !risky)
      let layout = StoreLayout(model: HandOffSamples.model)
      let handed = Self.format.readBack(graph, source: nil, metadata: metadata, layout: layout, path: "/nowhere/s.json")
      let read: (ObjectGraph, StoreMetadata)
      do {
        read = try Self.writtenAndRead(graph, metadata, layout: layout)
      } catch {
        failed += 1
        #expect(handed == nil, "seed \(seed): handed on, but the round trip fails: \(error)")
        continue
      }
      let h = try #require(handed, "seed \(seed): not handed on, though the round trip succeeds")
      handedOn += 1
      Self.expectSame(h, read, "seed \(seed)")
    }
    // Not vacuous: most safe graphs are handed on (the others have sides of a relationship
    // that disagree, which the reader refuses); risky ones mostly fail their write (NaN).
    if risky {
      #expect(failed > 100, "\(handedOn) handed on, \(failed) failed")
    } else {
      #expect(handedOn > 100 && failed > 0, "\(handedOn) handed on, \(failed) failed")
    }
  }

  /// Values whose JSON form reads back otherwise, or not at all, each alone in a graph: a
  /// Decimal's text in canonical form and a Transformable value as the JSON text the writer
  /// writes are handed on; a UUID that is not one, an integer out of its type's range, a value
  /// of another kind in a Decimal or Binary attribute, an object in a Transformable are not
  /// (written and read, they fail).
  @Test(arguments: [
    ("aDecimal", Value.decimal("0012.50"), true), ("aDecimal", .decimal("-0.0"), true),
    ("aDecimal", .decimal("1e3"), true), ("aUUID", .string(.native("6B0E2A54-3C9E-4C55-9E36-0F1F2B1C5D1")), false),
    ("aDecimal", .decimal("1x"), false), ("aDecimal", .int(3), false), ("aBinary", .string(.native("AQID")), false),
    ("aBinary", .data([]), true), ("payload", .array([.int(1), .string(.native("é\n"))]), true),
    ("payload", .data([1]), true), ("payload", .dictionary([("b", .null), ("a", .date(1.5))]), true),
    ("payload", .sourceObject(ObjectRef(entity: 0, row: 0)), false),
    ("aDouble", .double(-0.0), true), ("aDouble", .double(5e-324), true), ("aDouble", .double(.infinity), false),
    ("aDate", .date(-1e13), true), ("aDate", .date(0.000_000_1), true),
    ("aString", .string(.native("\u{7}\"\\")), true),
  ])
  func aValueAlone(_ property: String, _ value: Value, handsOn: Bool) throws {
    let model = HandOffSamples.model
    let graph = HandOffSamples.item(property, value)
    let layout = graph.layout
    let metadata = HandOffSamples.metadata(model)
    let handed = Self.format.readBack(graph, source: nil, metadata: metadata, layout: layout, path: "s.json")
    #expect((handed != nil) == handsOn)
    if let handed { Self.expectSame(handed, try Self.writtenAndRead(graph, metadata, layout: layout), "\(value)") }
  }

  /// An indented store writes a value kept as text with the indentation of where it stands, so
  /// only a compact one (every intermediate store) hands such a value on.
  @Test func aTransformableOfAnIndentedStore() throws {
    let graph = HandOffSamples.item("payload", .array([.int(1)]))
    let metadata = HandOffSamples.metadata(HandOffSamples.model)
    #expect(JSONStoreFormat().readBack(graph, source: nil, metadata: metadata, layout: graph.layout, path: "s") == nil)
    #expect(Self.format.readBack(graph, source: nil, metadata: metadata, layout: graph.layout, path: "s") != nil)
  }

  /// An integer out of its attribute's range: the reader refuses it, so it is not handed on.
  @Test func anIntegerOutOfRange() throws {
    let layout = StoreLayout(model: HandOffSamples.model)
    let graph = ObjectGraph(layout: layout, input: nil, isSource: false)
    let item = graph.appendObject(entity: layout.entityIndex("Item")!)
    (graph.tables[Int(item.entity)].columns[layout.entities[0].propertyIndex("aInteger16")!] as! IntColumn)
      .setInt(0, 40_000)
    graph.finalize()
    let metadata = HandOffSamples.metadata(HandOffSamples.model)
    #expect(Self.format.readBack(graph, source: nil, metadata: metadata, layout: layout, path: "s.json") == nil)
    #expect(throws: MigrationFailure.self) { try Self.writtenAndRead(graph, metadata, layout: layout) }
  }

  /// A graph read from a JSON store, its strings slices of the input, handed on as a step that
  /// changes nothing would: what its store reads back as, the input's strings and escapes kept.
  @Test func aGraphReadFromAStore() throws {
    let folder = try TemporaryFolder()
    let layout = StoreLayout(model: HandOffSamples.model)
    let metadata = HandOffSamples.metadata(HandOffSamples.model)
    var read = 0
    for seed in 1...40 as ClosedRange<UInt64> {
      let drawn = HandOffSamples.graph(seed: seed, risky: false, validUUIDs: true)
      let path = folder.path + "/drawn-\(seed).json"
      var options = StoreWriteOptions()
      options.durable = false
      try JSONStoreFormat().write(drawn, source: nil, metadata: metadata, to: path, backup: nil, options: options)
      // A drawn graph whose sides of a relationship disagree has no store to read.
      guard let source = try? Self.format.read(path, layout: layout, options: StoreReadOptions()).0 else { continue }
      read += 1
      let handed = try #require(
        Self.format.readBack(source, source: source, metadata: metadata, layout: layout, path: path))
      Self.expectSame(handed, try Self.writtenAndRead(source, source: source, metadata, layout: layout), "seed \(seed)")
    }
    #expect(read > 20)
  }

  /// Dates of every magnitude, with and without fractions, near 2001 above all: handed on as
  /// their text reads back.
  @Test func dates() throws {
    var random = SplitMix64(seed: 41)
    let layout = StoreLayout(model: HandOffSamples.model)
    let graph = ObjectGraph(layout: layout, input: nil, isSource: false)
    let p = layout.entities[0].propertyIndex("aDate")!
    var changed = 0
    for k in 0..<4000 {
      let scale = [1e-300, 1e-9, 1e-6, 0.5, 1, 1e3, 1e9, 1e11, 3e11, 1e15][k % 10]
      let v = (Double(random.next() % 2_000_001) / 1_000_000 - 1) * scale
      if let back = HandedObjects.dateReadBack(v), back != v { changed += 1 }
      graph.set(graph.appendObject(entity: 0), property: p, .date(v))
    }
    graph.finalize()
    let metadata = HandOffSamples.metadata(HandOffSamples.model)
    let handed = try #require(
      Self.format.readBack(graph, source: nil, metadata: metadata, layout: layout, path: "s.json"))
    Self.expectSame(handed, try Self.writtenAndRead(graph, metadata, layout: layout), "dates")
    #expect(changed > 0, "no date's text reads back as another double: the case is not tried")
  }

  /// Another model's layout is not handed on.
  @Test func anotherModelsLayout() throws {
    var entities = HandOffSamples.model.entities
    entities[4].attributes.append(AttributeDescription(name: "color", type: .string, isOptional: true))
    let other = ObjectModel(entities: entities, versionIdentifiers: ["v3"], versionName: "V3")
    let graph = HandOffSamples.graph(seed: 1, risky: false, transformables: false, validUUIDs: true)
    #expect(
      Self.format.readBack(
        graph, source: nil, metadata: HandOffSamples.metadata(HandOffSamples.model),
        layout: StoreLayout(model: other), path: "s.json") == nil)
  }
}
