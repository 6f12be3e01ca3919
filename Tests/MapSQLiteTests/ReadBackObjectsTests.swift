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
  /// Every object of `graph`, entity by entity in table order, as text: its number and version,
  /// then each property (objects as `entity:row`, a Transformable value as its flag byte and
  /// payload, strings by their characters, numbers by their bits).
  static func dump(_ graph: ObjectGraph) -> [String] {
    var lines: [String] = []
    for (e, table) in graph.tables.enumerated() {
      lines.append("\(table.layout.name): \(table.count) objects")
      for row in 0..<table.count {
        var line = "\(e):\(row) key \(table.objectKey(row)) version \(table.objectVersion(row))"
        for (p, property) in table.layout.properties.enumerated() {
          line += " \(property.name)=" + describe(table.value(row, p), graph)
        }
        lines.append(line)
      }
    }
    lines.append("high water \(graph.keyHighWater.sorted { $0.key < $1.key })")
    return lines
  }

  static func describe(_ v: Value, _ graph: ObjectGraph) -> String {
    switch v {
    case .null: return "nil"
    case .bool(let b): return "bool(\(b))"
    case .int(let i): return "int(\(i))"
    case .double(let d): return "double(\(d.bitPattern))"
    case .date(let d): return "date(\(d.bitPattern))"
    case .decimal(let t): return "decimal(\(t))"
    case .string(let t): return "string(\(Array(ObjectGraph.string(t, input: graph.input).unicodeScalars)))"
    case .data(let b): return "data(\(b))"
    case .transformable(let s):
      let bytes = graph.input!.unsafeBytes
      return "transformable(\(bytes[s.start - 1]), \(Array(bytes[s.start..<s.start + Int(s.count)])))"
    case .sourceObject(let r), .destinationObject(let r): return "\(r.entity):\(r.row)"
    case .array(let items): return "[" + items.map { describe($0, graph) }.joined(separator: ",") + "]"
    default: return "other(\(v))"
    }
  }

  /// A destination graph of `ReadBackTests.model` drawn from `seed`: values of every kind
  /// (edge cases among them), numbers kept from a store or not, versions or not, to-one and
  /// ordered to-many sides that agree or not, many-to-many sides that agree or not, members of
  /// a to-many without inverse, and, where `risky`, values `HandedRows` is not sure of.
  static func graph(seed: UInt64, risky: Bool) -> ObjectGraph {
    var random = SplitMix64(seed: seed)
    let model = ReadBackTests.model
    let layout = StoreLayout(model: model)
    let graph = ObjectGraph(layout: layout, input: nil, isSource: false)
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    func chance(_ n: UInt64) -> Bool { random.next() % n == 0 }
    let counts = [
      "Item": Int(random.next() % 6), "Task": Int(random.next() % 5), "Urgent": Int(random.next() % 4),
      "List": Int(random.next() % 4), "Tag": Int(random.next() % 4),
    ]
    var objects: [String: [ObjectRef]] = [:]
    for e in layout.entities {
      let table = graph.tables[e.index]
      let numbered = chance(2)
      let versioned = chance(2)
      for _ in 0..<(counts[e.name] ?? 0) {
        let ref = graph.appendObject(entity: e.index)
        objects[e.name, default: []].append(ref)
        // Numbers kept by an inferred step: unique, in any order, or repeated now and then.
        if numbered { table.setObjectKey(Int(ref.row), Int64(random.next() % (chance(9) ? 3 : 1000)) + 1) }
        if versioned { table.setObjectVersion(Int(ref.row), Int64(random.next() % 4)) }
      }
      if chance(3) { graph.keyHighWater[e.name] = Int64(random.next() % 2000) - 100 }
    }
    var kinds: [AttributeType: [Value]] = [
      .integer16: [.int(7), .int(-32768), .int(0), .double(12)],
      .integer32: [.int(-100_000), .int(2_147_483_647)],
      .integer64: [.int(1 << 40), .int(Int64.min + 1), .double(4.0)],
      .decimal: [.decimal("12"), .decimal("-3"), .decimal("0")],
      .double: [.double(2.5), .double(3), .double(-1e300), .int(5), .double(0x1p70)],
      .float: [.double(0.1), .double(1e-7)],
      .string: [.string(.native("héllo")), .string(.native("")), .string(.native("a\u{0}b")), .string(.native("12"))],
      .boolean: [.bool(true), .bool(false), .int(2)],
      .date: [.date(12), .date(12.5), .date(-978_307_200), .date(1e10)],
      .binary: [.data([1, 2, 3]), .data([0])],
      .uuid: [.string(.native("6b0e2a54-3c9e-4c55-9e36-0f1f2b1c5d11")), .string(.native("not a uuid"))],
      .uri: [.string(.native("https://example.com/x?y=1"))],
    ]
    if risky {
      kinds[.decimal]! += [.decimal("1.5"), .decimal("123456789012345678901234")]
      kinds[.binary]! += [.data([])]
      kinds[.string]! += [.int(3)]
      kinds[.double]! += [.double(.nan)]
    }
    let items = (objects["Item"] ?? []) + (objects["Task"] ?? []) + (objects["Urgent"] ?? [])
    let lists = objects["List"] ?? []
    let tags = objects["Tag"] ?? []
    for item in items {
      let properties = layout.entities[Int(item.entity)].properties
      for (p, property) in properties.enumerated() {
        guard let a = property.attribute, !chance(4) else { continue }
        switch a.name {
        case "payload":
          graph.set(
            item, property: p,
            pick([
              .data([4, 5, 6]), .array([.int(1), .string(.native("two")), .null]),
              .dictionary([("k", .double(1.5))]),
            ]))
        case "photo":
          if risky { graph.set(item, property: p, .data([9, 9])) }
        case "due": graph.set(item, property: p, pick(kinds[.date]!))
        case "level": graph.set(item, property: p, pick(kinds[.integer16]!))
        default: graph.set(item, property: p, pick(kinds[a.type]!))
        }
      }
      let table = layout.entities[Int(item.entity)]
      if !lists.isEmpty, chance(2) { graph.setToOne(item, property: table.propertyIndex("list")!, pick(lists)) }
      for tag in tags where chance(2) { graph.addToMany(item, property: table.propertyIndex("tags")!, tag) }
    }
    var pinned = Set<ObjectRef>()
    var queued = Set<ObjectRef>()
    for list in lists {
      let table = layout.entities[Int(list.entity)]
      // The ordered side: mostly the items whose list it is, in a drawn order.
      var members = items.filter { item in
        let p = layout.entities[Int(item.entity)].propertyIndex("list")!
        if case .destinationObject(let l) = graph.tables[Int(item.entity)].value(Int(item.row), p) { return l == list }
        return false
      }
      members.shuffle(using: &random)
      if chance(4), let extra = items.first { members.append(extra) }
      for m in members { graph.addToMany(list, property: table.propertyIndex("items")!, m) }
      for item in items where chance(3) && (risky || !pinned.contains(item)) {
        pinned.insert(item)
        graph.addToMany(list, property: table.propertyIndex("pinned")!, item)
      }
      for item in items.shuffled(using: &random) where chance(3) && (risky || !queued.contains(item)) {
        queued.insert(item)
        graph.addToMany(list, property: table.propertyIndex("queue")!, item)
      }
      for item in items.shuffled(using: &random) where chance(2) {
        graph.addToMany(list, property: table.propertyIndex("featured")!, item)
      }
    }
    // The other side of `featured`, drawn: it agrees with the lists that feature the item or not.
    for item in items {
      let p = layout.entities[Int(item.entity)].propertyIndex("featuredIn")!
      for list in lists.shuffled(using: &random) where chance(2) { graph.addToMany(item, property: p, list) }
    }
    for tag in tags where chance(3) {
      let table = layout.entities[Int(tag.entity)]
      for item in items where chance(3) { graph.addToMany(tag, property: table.propertyIndex("items")!, item) }
    }
    graph.finalize()
    return graph
  }

  /// The invariant on drawn graphs: handed on, or written and read, the same; and not handed on
  /// when the write fails.
  @Test(arguments: [false, true])
  func aGraphHandedOnIsWhatReadingItsStoreGives(risky: Bool) throws {
    let format = SQLiteStoreFormat().forIntermediateStores
    let metadata = ReadBackTests.metadata(ReadBackTests.model)
    var handedOn = 0
    var notSure = 0
    for seed in 1...150 as ClosedRange<UInt64> {
      let graph = Self.graph(seed: seed, risky: risky)
      let layout = StoreLayout(model: ReadBackTests.model)
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
      #expect(Self.dump(handed.0) == Self.dump(read.0), "seed \(seed)")
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
    let metadata = ReadBackTests.metadata(model)
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
    #expect(Self.dump(handed.0) == Self.dump(read.0))
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
    let metadata = ReadBackTests.metadata(model)
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
          #expect(Self.dump(handed.0) == Self.dump(read.0), "seed \(seed)")
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
    let model = ReadBackTests.model
    let layout = StoreLayout(model: model)
    let graph = ObjectGraph(layout: layout, input: nil, isSource: false)
    let item = graph.appendObject(entity: layout.entityIndex("Item")!)
    graph.set(item, property: layout.entities[Int(item.entity)].propertyIndex(property)!, value)
    graph.finalize()
    #expect(
      SQLiteStoreFormat().readBack(
        graph, source: nil, metadata: ReadBackTests.metadata(model), layout: layout, path: "s.sqlite") == nil)
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
