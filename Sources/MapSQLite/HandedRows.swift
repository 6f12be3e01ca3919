import MapArchives
import MapRuntime

/// What `SQLiteStoreFormat.read` gives from the store `CoreDataWriter` writes from a graph, made
/// without the file (`SQLiteStoreFormat.readBack`, the in-memory hand-off of a fused chain).
///
/// The writer's own parts say what each row holds: its `Z_PK` and `Z_OPT`, and each column's
/// value as the writer binds it (`RowSource.render`, `slowValue`), positions and hidden owners
/// (`slots`) and join rows (`positionsByOwner`). What SQLite keeps of a bound value is its
/// column's affinity (`ColumnAffinity`). The reader's own parts read it back: the rows of a
/// hierarchy in `Z_PK` order, values through `CoreDataValues.decode` and `TransformableBlobs`,
/// objects found by key, to-many members added as `CoreDataReader.addLinks` adds them. Wherever
/// the two sides meet something this does not follow exactly (a value SQLite might convert in
/// a way not modelled here, an empty BLOB, a Binary kept in external files, a Composite value,
/// a reflexive many-to-many, rows a unique index would refuse, anything else the writer or the
/// reader would refuse), it gives up (`NotSure`) and the caller writes the store and reads it
/// back.
struct HandedRows {
  struct NotSure: Error {}

  /// A join row's two keys.
  private struct KeyPair: Hashable {
    var owner: Int64
    var member: Int64
  }

  let layout: StoreLayout
  let schema: CoreDataSchema
  var writer: CoreDataWriter
  let result: ObjectGraph
  var blobs = TransformableBlobs()
  /// Per writer entity and row, the object of `result` its row is read as.
  var refs: [[ObjectRef]] = []
  /// Per hierarchy root (schema index; empty for other entities): `Z_PK` → object of
  /// `result`, as the reader keeps them.
  var objects: [[Int64: ObjectRef]] = []
  var links: [CoreDataReader.Link] = []
  /// Told the rows read so far and the objects in all, after each run of rows.
  var progress: (@Sendable (Int, Int) -> Void)?
  private var rowsRead = 0

  init(writer: CoreDataWriter, layout: StoreLayout) {
    self.writer = writer
    self.layout = layout
    self.schema = writer.schema
    self.result = ObjectGraph(layout: layout, input: nil, isSource: true)
  }

  /// The graph a read would give, with the payloads of its Transformable values; nil when not
  /// sure (see above).
  mutating func make(path: String) -> ObjectGraph? {
    let graph = writer.graph
    guard graph.orderedPositions.isEmpty, !graph.isStreamedChunk, graph.tables.allSatisfy({ $0.stubsFrom == nil })
    else { return nil }
    do throws(NotSure) {
      makeObjects()
      for table in schema.tables() { try readTable(table) }
      try readJoinRows()
    } catch {
      return nil
    }
    // The write would fail: written and read, it says why.
    guard writer.errors.isEmpty else { return nil }
    CoreDataReader.add(&links, to: result)
    // Z_MAX of each root as the writer gives it, kept by the reader where it is above 0.
    for root in schema.roots {
      if let high = writer.maxKey[root], high > 0 { result.keyHighWater[schema.entities[root].name] = high }
    }
    result.finishBuilding(input: blobs.bytes.take(path: path), transformableCodec: ArchivedBlobCodec.self)
    return result
  }

