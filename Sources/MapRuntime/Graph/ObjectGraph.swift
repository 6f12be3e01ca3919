import Dispatch

/// All objects of one store (the source store read from JSON, or the destination store being
/// built), table per entity, column per property.
public final class ObjectGraph: @unchecked Sendable {
  package let layout: StoreLayout
  package let tables: [EntityTable]
  /// The bytes that string slices refer to (source stores); nil for a store built in memory.
  /// After reading, these are the strings moved out of the input (see `StringCompaction`).
  @exclusivity(unchecked) package private(set) var input: InputBytes?
  /// How the Transformable payloads in `input` are encoded; nil for a store built in memory.
  package var transformableCodec: (any TransformableCodec.Type)?

  /// True for the store being migrated (objects are `.sourceObject`), false for the one built.
  package let isSource: Bool
  /// Entities whose objects the store reader read on two threads.
  package var splitEntities: [String] = []
  /// Per root entity, the highest object number the store ever gave (a Core Data store's
  /// `Z_MAX`, above its highest `Z_PK` when objects were deleted); see `ObjectKeys.swift`.
  package var keyHighWater: [String: Int64] = [:]
  /// A chunk of a run in chunks holding objects of its streamed entities only
  /// (`StoreChunkReader.next`); false for the part of the store read whole, and for a store.
  package var isStreamedChunk = false
  /// Reads the objects' numbers where the reader left them to be read on demand (a JSON store's
  /// ids, read only when a writer or an inferred step needs them: `resolveObjectKeys()`).
  package var pendingObjectKeys: (@Sendable (ObjectGraph) -> Void)?
  /// What the format that read the graph keeps beside its values for a writer of the same
  /// format (Core Data's SQLite store: which Binary values came from which external files).
  package var storeAttachment: (any Sendable)?
  /// A chunk's members of ordered relationships of objects outside it, by their index in the
  /// whole relationship: the chunk holds the member, not the members around it
  /// (`OrderedMember`, `Specs/limits.md` "Memory"). A writer takes a position from here before
  /// counting one; empty for a store read whole.
  package var orderedPositions: [OrderedMember: Int] = [:]

  package init(
    layout: StoreLayout, input: InputBytes?, isSource: Bool, transformableCodec: (any TransformableCodec.Type)? = nil
  ) {
    self.layout = layout
    self.input = input
    self.transformableCodec = transformableCodec
    self.isSource = isSource
    self.tables = layout.entities.map { EntityTable(layout: $0, isSource: isSource) }
  }

  /// What a writer reads of this source graph besides the destination's objects (`StoreFormat
  /// .write`'s `source`): its input bytes, their codec and what its format kept beside it, in a
  /// graph with no objects, so that a run can let go of the source's objects before it writes.
  package func withoutObjects() -> ObjectGraph {
    let kept = ObjectGraph(layout: layout, input: input, isSource: isSource, transformableCodec: transformableCodec)
    kept.storeAttachment = storeAttachment
    kept.splitEntities = splitEntities
    kept.keyHighWater = keyHighWater
    return kept
  }

  /// Points slices at other bytes; only before the graph is shared.
  package func replaceInput(_ bytes: InputBytes) { input = bytes }

  @inline(__always) package func table(_ ref: ObjectRef) -> EntityTable { tables[Int(ref.entity)] }

  package var objectCount: Int { tables.reduce(0) { $0 + $1.count } }

  /// Makes every column of every table full length (see `Column.pad(to:)`). Columns are
  /// padded on every core when there are many rows: each column is its own storage.
  package func finalize() {
    let columns = tables.flatMap { t in (t.columns + (t.ids.map { [$0] } ?? [])).map { (column: $0, rows: t.count) } }
    if Cores.workers > 1 && columns.reduce(0, { $0 + $1.rows }) >= 1 << 18 {
      DispatchQueue.concurrentPerform(iterations: columns.count) { columns[$0].column.pad(to: columns[$0].rows) }
    } else {
      for (column, rows) in columns { column.pad(to: rows) }
    }
  }

  /// Objects of an entity and of every entity inheriting from it, in store order.
  package func objects(ofKind entity: Int) -> [ObjectRef] {
    var result: [ObjectRef] = []
    for k in layout.entities[entity].kindIndexes {
      let t = tables[k]
      result.reserveCapacity(result.count + t.count)
      for row in 0..<t.count { result.append(ObjectRef(entity: k, row: row)) }
    }
    return result
  }
}

