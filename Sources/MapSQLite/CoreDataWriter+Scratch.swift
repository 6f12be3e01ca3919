import MapRuntime

/// A store written from chunks (`CoreDataChunkWriter`): the rows of an entity that stands
/// alone are rendered chunk by chunk into a scratch file (`renderRows`), each cell the value
/// the whole-store writer would bind, and inserted from it in their place when the store is
/// written (`insertStreamed`), with the same statements in the same order, so the file's bytes
/// are those of the run over the whole store.
extension CoreDataWriter {
  /// Renders the rows of entity `e` (layout index) into `rows`: `Z_PK`, `Z_OPT`, and per
  /// column of its table what `writeRows` binds; what cannot be stored goes to `errors`, its
  /// place named by the object's id, as a whole run names it.
  mutating func renderRows(of e: Int, into rows: ScratchRows) throws(MigrationFailure) {
    let values = graph.tables[e]
    let ids = graph  // the objects' ids, for messages (not `self`, which the rows change)
    let name = graph.layout.entities[e].name
    guard values.realCount > 0, let k = schema.index(named: name),
      let table = schema.tables().first(where: { $0.root == schema.entities[k].root })
    else { return }
    // Errors of the table's columns (a member of two owners) come before its rows', as in a
    // whole run's.
    let before = errors.count
    let slots = slots(of: table)
    if rows.columnErrors.count < 20 { rows.columnErrors += errors[before...].prefix(20) }
    errors.removeSubrange(before...)
    let cells = cells(of: table, for: schema.entities[k], entity: graph.layout.entities[e])
    let source = RowSource(
      table: values, cells: cells, slots: slots, keys: keys,
      entityNumbers: graph.layout.entities.map { Int64(schema.number($0.name)) }, entity: e, input: input)
    let versioned = !values.objectVersions.isEmpty
    if versioned { rows.versioned = true }
    // Stubs (`EntityTable.stubsFrom`) are written by the part they belong to.
    for start in stride(from: 0, to: values.realCount, by: RowSource.chunkRows) {
      let chunk = source.render(start..<min(start + RowSource.chunkRows, values.realCount))
      var i = 0
      for row in chunk.rows {
        let key = keys[e][row]
        rows.beginRow(key: key, version: versioned ? values.objectVersion(row) : 0)
        for c in cells.indices {
          switch chunk.kinds[i] {
          case .null: rows.putNull()
          case .integer: rows.putInteger(chunk.payloads[i])
          case .real: rows.putReal(Double(bitPattern: UInt64(bitPattern: chunk.payloads[i])))
          case .text: rows.putText(chunk.texts[Int(chunk.payloads[i])])
          case .string: rows.putText(chunk.strings[Int(chunk.payloads[i])])
          case .slow:
            rows.put(
              slowValue(
                cells[c], values, row, slots, object: ids.inputID(ObjectRef(entity: e, row: row)) ?? "\(name)/\(key)"))
          }
          i += 1
        }
        rows.highestKey = max(rows.highestKey, key)
      }
      try rows.flush()
    }
  }

  /// Takes the rows rendered from chunks, per entity (layout index), and the errors found
  /// rendering them; each entity's `Z_MAX` counts its rows' keys.
  mutating func takeStreamed(_ rows: [Int: ScratchRows], errors: [Int: [String]]) {
    streamed = rows
    streamedErrors = errors
    for (e, r) in rows {
      guard let k = schema.index(named: graph.layout.entities[e].name) else { continue }
      let root = schema.entities[k].root
      maxKey[root] = max(maxKey[root] ?? 0, r.highestKey)
    }
  }

  /// Inserts the rows of `rows` as `writeRows` inserts a graph's: the same statements, batches
  /// and order.
  func insertStreamed(
    _ rows: ScratchRows, _ db: SQLiteDatabase, table: CoreDataSchema.Table, entity e: CoreDataSchema.Entity,
    names: [String], written: inout Int
  ) throws {
    let count = rows.count
    guard count > 0 else { return }
    try rows.flush(force: true)
    let inserts = try RowInserts(
      db, table: table, number: e.number, names: names, versioned: rows.versioned, count: count)
    var reader = ScratchRows.Reader(rows)
    for row in 0..<count {
      let (insert, base) = inserts.slot(row)
      try insert.bindInteger(base, try reader.integer())
      let version = try reader.integer()
      if rows.versioned { try insert.bindInteger(base + 1, max(1, version)) }
      for c in 0..<table.columns.count { try reader.bindCell(insert, base + inserts.first + c) }
      try inserts.finish(row)
      written += 1
      if (row + 1) % RowSource.chunkRows == 0 || row + 1 == count { progress?(written) }
    }
  }

  /// Inserts join rows rendered from chunks (`renderJoinRows`) with the statement the graph's
  /// would go through, in the order they were rendered.
  func insertStreamedJoins(_ rows: ScratchRows, _ insert: SQLiteStatement, columns: Int) throws {
    try rows.flush(force: true)
    var reader = ScratchRows.Reader(rows)
    for _ in 0..<rows.count {
      insert.reset()
      try insert.bindInteger(0, try reader.integer())
      _ = try reader.integer()
      for c in 1..<columns { try reader.bindCell(insert, c) }
      _ = try insert.step()
    }
  }

  /// Renders the join rows of the objects of table `e` (not its stubs) for their many-to-many
  /// relationship at `p`, as `writeJoinRows` binds them when `e`'s side names the join table:
  /// owner, member, the owner's position in the member's side where that is ordered, the
  /// member's in the owner's where that is.
  func renderJoinRows(of e: Int, property p: Int, into rows: ScratchRows) throws(MigrationFailure) {
    let table = graph.tables[e]
    guard let r = table.layout.properties[p].relationship, let inv = r.inverseName,
      let many = table.columns[p] as? ToManyColumn
    else { return }
    let inverseOrdered = graph.layout.model.inverse(of: r)?.isOrdered ?? false
    // Each member's ordered side, as owner → position, made once per member (as
    // `positionsByOwner` makes them for the whole graph).
    var sides: [ObjectRef: [ObjectRef: Int]] = [:]
    let given = graph.orderedPositions
    func position(of owner: ObjectRef, in m: ObjectRef) -> Int? {
      if sides[m] == nil {
        let q = graph.table(m).layout.propertyIndex(inv)
        let side = q.flatMap { graph.table(m).columns[$0] as? ToManyColumn }
        var positions: [ObjectRef: Int] = [:]
        for (i, o) in (side?.targets(Int(m.row)) ?? []).enumerated() {
          // (A stub's side may hold the chunk's objects only, with their index in the whole.)
          let whole = given.isEmpty ? nil : q.flatMap { given[OrderedMember(owner: m, property: $0, member: o)] }
          positions[o] = whole ?? i
        }
        sides[m] = positions
      }
      return sides[m]?[owner]
    }
    for row in 0..<table.realCount {
      let owner = ObjectRef(entity: e, row: row)
      for (i, m) in many.targets(row).enumerated() {
        rows.beginRow(key: table.objectKey(row), version: 0)
        rows.putInteger(graph.table(m).objectKey(Int(m.row)))
        if inverseOrdered {
          if let p = position(of: owner, in: m) { rows.putInteger(Self.position(at: p)) } else { rows.putNull() }
        }
        if r.isOrdered { rows.putInteger(Self.position(at: i)) }
      }
      // Written out as they come (every 1 MB), not held for the whole chunk.
      try rows.flush()
    }
  }
}