  /// Every object of `result`, hierarchy by hierarchy in `Z_PK` order (the reader's `ORDER BY
  /// Z_PK`), with its key and its `Z_OPT` (the graph's version, at least 1, where its entity's
  /// objects carry versions, else 1).
  private mutating func makeObjects() {
    let graph = writer.graph
    refs = graph.tables.map { [ObjectRef](repeating: ObjectRef(entity: 0, row: 0), count: $0.count) }
    objects = Array(repeating: [:], count: schema.entities.count)
    for root in schema.roots {
      var rows: [(key: Int64, entity: Int, row: Int)] = []
      for e in schema.hierarchy(root) {
        for row in 0..<graph.tables[e.index].count {
          rows.append((writer.key(ObjectRef(entity: e.index, row: row)), e.index, row))
        }
      }
      rows.sort { $0.key < $1.key }
      var byKey: [Int64: ObjectRef] = [:]
      byKey.reserveCapacity(rows.count)
      for r in rows {
        let object = result.appendObject(entity: r.entity)
        refs[r.entity][r.row] = object
        byKey[r.key] = object
        let values = graph.tables[r.entity]
        let table = result.tables[r.entity]
        table.setObjectKey(Int(object.row), r.key)
        table.setObjectVersion(Int(object.row), values.objectVersions.isEmpty ? 1 : max(1, values.objectVersion(r.row)))
      }
      objects[root] = byKey
    }
  }

  /// What the reader takes from a row of one entity (`CoreDataReader.readHierarchy`'s plan),
  /// worked out once per entity so that a row copies no description: per attribute its
  /// property, column, whether it is an archive (1), a custom transformer's bytes (2) or neither
  /// (0), and whether it is a Binary kept in external files; per to-one its property, column,
  /// order column, the root its keys are of, and per entity a target may be of, whether it fits
  /// and the index of the inverse to-many there (-1: none).
  private struct Plan {
    var properties: [Int] = []
    var columns: [Int] = []
    var archives: [UInt8] = []
    var external: [Bool] = []
    var types: [AttributeType] = []
    var composites: [[Int]] = []
    var toOnes: [ToOne] = []
    var hidden: [Hidden] = []

    struct ToOne {
      var property: Int
      var column: Int
      var order: Int?
      var root: Int
      var fits: [Bool]
      var inverse: [Int]
    }

    /// A hidden key in this entity's rows: the members' owner's root, and per entity an owner
    /// may be of, the index of the relationship there (-1: none, or this entity's objects do
    /// not fit it).
    struct Hidden {
      var column: Int
      var order: Int?
      var root: Int
      var property: [Int]
    }
  }

  private func plan(
    _ e: CoreDataSchema.Entity, columns: [String: Int],
    hidden: [(column: Int, order: Int?, owner: String, relationship: String, destination: String)]
  ) throws(NotSure) -> Plan {
    var plan = Plan()
    let entities = layout.entities
    for (p, property) in entities[e.index].properties.enumerated() {
      if let a = property.attribute, a.type == .composite {
        guard let leaves = schema.elementColumns(a.name, of: e.name) else { throw NotSure() }
        var found: [Int] = []
        for leaf in leaves {
          guard let c = columns[leaf.column] else { throw NotSure() }
          found.append(c)
        }
        plan.composites.append(found)
      } else if let a = property.attribute {
        guard let name = schema.column(a.name, of: e.name), let c = columns[name] else { throw NotSure() }
        plan.properties.append(p)
        plan.columns.append(c)
        plan.archives.append(a.type != .transformable ? 0 : CoreDataValues.isArchive(a) ? 1 : 2)
        plan.external.append(a.type == .binary && a.allowsExternalBinaryDataStorage)
        plan.types.append(a.type)
      } else if let r = property.relationship, !r.isToMany {
        guard let name = schema.column(r.name, of: e.name), let c = columns[name],
          let root = schema.entity(named: r.destinationEntity)?.root
        else { throw NotSure() }
        var order: Int? = nil
        if let inverse = layout.model.inverse(of: r), inverse.isToMany, inverse.isOrdered {
          guard let o = columns[CoreDataSchema.orderColumn(ofKey: name)] else { throw NotSure() }
          order = o
        }
        let fits = entities.indices.map { k in
          CoreDataReader.fits(ObjectRef(entity: k, row: 0), property, in: layout)
        }
        let inverse = entities.map { target -> Int in
          guard let inv = r.inverseName, let q = target.propertyIndex(inv),
            target.properties[q].relationship?.isToMany == true
          else { return -1 }
          return q
        }
        plan.toOnes.append(.init(property: p, column: c, order: order, root: root, fits: fits, inverse: inverse))
      }
    }
    for h in hidden where layout.model.isKind(e.name, of: h.destination) {
      guard let root = schema.entity(named: h.owner)?.root else { throw NotSure() }
      let property = entities.map { owner -> Int in
        guard let q = owner.propertyIndex(h.relationship),
          CoreDataReader.fits(ObjectRef(entity: e.index, row: 0), owner.properties[q], in: layout)
        else { return -1 }
        return q
      }
      plan.hidden.append(.init(column: h.column, order: h.order, root: root, property: property))
    }
    return plan
  }

