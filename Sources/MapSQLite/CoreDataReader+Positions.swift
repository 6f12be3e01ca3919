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
      // `before[j]`: rows that come before the group's member j and after member j - 1.
      var before = [Int](repeating: 0, count: group.count + 1)
      try forEachSideRow(of: group.first!.owner, property: group.first!.property, in: &reader) { order, key in
        var low = group.startIndex
        var high = group.endIndex
        while low < high {
          let mid = (low + high) / 2
          if (group[mid].order, group[mid].key) > (order, key) { high = mid } else { low = mid + 1 }
        }
        before[low - group.startIndex] += 1
      }
      var index = 0
      for (j, m) in group.enumerated() {
        index += before[j]
        reader.graph.orderedPositions[OrderedMember(owner: m.owner, property: m.property, member: m.member)] = index
      }
      start = end
    }
  }

  /// Calls `body` with the ordering value and key of each row of `owner`'s ordered relationship
  /// at `p`: its members' rows (one-to-many, or without an inverse) or its join table's rows
  /// (many-to-many), through the index Core Data makes on the owner's column, in no order.
  private mutating func forEachSideRow(
    of owner: ObjectRef, property p: Int, in reader: inout CoreDataReader, _ body: (Int64, Int64) -> Void
  ) throws(CoreDataReader.Stop) {
    let ownerLayout = reader.layout.entities[Int(owner.entity)]
    guard let r = ownerLayout.properties[p].relationship else { return }
    let key = reader.graph.tables[Int(owner.entity)].objectKey(Int(owner.row))
    let id = [Int(owner.entity), p, -2]
    let join = reader.layout.model.isManyToMany(r) ? try reader.joinLayout(ownerLayout.name, r) : nil
    let member = reader.schema.entity(named: r.destinationEntity)
    let table = join?.table ?? member.map { reader.schema.entities[$0.root].table } ?? r.destinationEntity
    var sql: String?
    if members[id] == nil {
      if let join {
        sql = join.memberOrder.map {
          "SELECT \(SQLiteDatabase.quote($0)), \(SQLiteDatabase.quote(join.memberColumn)) FROM \(SQLiteDatabase.quote(table)) WHERE \(SQLiteDatabase.quote(join.ownerColumn)) = ?"
        }
      } else if member != nil, let column = reader.memberKeyColumn(of: ownerLayout.name, r) {
        let order = SQLiteDatabase.quote(CoreDataSchema.orderColumn(ofKey: column))
        sql = "SELECT \(order), Z_PK FROM \(SQLiteDatabase.quote(table)) WHERE \(SQLiteDatabase.quote(column)) = ?"
      }
      guard sql != nil else {
        // (The whole-store reader finds the same columns; a store without them is refused there.)
        try reader.report("sqlite-layout", "\(table): no column holds the positions of \(ownerLayout.name).\(r.name)")
        return
      }
    }
    do throws(SQLiteDatabase.Failure) {
      if let sql { members[id] = try reader.store.database.prepare(sql) }
      let statement = members[id]!
      statement.reset()
      try statement.bindInteger(0, key)
      while try statement.step() { body(statement.int64(0), statement.int64(1)) }
    } catch {
      try reader.report("sqlite-unreadable", "cannot read table \(table): \(error.message)")
    }
  }
}