/// The objects of one entity.
package final class EntityTable: @unchecked Sendable {
  package let layout: EntityLayout
  @exclusivity(unchecked) package private(set) var count = 0
  package let columns: [Column]
  /// The attribute type of each column (nil for relationships), so hot paths need not copy
  /// property descriptions.
  package let attributeTypes: [AttributeType?]
  /// The `id` of each object as read from the input (source stores only).
  package let ids: TextColumn?
  /// The store's number of each object, where the store has them (`ObjectKeys.swift`).
  @exclusivity(unchecked) package var objectKeys: [Int64] = []
  /// Each object's version (`Z_OPT`) where the store had one (see `ObjectKeys.swift`).
  @exclusivity(unchecked) package var objectVersions: [Int64] = []
  /// Objects of this entity in the store before this table's first: a chunk of a run in
  /// chunks names its objects by their place in the whole store (`ObjectGraph.idText`).
  package var rowOffset = 0
  /// The first row that is a stub, if any: in a chunk of a run in chunks, the objects that the
  /// chunk's objects refer to but that belong to another part of the store are stand-ins with
  /// only their number (`Z_PK`) and the links to the chunk's objects (`Specs/limits.md`,
  /// "Memory"). Stubs come after every other object of the table; they are migrated so that
  /// references to them get their numbers, but they are not validated, counted or written.
  package var stubsFrom: Int?
  /// Whether the links of this table's stubs to the chunk's other objects are counted (the
  /// data-loss check): they are, for an entity read whole, whose objects there lack the members
  /// that chunks hold; not for a streamed one, whose own chunk holds its whole relationships.
  package var countsStubLinks = false
  /// The objects that are not stubs (all of them, in a store read whole).
  @inline(__always) package var realCount: Int { stubsFrom.map { min($0, count) } ?? count }

  package init(layout: EntityLayout, isSource: Bool) {
    self.layout = layout
    self.columns = layout.properties.map { EntityTable.makeColumn($0, isSource: isSource) }
    self.attributeTypes = layout.properties.map { $0.attribute?.type }
    self.ids = isSource ? TextColumn() : nil
  }

  package static func makeColumn(_ p: PropertyLayout, isSource: Bool) -> Column {
    switch p.kind {
    case .relationship(let r):
      return r.isToMany ? ToManyColumn(isSource: isSource) : ToOneColumn(isSource: isSource)
    case .attribute(let a):
      switch a.type {
      case .integer16, .integer32, .integer64: return IntColumn()
      case .double, .float: return DoubleColumn(isDate: false)
      case .date: return DoubleColumn(isDate: true)
      case .boolean: return BoolColumn()
      case .string, .uuid, .uri: return TextColumn()
      default: return ValueColumn()
      }
    }
  }

  /// Adds an object (every property at its column's fill value) and returns its row.
  @discardableResult
  @inline(__always) package func appendObject() -> Int {
    count += 1
    return count - 1
  }

  /// Adds `n` objects at once; returns the first one's row.
  package func appendObjects(_ n: Int) -> Int {
    count += n
    return count - n
  }

  /// Appends the objects of `other`, a table of the same entity.
  package func append(_ other: EntityTable) {
    for (c, column) in columns.enumerated() { column.append(other.columns[c], rows: other.count, at: count) }
    if let ids, let more = other.ids { ids.append(more, rows: other.count, at: count) }
    if !other.objectKeys.isEmpty {
      for row in 0..<other.count { setObjectKey(count + row, other.objectKey(row)) }
    }
    if !other.objectVersions.isEmpty {
      for row in 0..<other.count { setObjectVersion(count + row, other.objectVersion(row)) }
    }
    count += other.count
  }

  /// Takes back objects added last (see `ParallelCreation`); their columns are truncated by
  /// the caller.
  package func truncate(to n: Int) {
    count = min(count, n)
    if objectKeys.count > count { objectKeys.removeLast(objectKeys.count - count) }
    if objectVersions.count > count { objectVersions.removeLast(objectVersions.count - count) }
  }

  package func reserve(_ n: Int) {
    for c in columns { c.reserve(n) }
    ids?.reserve(n)
  }

  package func value(_ row: Int, _ property: Int) -> Value { columns[property].read(row) }
}

extension ObjectGraph {
  /// The id of an object as the input wrote it (source stores), else `Entity/n`.
  package func idText(_ ref: ObjectRef) -> String {
    let t = tables[Int(ref.entity)]
    return inputID(ref) ?? "\(t.layout.name)/\(Int(ref.row) + 1 + t.rowOffset)"
  }

  /// The id of an object as the input wrote it, or nil (an object a migration made).
  package func inputID(_ ref: ObjectRef) -> String? {
    guard let ids = tables[Int(ref.entity)].ids, case .string(let text) = ids.get(Int(ref.row)) else { return nil }
    switch text {
    case .native(let s): return s
    case .slice(let s): return input?.decodeString(s) ?? ""
    }
  }
}