  /// The rows of one table as the writer binds them, read as the reader reads them.
  private mutating func readTable(_ table: CoreDataSchema.Table) throws(NotSure) {
    let graph = writer.graph
    guard schema.hierarchy(table.root).contains(where: { graph.tables[$0.index].count > 0 }) else { return }
    let slots = writer.slots(of: table)
    var columns: [String: Int] = [:]
    for (c, column) in table.columns.enumerated() { columns[column.name] = c }
    let affinities = table.columns.map { ColumnAffinity(declared: $0.type) }
    // The table's unique indexes (uniqueness constraints), whose columns must hold no two
    // equal rows, or the write fails; and the rows seen in each.
    var uniques: [[Int]] = []
    for u in schema.uniqueIndexes(of: table, frameworkVersion: writer.metadata.frameworkVersion) {
      let found = u.columns.compactMap { columns[$0] }
      guard found.count == u.columns.count else { throw NotSure() }
      uniques.append(found)
    }
    var seen = [Set<String>](repeating: [], count: uniques.count)
    // The hidden keys of to-many relationships without an inverse, with their order columns.
    var hiddenColumns: [(column: Int, order: Int?, owner: String, relationship: String, destination: String)] = []
    for (c, column) in table.columns.enumerated() {
      guard case .hiddenKey(let owner, let r) = column.role else { continue }
      let order = table.columns.indices.first { k in
        if case .hiddenOrder(let o, let s) = table.columns[k].role { return o == owner && s.name == r.name }
        return false
      }
      if r.isOrdered && order == nil { throw NotSure() }
      hiddenColumns.append((c, order, owner, r.name, r.destinationEntity))
    }
    let entityNumbers = graph.layout.entities.map { Int64(schema.number($0.name)) }
    for e in schema.hierarchy(table.root) {
      let values = graph.tables[e.index]
      guard values.count > 0 else { continue }
      let plan = try plan(e, columns: columns, hidden: hiddenColumns)
      let cells = writer.cells(of: table, for: e, entity: graph.layout.entities[e.index])
      let source = CoreDataWriter.RowSource(
        table: values, cells: cells, slots: slots, keys: writer.keys, entityNumbers: entityNumbers, entity: e.index,
        input: writer.input)
      let name = graph.layout.entities[e.index].name
      let keys = writer.keys[e.index]
      let objects = refs[e.index]
      var bound = [SQLiteValue](repeating: .null, count: cells.count)
      for start in stride(from: 0, to: values.count, by: CoreDataWriter.RowSource.chunkRows) {
        let chunk = source.render(start..<min(start + CoreDataWriter.RowSource.chunkRows, values.count))
        var i = 0
        for row in chunk.rows {
          for c in cells.indices {
            switch chunk.kinds[i] {
            case .null: bound[c] = .null
            case .integer: bound[c] = .integer(chunk.payloads[i])
            case .real: bound[c] = .real(Double(bitPattern: UInt64(bitPattern: chunk.payloads[i])))
            case .text:
              guard let s = UTF8Validation.string(chunk.texts[Int(chunk.payloads[i])]) else { throw NotSure() }
              bound[c] = .text(s)
            case .string: bound[c] = .text(chunk.strings[Int(chunk.payloads[i])])
            case .slow: bound[c] = writer.slowValue(cells[c], values, row, slots, object: "\(name)/\(row + 1)")
            }
            i += 1
          }
          try readRow(objects[row], key: keys[row], bound, plan, affinities)
          for (u, index) in uniques.enumerated() {
            guard let key = try Self.uniqueKey(index.map { bound[$0] }, index.map { affinities[$0] }) else { continue }
            guard seen[u].insert(key).inserted else { throw NotSure() }
          }
        }
        rowsRead += chunk.rows.count
        progress?(rowsRead, result.objectCount)
      }
    }
  }

