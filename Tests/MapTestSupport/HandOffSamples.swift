import Foundation
import MapRuntime

/// Graphs to hand on between the steps of a fused chain (`StoreFormat.readBack`) and what tells
/// two of them apart, shared by the tests of each format's hand-off: their oracle is the store
/// the format writes, read back by the format's own reader.
package enum HandOffSamples {
  /// Inheritance three deep, an ordered to-many with its inverse, to-many relationships without
  /// inverse (hidden keys, one ordered), many-to-many ones (each with one ordered side, one on each side of its join table), a Transformable, a Binary kept in external files, and an
  /// attribute of each other kind.
  package static let model: ObjectModel = {
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

  package static func metadata(_ model: ObjectModel, uuid: String = "6B0E2A54-3C9E-4C55-9E36-0F1F2B1C5D11")
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

  /// Every object of `graph`, entity by entity in table order, as text: its number and version,
  /// then each property (objects as `entity:row`, a Transformable value as its payload, after
  /// its flag byte where `flags`, strings by their characters, numbers by their bits).
  package static func dump(_ graph: ObjectGraph, flags: Bool = true) -> [String] {
    var lines: [String] = []
    for (e, table) in graph.tables.enumerated() {
      lines.append("\(table.layout.name): \(table.count) objects")
      for row in 0..<table.count {
        var line = "\(e):\(row) key \(table.objectKey(row)) version \(table.objectVersion(row))"
        for (p, property) in table.layout.properties.enumerated() {
          line += " \(property.name)=" + describe(table.value(row, p), graph, flags: flags)
        }
        lines.append(line)
      }
    }
    lines.append("high water \(graph.keyHighWater.sorted { $0.key < $1.key })")
    return lines
  }

  package static func describe(_ v: Value, _ graph: ObjectGraph, flags: Bool = true) -> String {
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
      // The byte before a payload is its flag where the format keeps one (Core Data SQLite).
      let bytes = graph.input!.unsafeBytes
      let flag = flags && s.start > 0 ? "\(bytes[s.start - 1]), " : ""
      return "transformable(\(flag)\(Array(bytes[s.start..<s.start + Int(s.count)])))"
    case .sourceObject(let r), .destinationObject(let r): return "\(r.entity):\(r.row)"
    case .array(let items): return "[" + items.map { describe($0, graph, flags: flags) }.joined(separator: ",") + "]"
    default: return "other(\(v))"
    }
  }

  /// A destination graph of `model` drawn from `seed`: values of every kind (edge cases among
  /// them), numbers kept from a store or not, versions or not, to-one and ordered to-many sides
  /// that agree or not, many-to-many sides that agree or not, members of a to-many without
  /// inverse, and, where `risky`, values Core Data SQLite's hand-off (`HandedRows`) is not sure
  /// of. Without `transformables` the Transformable is always nil; with `validUUIDs` no UUID
  /// attribute holds a text that is not one (which a JSON store refuses).
  package static func graph(
    seed: UInt64, risky: Bool, transformables: Bool = true, validUUIDs: Bool = false
  ) -> ObjectGraph {
    var random = SplitMix64(seed: seed)
    let model = Self.model
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
      .uuid: [.string(.native("6b0e2a54-3c9e-4c55-9e36-0f1f2b1c5d11"))]
        + (validUUIDs ? [] : [.string(.native("not a uuid"))]),
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
          guard transformables else { continue }
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

  /// A destination graph of `model` with one `Item` whose `property` holds `value`.
  package static func item(_ property: String, _ value: Value) -> ObjectGraph {
    let layout = StoreLayout(model: model)
    let graph = ObjectGraph(layout: layout, input: nil, isSource: false)
    let item = graph.appendObject(entity: layout.entityIndex("Item")!)
    graph.set(item, property: layout.entities[Int(item.entity)].propertyIndex(property)!, value)
    graph.finalize()
    return graph
  }
}
