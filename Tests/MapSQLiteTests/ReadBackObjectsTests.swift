import Foundation
import MapArchives
import MapRuntime
import MapTestSupport
import Testing

@testable import MapSQLite

/// `SQLiteStoreFormat.readBack` of graphs with objects (`HandedRows`) against its oracle: the
/// store `write` writes, read back by `read` through SQLite itself. Wherever a graph is handed
/// on, every object, number, version, value and relationship (members in order) must be what
/// the round trip gives; a graph it is not sure of it must not hand on.
struct ReadBackObjectsTests {
  /// The invariant on drawn graphs: handed on, or written and read, the same; and not handed on
  /// when the write fails.
  @Test(arguments: [false, true])
  func aGraphHandedOnIsWhatReadingItsStoreGives(risky: Bool) throws {
    let format = SQLiteStoreFormat().forIntermediateStores
    let metadata = HandOffSamples.metadata(HandOffSamples.model)
    var handedOn = 0
    var notSure = 0
    for seed in 1...150 as ClosedRange<UInt64> {
      let graph = HandOffSamples.graph(seed: seed, risky: risky)
      let layout = StoreLayout(model: HandOffSamples.model)
      let handed = format.readBack(graph, source: nil, metadata: metadata, layout: layout, path: "/nowhere/s.sqlite")
      let read: (ObjectGraph, StoreMetadata)
      do {
        read = try ReadBackTests.writtenAndRead(graph, metadata, layout: layout)
      } catch {
        #expect(handed == nil, "seed \(seed): handed on, but the write fails: \(error)")
        continue
      }
      guard let handed else {
        notSure += 1
        continue
      }
      handedOn += 1
      #expect(HandOffSamples.dump(handed.0) == HandOffSamples.dump(read.0), "seed \(seed)")
      #expect(handed.1.extra.map(\.key) == read.1.extra.map(\.key))
      #expect(handed.1.modelVersionIdentifiers == read.1.modelVersionIdentifiers)
    }
    // Not vacuous: most safe graphs are handed on; a risky value makes it write and read.
    if risky {
      #expect(notSure > 20, "\(notSure) graphs not handed on")
    } else {
      #expect(handedOn > 100, "\(handedOn) graphs handed on, \(notSure) not")
    }
  }

  /// Every real store of `../shared` with its own model (`Z_MODELCACHE`), read and then handed
  /// on as it is (the graph `store convert` writes to SQLite): where handed on, what its
  /// written store reads back as, to the last value and member.
  @Test(.needsShared, arguments: RealStoreFile.all)
  func everyRealStore(_ store: RealStoreFile) throws {
    guard let model = try CoreDataModelCacheReader.read(storeAt: store.path)?.model else { return }
    let layout = StoreLayout(model: model)
    let format = SQLiteStoreFormat().forIntermediateStores
    let graph: ObjectGraph
    do {
      graph = try format.read(store.path, layout: layout, options: StoreReadOptions()).0
    } catch {
      print("\(store): not readable with its own model: \(error)")
      return
    }
    let metadata = HandOffSamples.metadata(model)
    let handed = format.readBack(graph, source: nil, metadata: metadata, layout: layout, path: store.path)
    let read: (ObjectGraph, StoreMetadata)
    do {
      read = try ReadBackTests.writtenAndRead(graph, metadata, layout: layout)
    } catch {
      #expect(handed == nil, "handed on, but the write fails: \(error)")
      return
    }
    guard let handed else {
      print("\(store): \(graph.objectCount) objects, not handed on in memory")
      return
    }
    #expect(HandOffSamples.dump(handed.0) == HandOffSamples.dump(read.0))
  }