  /// A row's values in a unique index's columns as one text that is equal for two rows
  /// exactly when SQLite takes them for the same entry (BINARY collation; within a column an
  /// INTEGER and a REAL are never equal after its affinity, since a whole REAL becomes an
  /// INTEGER where the affinity is not REAL and an INTEGER a REAL where it is); nil when a
  /// value is NULL (never equal to another row's).
  static func uniqueKey(_ values: [SQLiteValue], _ affinities: [ColumnAffinity]) throws(NotSure) -> String? {
    var key = ""
    for (v, affinity) in zip(values, affinities) {
      guard let stored = affinity.stored(v) else { throw NotSure() }
      switch stored {
      case .null: return nil
      case .integer(let i): key += "i\(i);"
      case .real(let d): key += "r\(d.bitPattern);"
      case .text(let t): key += "t\(t.utf8.count):" + t
      case .blob(let b): key += "b\(b.count):" + b.map { String($0, radix: 16) }.joined(separator: ",")
      case .malformedText: throw NotSure()
      }
    }
    return key
  }

  /// One row, as `CoreDataReader.readHierarchy` reads it, its relationships as
  /// `CoreDataReader.resolveReferences` resolves them (every object is made before any row is
  /// read, so a key is looked up at once).
  private mutating func readRow(
    _ object: ObjectRef, key: Int64, _ bound: [SQLiteValue], _ plan: Plan, _ affinities: [ColumnAffinity]
  ) throws(NotSure) {
    /// A position as the reader takes it (`int64` of the column: NULL is 0).
    func order(_ column: Int?) throws(NotSure) -> Int64 {
      guard let column else { return 0 }
      switch bound[column] {
      case .null: return 0
      case .integer(let i): return i
      default: throw NotSure()
      }
    }
    for k in plan.columns.indices {
      let v = bound[plan.columns[k]]
      if case .blob(let b) = v {
        if b.isEmpty { throw NotSure() }  // bound from no bytes, it may be NULL
        if plan.archives[k] != 0 {
          result.set(object, property: plan.properties[k], blobs.value(b, decoding: plan.archives[k] == 1, column: k))
          continue
        }
        if plan.external[k] { throw NotSure() }
      }
      guard let stored = affinities[plan.columns[k]].stored(v),
        let decoded = try? CoreDataValues.decode(
          stored, type: plan.types[k], external: plan.external[k], externalFolder: "")
      else { throw NotSure() }
      if !decoded.isNull { result.set(object, property: plan.properties[k], decoded) }
    }
    for columns in plan.composites where columns.contains(where: { !bound[$0].isNull }) { throw NotSure() }
    for t in plan.toOnes {
      guard case .integer(let targetKey) = bound[t.column] else {
        if bound[t.column].isNull { continue }
        throw NotSure()
      }
      guard let target = objects[t.root][targetKey], t.fits[Int(target.entity)] else { throw NotSure() }
      result.setToOne(object, property: t.property, target)
      let q = t.inverse[Int(target.entity)]
      if q >= 0 { links.append(.init(owner: target, property: q, order: try order(t.order), key: key, member: object)) }
    }
    for h in plan.hidden {
      guard case .integer(let ownerKey) = bound[h.column] else {
        if bound[h.column].isNull { continue }
        throw NotSure()
      }
      guard let owner = objects[h.root][ownerKey] else { throw NotSure() }
      let q = h.property[Int(owner.entity)]
      guard q >= 0 else { throw NotSure() }
      links.append(.init(owner: owner, property: q, order: try order(h.order), key: key, member: object))
    }
  }

