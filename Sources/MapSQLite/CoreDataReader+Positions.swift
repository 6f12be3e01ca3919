import MapRuntime

extension CoreDataReader.Stubs {
  /// A chunk's member of an ordered relationship of a stub: the owner, the relationship's
  /// property, the member's ordering value and key as the relationship's rows hold them.
  struct Ranked {
    var owner: ObjectRef
    var property: Int
    var order: Int64
    var key: Int64
    var member: ObjectRef
  }

  /// Gives each of `ranked` its index in its owner's whole relationship
  /// (`ObjectGraph.orderedPositions`): the relationship's rows are counted as they come, one
  /// statement per owner and relationship, each row counted against the chunk's members after
  /// it in the whole-store reader's order (ordering value, then key). Nothing but the chunk's
  /// members is held, so a relationship of any size costs no memory; its rows are read once
  /// per chunk that holds members of it, as the whole relationship read as stubs was.
  mutating func rank(in reader: inout CoreDataReader) throws(CoreDataReader.Stop) {
    guard !ranked.isEmpty else { return }
    let sorted = ranked.sorted {
      ($0.owner.packed, $0.property, $0.order, $0.key) < ($1.owner.packed, $1.property, $1.order, $1.key)
    }
    ranked = []
    var start = 0
    while start < sorted.count {
      var end = start + 1
      while end < sorted.count && sorted[end].owner == sorted[start].owner
        && sorted[end].property == sorted[start].property
      {
        end += 1
      }
      let group = sorted[start..<end]
      try rank(group, in: &reader)
      start = end
    }
  }

  /// Gives each of `group` (members of one owner's relationship, sorted) its index: looked up in
  /// the spill once the relationship is spilled (`PositionSpill`), else counted from the
  /// owner's rows, which spills the relationship once its rows counted pass twice its table.
  private mutating func rank(_ group: ArraySlice<Ranked>, in reader: inout CoreDataReader)
    throws(CoreDataReader.Stop)
  {
    let first = group.first!
    guard let side = try side(of: first.owner, property: first.property, in: &reader) else { return }
    let ownerKey = reader.graph.tables[Int(first.owner.entity)].objectKey(Int(first.owner.row))
    let spill = reader.positionSpill
    do throws(SQLiteDatabase.Failure) {
      if let lookup = spill?.lookup(side.id) {
        var found: [Int] = []
        for m in group {
          lookup.reset()
          try lookup.bindInteger(0, ownerKey)
          try lookup.bindInteger(1, m.order)
          try lookup.bindInteger(2, m.key)
          guard try lookup.step() else { break }
          found.append(Int(lookup.int64(0)))
        }
        if found.count == group.count {
          for (m, index) in zip(group, found) { place(m, at: index, in: &reader) }
          return
        }
        // (Not found: counted below, as before the spill.)
      }
      // `before[j]`: rows that come before the group's member j and after member j - 1.
      var before = [Int](repeating: 0, count: group.count + 1)
      var rows = 0
      let statement = try statement(side.each, id: [Int(first.owner.entity), first.property, -2], in: &reader)
      statement.reset()
      try statement.bindInteger(0, ownerKey)
      while try statement.step() {
        let (order, key) = (statement.int64(0), statement.int64(1))
        var low = group.startIndex
        var high = group.endIndex
        while low < high {
          let mid = (low + high) / 2
          if (group[mid].order, group[mid].key) > (order, key) { high = mid } else { low = mid + 1 }
        }
        before[low - group.startIndex] += 1
        rows += 1
      }
      var index = 0
      for (j, m) in group.enumerated() {
        index += before[j]
        place(m, at: index, in: &reader)
      }
      if let spill, spill.lookup(side.id) == nil,
        spill.counts(rows, for: side.id, tableRows: { reader.rowCount(side.table) })
      {
        let all = try reader.store.database.prepare(side.all)
        try spill.spill(side.id) { insert throws(SQLiteDatabase.Failure) in
          while try all.step() {
            insert.reset()
            for c in 0..<3 { try insert.bindInteger(c, all.int64(c)) }
            _ = try insert.step()
          }
        }
      }
    } catch {
      try reader.report("sqlite-unreadable", "cannot read table \(side.table): \(error.message)")
    }
  }

  private func place(_ m: Ranked, at index: Int, in reader: inout CoreDataReader) {
    reader.graph.orderedPositions[OrderedMember(owner: m.owner, property: m.property, member: m.member)] = index
  }

  /// `sql` prepared once per chunk under `id`.
  private mutating func statement(_ sql: String, id: [Int], in reader: inout CoreDataReader) throws(SQLiteDatabase
    .Failure) -> SQLiteStatement
  {
    if let known = members[id] { return known }
    let prepared = try reader.store.database.prepare(sql)
    members[id] = prepared
    return prepared
  }

  /// Where the rows of `owner`'s ordered relationship at `p` are (`findSide`), worked out once
  /// per run for each entity and property (`PositionSpill.sides`): a chunk asks for every owner
  /// it holds members of.
  private func side(of owner: ObjectRef, property p: Int, in reader: inout CoreDataReader) throws(CoreDataReader.Stop)
    -> PositionSpill.Side?
  {
    let id = [Int(owner.entity), p]
    if let known = reader.positionSpill?.sides[id] { return known }
    // (Not kept when there is none: each chunk that asks reports it.)
    guard let found = try findSide(of: owner, property: p, in: &reader) else { return nil }
    reader.positionSpill?.sides[id] = found
    return found
  }

  /// The rows of `owner`'s ordered relationship at `p`: its members' rows (one-to-many, or
  /// without an inverse) or its join table's rows (many-to-many), each with the owner's key, the
  /// member's ordering value and its key. `each` reads one owner's (through the index Core Data
  /// makes on the owner's column), `all` every owner's; `id` names the relationship's rows (one
  /// table and owner column), whichever entity asks.
  private func findSide(of owner: ObjectRef, property p: Int, in reader: inout CoreDataReader)
    throws(CoreDataReader.Stop) -> PositionSpill.Side?
  {
    let ownerLayout = reader.layout.entities[Int(owner.entity)]
    guard let r = ownerLayout.properties[p].relationship else { return nil }
    var columns: (owner: String, order: String, key: String)?
    var table = r.destinationEntity
    if reader.layout.model.isManyToMany(r) {
      if let join = try reader.joinLayout(ownerLayout.name, r) {
        table = join.table
        columns = join.memberOrder.map { (join.ownerColumn, $0, join.memberColumn) }
      }
    } else if let member = reader.schema.entity(named: r.destinationEntity),
      let column = reader.memberKeyColumn(of: ownerLayout.name, r)
    {
      table = reader.schema.entities[member.root].table
      columns = (column, CoreDataSchema.orderColumn(ofKey: column), "Z_PK")
    }
    guard let columns else {
      // (The whole-store reader finds the same columns; a store without them is refused there.)
      try reader.report("sqlite-layout", "\(table): no column holds the positions of \(ownerLayout.name).\(r.name)")
      return nil
    }
    let (o, order, key) = (
      SQLiteDatabase.quote(columns.owner), SQLiteDatabase.quote(columns.order), SQLiteDatabase.quote(columns.key)
    )
    let t = SQLiteDatabase.quote(table)
    return PositionSpill.Side(
      id: table + "." + o, table: table, each: "SELECT \(order), \(key) FROM \(t) WHERE \(o) = ?",
      all: "SELECT \(o), \(order), \(key) FROM \(t) WHERE \(o) IS NOT NULL")
  }
}