  /// A uniqueness constraint is a unique index: a graph with two rows the index takes for one
  /// is not handed on (its write fails), one without is handed on as its store reads back. The
  /// constraint is on a sub-entity, over a column its parent declares, so the index covers the
  /// parent's rows too.
  @Test func uniquenessConstraints() throws {
    let model = ObjectModel(
      entities: [
        EntityDescription(
          name: "Code",
          attributes: [
            AttributeDescription(name: "code", type: .string, isOptional: true),
            AttributeDescription(name: "n", type: .double, isOptional: true),
          ]),
        EntityDescription(name: "Special", parentName: "Code", uniquenessConstraints: [["code", "n"]]),
      ], versionIdentifiers: ["u"], versionName: "U")
    let layout = StoreLayout(model: model)
    let metadata = HandOffSamples.metadata(model)
    let format = SQLiteStoreFormat().forIntermediateStores
    var (handedOn, refused) = (0, 0)
    for seed in 1...80 as ClosedRange<UInt64> {
      var random = SplitMix64(seed: seed)
      let graph = ObjectGraph(layout: layout, input: nil, isSource: false)
      for _ in 0..<Int(random.next() % 7) {
        let e = Int(random.next() % 2)
        let object = graph.appendObject(entity: e)
        let codes: [Value] = [.null, .string(.native("a")), .string(.native("b"))]
        let numbers: [Value] = [.null, .double(1), .int(1), .double(2.5)]
        graph.set(object, property: 0, codes[Int(random.next() % 3)])
        graph.set(object, property: 1, numbers[Int(random.next() % 4)])
      }
      graph.finalize()
      let handed = format.readBack(graph, source: nil, metadata: metadata, layout: layout, path: "/nowhere/u.sqlite")
      do {
        let read = try ReadBackTests.writtenAndRead(graph, metadata, layout: layout)
        if let handed {
          handedOn += 1
          #expect(HandOffSamples.dump(handed.0) == HandOffSamples.dump(read.0), "seed \(seed)")
        }
      } catch {
        refused += 1
        #expect(handed == nil, "seed \(seed): handed on, but the write fails: \(error)")
      }
    }
    #expect(handedOn > 20 && refused > 3, "\(handedOn) handed on, \(refused) refused by SQLite")
  }

  /// Values it is not sure of: each alone in an otherwise safe graph is not handed on.
  @Test(arguments: [
    ("aDecimal", Value.decimal("1.5")), ("aBinary", .data([])), ("aDouble", .double(.nan)),
    ("photo", .data([1])),
  ])
  func valuesItIsNotSureOfAreWrittenAndRead(_ property: String, _ value: Value) throws {
    let graph = HandOffSamples.item(property, value)
    #expect(
      SQLiteStoreFormat().readBack(
        graph, source: nil, metadata: HandOffSamples.metadata(HandOffSamples.model), layout: graph.layout,
        path: "s.sqlite") == nil)
  }

  /// SQLite's affinities as documented (https://sqlite.org/datatype3.html §3.1): the declared
  /// types of Core Data's columns, and what a column keeps of each kind of value.
  @Test func affinities() {
    let declared: [(String, ColumnAffinity)] = [
      ("INTEGER", .integer), ("VARCHAR", .text), ("BLOB", .blob), ("FLOAT", .real), ("TIMESTAMP", .numeric),
      ("DECIMAL", .numeric), ("", .blob),
    ]
    for (type, affinity) in declared { #expect(ColumnAffinity(declared: type) == affinity, "\(type)") }
    #expect(ColumnAffinity.numeric.stored(.real(12)) == .integer(12))
    #expect(ColumnAffinity.numeric.stored(.real(12.5)) == .real(12.5))
    #expect(ColumnAffinity.real.stored(.integer(3)) == .real(3))
    #expect(ColumnAffinity.integer.stored(.text("-42")) == .integer(-42))
    #expect(ColumnAffinity.integer.stored(.text(" 42")) == nil)
    #expect(ColumnAffinity.text.stored(.integer(1)) == nil)
    #expect(ColumnAffinity.blob.stored(.text("x")) == .text("x"))
    #expect(ColumnAffinity.real.stored(.real(.infinity)) == nil)
    #expect(ColumnAffinity.integer.stored(.real(0x1p63)) == nil)
  }
}