  /// The join rows the writer writes (`writeJoinRows`), each read as `CoreDataReader
  /// .readJoinTable` reads it: a member of each side's relationship, at the position its side's
  /// `Z_FOK_` column gives (NULL: 0).
  private mutating func readJoinRows() throws(NotSure) {
    let graph = writer.graph
    for j in schema.joinTables(frameworkVersion: writer.metadata.frameworkVersion) {
      guard !schema.isSelfInverse(j.relationship, of: j.owner),
        let ownerRoot = schema.entity(named: j.owner)?.root,
        let memberRoot = schema.entity(named: j.relationship.destinationEntity)?.root
      else { throw NotSure() }
      let secondOrder = j.secondOrder != nil ? writer.positionsByOwner(j.owner, j.relationship.name) : [:]
      let firstOrder =
        j.firstOrder != nil ? writer.positionsByOwner(j.relationship.destinationEntity, j.inverse.name) : [:]
      // The table's primary key is the pair: a pair twice fails the write.
      var pairs = Set<KeyPair>()
      for owner in writer.objects(ofKind: j.owner) {
        guard let p = graph.layout.entities[Int(owner.entity)].propertyIndex(j.relationship.name) else { continue }
        for member in writer.members(owner, p) {
          let (ok, mk) = (writer.key(owner), writer.key(member))
          guard pairs.insert(KeyPair(owner: ok, member: mk)).inserted else { throw NotSure() }
          guard let o = objects[ownerRoot][ok], let m = objects[memberRoot][mk] else { throw NotSure() }
          let (ownerLayout, memberLayout) = (layout.entities[Int(o.entity)], layout.entities[Int(m.entity)])
          guard let q = ownerLayout.propertyIndex(j.relationship.name),
            let s = memberLayout.propertyIndex(j.inverse.name),
            CoreDataReader.fits(m, ownerLayout.properties[q], in: layout),
            CoreDataReader.fits(o, memberLayout.properties[s], in: layout)
          else { throw NotSure() }
          let memberRank = secondOrder[owner]?[member] ?? 0
          let ownerRank = firstOrder[member]?[owner] ?? 0
          links.append(.init(owner: o, property: q, order: memberRank, key: mk, member: m))
          links.append(.init(owner: m, property: s, order: ownerRank, key: ok, member: o))
        }
      }
    }
  }
}

/// What SQLite keeps of a value bound into a column, by the column's declared type (its
/// affinity, https://sqlite.org/datatype3.html §3), for the values the writer binds; nil where
/// this does not follow SQLite exactly (text that might be taken as a number, a number into a
/// text column, a NaN or infinity, a number near the ends of the 64-bit range).
enum ColumnAffinity {
  case integer, text, blob, real, numeric

  /// SQLite's rules for a declared type, in their order.
  init(declared: String) {
    let t = declared.uppercased()
    if t.contains("INT") {
      self = .integer
    } else if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") {
      self = .text
    } else if t.contains("BLOB") || t.isEmpty {
      self = .blob
    } else if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") {
      self = .real
    } else {
      self = .numeric
    }
  }

  func stored(_ v: SQLiteValue) -> SQLiteValue? {
    if case .real(let d) = v, !d.isFinite { return nil }
    switch (self, v) {
    case (_, .null), (_, .blob), (.blob, .text), (.blob, .integer), (.blob, .real): return v
    case (_, .malformedText): return nil
    case (.text, .text): return v
    case (.text, _): return nil
    case (.real, .real), (.integer, .integer), (.numeric, .integer): return v
    case (.real, .integer(let i)): return .real(Double(i))
    case (.integer, .real(let d)), (.numeric, .real(let d)):
      // A whole number is kept as an INTEGER (SQLite's sqlite3VdbeIntegerAffinity).
      guard d == d.rounded() else { return v }
      return abs(d) < 0x1p62 ? .integer(Int64(d)) : nil
    case (.integer, .text(let s)), (.numeric, .text(let s)):
      // Only plain decimal digits are sure: SQLite keeps them as that INTEGER.
      let digits = s.utf8.first == UInt8(ascii: "-") ? s.utf8.dropFirst() : s.utf8[...]
      guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }), let i = Int64(s)
      else { return nil }
      return .integer(i)
    case (.real, .text): return nil
    }
  }
}
