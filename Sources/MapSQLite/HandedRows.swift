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
/// a reflexive many-to-many, anything the writer or the reader would refuse), it gives up
/// (`NotSure`) and the caller writes the store and reads it back.
struct HandedRows {
  struct NotSure: Error {}

  let layout: StoreLayout
  let schema: CoreDataSchema
  var writer: CoreDataWriter
  let result: ObjectGraph
  var blobs = TransformableBlobs()
  /// Per writer entity and row, the object of `result` its row is read as.
  var refs: [[ObjectRef]] = []
  /// Per hierarchy root (schema index): `Z_PK` → object of `result`, as the reader keeps them.
  var objects: [Int: [Int64: ObjectRef]] = [:]
  var links: [CoreDataReader.Link] = []

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

  /// What the reader takes from a row of one entity: per attribute its column and whether it is
  /// an archive (`CoreDataReader.readHierarchy`'s plan).
  private struct Plan {
    var attributes: [(property: Int, column: Int, attribute: AttributeDescription, archive: UInt8)] = []
    var composites: [[Int]] = []
    var toOnes: [(property: Int, column: Int, order: Int?, destination: String)] = []
  }

  private func plan(_ e: CoreDataSchema.Entity, columns: [String: Int]) throws(NotSure) -> Plan {
    var plan = Plan()
    for (p, property) in layout.entities[e.index].properties.enumerated() {
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
        let archive: UInt8 = a.type != .transformable ? 0 : CoreDataValues.isArchive(a) ? 1 : 2
        plan.attributes.append((p, c, a, archive))
      } else if let r = property.relationship, !r.isToMany {
        guard let name = schema.column(r.name, of: e.name), let c = columns[name] else { throw NotSure() }
        var order: Int? = nil
        if let inverse = layout.model.inverse(of: r), inverse.isToMany, inverse.isOrdered {
          guard let o = columns[CoreDataSchema.orderColumn(ofKey: name)] else { throw NotSure() }
          order = o
        }
        plan.toOnes.append((p, c, order, r.destinationEntity))
      }
    }
    return plan
  }

  /// The rows of one table as the writer binds them, read as the reader reads them.
  private mutating func readTable(_ table: CoreDataSchema.Table) throws(NotSure) {
    let graph = writer.graph
    let slots = writer.slots(of: table)
    var columns: [String: Int] = [:]
    for (c, column) in table.columns.enumerated() { columns[column.name] = c }
    let affinities = table.columns.map { ColumnAffinity(declared: $0.type) }
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
      let plan = try plan(e, columns: columns)
      let mine = hiddenColumns.filter { layout.model.isKind(e.name, of: $0.destination) }
      let cells = writer.cells(of: table, for: e, entity: graph.layout.entities[e.index])
      let source = CoreDataWriter.RowSource(
        table: values, cells: cells, slots: slots, keys: writer.keys, entityNumbers: entityNumbers, entity: e.index,
        input: writer.input)
      let name = graph.layout.entities[e.index].name
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
            case .slow: bound[c] = writer.slowValue(cells[c], values, row, slots, name: name, number: row + 1)
            }
            i += 1
          }
          try readRow(refs[e.index][row], bound, plan, affinities, hidden: mine)
        }
      }
    }
  }

  /// One row, as `CoreDataReader.readHierarchy` reads it.
  private mutating func readRow(
    _ object: ObjectRef, _ bound: [SQLiteValue], _ plan: Plan, _ affinities: [ColumnAffinity],
    hidden hiddenColumns: [(column: Int, order: Int?, owner: String, relationship: String, destination: String)]
  ) throws(NotSure) {
    /// A position as the reader takes it (`int64` of the column: NULL is 0).
    func order(_ column: Int) throws(NotSure) -> Int64 {
      switch bound[column] {
      case .null: 0
      case .integer(let i): i
      default: throw NotSure()
      }
    }
    let key = result.tables[Int(object.entity)].objectKey(Int(object.row))
    for (k, a) in plan.attributes.enumerated() {
      let v = bound[a.column]
      if case .blob(let b) = v, b.isEmpty { throw NotSure() }  // bound from no bytes, it may be NULL
      if a.archive != 0, case .blob(let b) = v {
        result.set(object, property: a.property, blobs.value(b, decoding: a.archive == 1, column: k))
        continue
      }
      if a.attribute.type == .binary, a.attribute.allowsExternalBinaryDataStorage, case .blob = v { throw NotSure() }
      guard let stored = affinities[a.column].stored(v),
        let decoded = try? CoreDataValues.decode(stored, a.attribute, externalFolder: "")
      else { throw NotSure() }
      if !decoded.isNull { result.set(object, property: a.property, decoded) }
    }
    for columns in plan.composites where columns.contains(where: { !bound[$0].isNull }) { throw NotSure() }
    for t in plan.toOnes {
      guard case .integer(let target) = bound[t.column] else {
        if bound[t.column].isNull { continue }
        throw NotSure()
      }
      try toOne(object, t.property, target: target, root: t.destination, order: try t.order.map(order) ?? 0, key: key)
    }
    for h in hiddenColumns {
      guard case .integer(let owner) = bound[h.column] else {
        if bound[h.column].isNull { continue }
        throw NotSure()
      }
      try member(object, of: owner, h.owner, h.relationship, order: try h.order.map(order) ?? 0, key: key)
    }
  }

  /// A to-one relationship from its key, the owner added to the inverse to-many where there
  /// is one (`CoreDataReader.resolveReferences`). The objects are all made before any row is
  /// read, so a key is looked up at once.
  private mutating func toOne(
    _ owner: ObjectRef, _ p: Int, target key: Int64, root destination: String, order: Int64, key ownerKey: Int64
  ) throws(NotSure) {
    guard let root = schema.entity(named: destination)?.root, let target = objects[root]?[key] else {
      throw NotSure()
    }
    let property = layout.entities[Int(owner.entity)].properties[p]
    guard let r = property.relationship, CoreDataReader.fits(target, property, in: layout) else { throw NotSure() }
    result.setToOne(owner, property: p, target)
    let targetLayout = layout.entities[Int(target.entity)]
    guard let inv = r.inverseName, let q = targetLayout.propertyIndex(inv),
      targetLayout.properties[q].relationship?.isToMany == true
    else { return }
    links.append(.init(owner: target, property: q, order: order, key: ownerKey, member: owner))
  }

  /// A member found through the hidden key of a to-many relationship without an inverse.
  private mutating func member(
    _ member: ObjectRef, of key: Int64, _ ownerEntity: String, _ relationship: String, order: Int64,
    key memberKey: Int64
  ) throws(NotSure) {
    guard let root = schema.entity(named: ownerEntity)?.root, let owner = objects[root]?[key] else { throw NotSure() }
    let ownerLayout = layout.entities[Int(owner.entity)]
    guard let p = ownerLayout.propertyIndex(relationship),
      CoreDataReader.fits(member, ownerLayout.properties[p], in: layout)
    else { throw NotSure() }
    links.append(.init(owner: owner, property: p, order: order, key: memberKey, member: member))
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
      for owner in writer.objects(ofKind: j.owner) {
        guard let p = graph.layout.entities[Int(owner.entity)].propertyIndex(j.relationship.name) else { continue }
        for member in writer.members(owner, p) {
          let (ok, mk) = (writer.key(owner), writer.key(member))
          guard let o = objects[ownerRoot]?[ok], let m = objects[memberRoot]?[mk] else { throw NotSure() }
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
