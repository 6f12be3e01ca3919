import MapRuntime

extension CoreDataReader {
  /// For a chunk of a run in chunks (`CoreDataChunkReader`), once its rows are read: sets each
  /// to-one relationship of the chunk's rows from its foreign key, to an object of the chunk or
  /// else to a stub, an object with only its `Z_PK` (`EntityTable.stubsFrom`), one per row
  /// referred to; the row must exist in its table, as the whole-store reader checks. Reads
  /// every to-many relationship of the chunk's rows whole, from its members' foreign keys (as
  /// stubs where they are not in the chunk). A to-many of an object outside the chunk gets only
  /// the chunk's objects that refer to it; where it is ordered (their positions are in the
  /// chunk's rows), each gets its index in the whole relationship (`Stubs.rank`), or, for a
  /// relationship not in `positionsOnly`, the relationship is read whole. A stub member's to-one
  /// inverse is its owner. `StreamingPlan` says which relationships a streamed entity may have.
  mutating func resolveReferencesWithStubs() throws(Stop) {
    var stubs = Stubs(before: graph.tables.map(\.count))
    // The chunk's own objects: each to-many relationship whole.
    var whole: [(owner: ObjectRef, property: Int)] = []
    for (e, table) in graph.tables.enumerated() where table.count > 0 {
      let properties = layout.entities[e].properties.indices.filter {
        layout.entities[e].properties[$0].relationship?.isToMany == true
      }
      for row in 0..<table.count {
        for p in properties { whole.append((ObjectRef(entity: e, row: row), p)) }
      }
    }
    for t in toOnes {
      let table = schema.entities[t.targetRoot].table
      guard
        let target = try stubs.object(
          root: t.targetRoot, key: t.key, in: &self,
          missing: "\(t.table).\(t.column) row Z_PK=\(t.ownerKey): \(t.key) is no Z_PK of \(table)")
      else { continue }
      let property = layout.entities[Int(t.owner.entity)].properties[t.property]
      guard let r = property.relationship, try fits(target, property, "\(t.table).\(t.column) row Z_PK=\(t.ownerKey)")
      else { continue }
      graph.setToOne(t.owner, property: t.property, target)
      let targetLayout = layout.entities[Int(target.entity)]
      guard let inv = r.inverseName, let p = targetLayout.propertyIndex(inv),
        let inverse = targetLayout.properties[p].relationship
      else { continue }
      if !inverse.isToMany {
        // One-to-one: a stub's side is the chunk's object, as its row says.
        if Int(target.row) >= stubs.before[Int(target.entity)] {
          guard try stubs.agrees(t, target: target, inverse: inv, in: &self) else { continue }
          graph.setToOne(target, property: p, t.owner)
        }
        continue
      }
      if inverse.isOrdered && !ranksOnly(target, p, stubs) {
        whole.append((target, p))
      } else {
        if inverse.isOrdered {
          stubs.ranked.append(.init(owner: target, property: p, order: t.order, key: t.ownerKey, member: t.owner))
        }
        links.append(Link(owner: target, property: p, order: t.order, key: t.ownerKey, member: t.owner))
      }
    }
    // A row that holds the key of the owner of a to-many relationship without an inverse: the
    // owner (the chunk's object, or a stub) lists it; an ordered one's whole side is read (the
    // positions are in the rows).
    let hidden = hiddenLinks
    hiddenLinks = []
    for h in hidden {
      guard let ownerEntity = schema.entity(named: h.hidden.ownerEntity) else { continue }
      let ownerTable = schema.entities[ownerEntity.root].table
      guard
        let owner = try stubs.object(
          root: ownerEntity.root, key: h.owner, in: &self,
          missing: "\(h.table).\(h.hidden.column) row Z_PK=\(h.key): \(h.owner) is no Z_PK of \(ownerTable)")
      else { continue }
      guard let p = try hiddenProperty(h, of: owner) else { continue }
      if h.hidden.orderColumn != nil && !ranksOnly(owner, p, stubs) {
        whole.append((owner, p))
      } else {
        if h.hidden.orderColumn != nil {
          stubs.ranked.append(.init(owner: owner, property: p, order: h.order, key: h.key, member: h.member))
        }
        links.append(Link(owner: owner, property: p, order: h.order, key: h.key, member: h.member))
      }
    }
    var seen: Set<OwnerSide> = []
    var next = 0
    while next < whole.count {
      let (owner, p) = whole[next]
      next += 1
      guard seen.insert(OwnerSide(owner: owner.packed, property: p)).inserted else { continue }
      if let r = layout.entities[Int(owner.entity)].properties[p].relationship, layout.model.isManyToMany(r) {
        // A stub member whose side is ordered: its whole side, for the positions of the rows.
        whole += try stubs.readJoinMembers(of: owner, property: p, in: &self)
      } else {
        try stubs.readMembers(of: owner, property: p, in: &self)
      }
    }
    try stubs.rank(in: &self)
    for (e, table) in graph.tables.enumerated() where table.count > stubs.before[e] {
      table.stubsFrom = stubs.before[e]
    }
    addLinks()
  }

  /// Whether a chunk gives the index of its members in the ordered relationship at `p` of
  /// `owner`, a stub, rather than read the relationship whole (`positionsOnly`).
  func ranksOnly(_ owner: ObjectRef, _ p: Int, _ stubs: Stubs) -> Bool {
    guard Int(owner.row) >= stubs.before[Int(owner.entity)], !positionsOnly.isEmpty else { return false }
    let entity = layout.entities[Int(owner.entity)]
    guard let r = entity.properties[p].relationship else { return false }
    return positionsOnly.contains(entity.name + "." + r.name)
  }

  /// What a chunk reads whole for row `key` (schema entity `k`) of `table`: the members of its
  /// to-many relationships, `bytesPerMember` each; a row whose members take more than a quarter
  /// of the limit is reported, as a row too large is. (The ordered sides of the objects the
  /// chunk refers to count against a quarter of the limit, `Stubs.counts`.)
  mutating func memberBytes(_ k: Int, _ key: Int64, _ table: String) throws(Stop) -> Int {
    guard let chunk else { return 0 }
    var bytes = 0
    for m in try memberKeys(of: k) {
      let count = try countRows(m.table, m.column, key)
      if count * Self.bytesPerMember > chunk.largest {
        try report(
          "run-memory-limit",
          "\(table) row Z_PK=\(key): its relationship \(m.relationship) holds \(count) objects, which a chunk reads with it: more than a quarter of the --memory-limit (\(chunk.largest) bytes) allows one object"
        )
      }
      bytes += count * Self.bytesPerMember
    }
    return bytes
  }

  /// Where the members of each stored to-many relationship of schema entity `k` (its own and
  /// inherited) hold its objects' keys: their rows (a column of their table), or (many-to-many)
  /// its join table's rows; found once per entity.
  mutating func memberKeys(of k: Int) throws(Stop) -> [(relationship: String, table: String, column: String)] {
    if let known = memberKeyColumns[k] { return known }
    var found: [(relationship: String, table: String, column: String)] = []
    let name = schema.entities[k].name
    if let entity = layout.model.entity(named: name) {
      for r in layout.model.allRelationships(of: entity) where r.isToMany && !r.isTransient {
        guard let member = schema.entity(named: r.destinationEntity) else { continue }
        var memberTable = schema.entities[member.root].table
        var column = memberKeyColumn(of: name, r)
        if layout.model.isManyToMany(r) {
          guard let join = try joinLayout(name, r) else { continue }
          (memberTable, column) = (join.table, join.ownerColumn)
        }
        if let column { found.append((r.name, memberTable, column)) }
      }
    }
    memberKeyColumns[k] = found
    return found
  }

  /// The column of the members' table of `owner`'s one-to-many `r` that holds the owner's key:
  /// its inverse's, or, without an inverse, the one Core Data adds for it
  /// (`hiddenKeyColumn`); nil when the schema has none (a many-to-many).
  func memberKeyColumn(of owner: String, _ r: RelationshipDescription) -> String? {
    if let inv = r.inverseName { return schema.column(inv, of: r.destinationEntity) }
    return hiddenKeyColumn(declaredBy: schema.declaring(r.name, of: owner)?.name ?? owner, r.name)
  }

  /// `SELECT count(*) FROM table WHERE column = key`, its statement kept.
  private mutating func countRows(_ table: String, _ column: String, _ key: Int64) throws(Stop) -> Int {
    do throws(SQLiteDatabase.Failure) {
      let id = table + "." + column
      if memberCounters[id] == nil {
        memberCounters[id] = try store.database.prepare(
          "SELECT count(*) FROM \(SQLiteDatabase.quote(table)) WHERE \(SQLiteDatabase.quote(column)) = ?")
      }
      let counter = memberCounters[id]!
      counter.reset()
      try counter.bindInteger(0, key)
      return try counter.step() ? Int(counter.int64(0)) : 0
    } catch {
      try report("sqlite-unreadable", "cannot read table \(table): \(error.message)")
      return 0
    }
  }

  /// The stubs of one chunk and the statements that find them.
  struct Stubs {
    /// Each table's objects before the first stub.
    let before: [Int]
    /// Per hierarchy root: `SELECT Z_ENT … WHERE Z_PK = ?`.
    var lookups: [Int: SQLiteStatement] = [:]
    /// Per (entity, to-many property): its members' keys, entities and positions by owner.
    var members: [[Int]: SQLiteStatement] = [:]
    /// Per `table.column`: the other side's key of a one-to-one, by `Z_PK` (`agrees`).
    var sides: [String: SQLiteStatement] = [:]
    /// Members read whole so far (a chunk holds them in memory, within a quarter of the limit).
    var memberCount = 0
    /// The chunk's members of ordered relationships of stubs that get their index in the whole
    /// relationship (`ranksOnly`, `rank`).
    var ranked: [Ranked] = []

    /// Whether the row `t` refers to names `t`'s row in its side of their one-to-one
    /// relationship (`inverse`), as a consistent store's does; reported when not (a run in
    /// memory reads both sides as they are, which a chunk cannot).
    mutating func agrees(_ t: PendingToOne, target: ObjectRef, inverse: String, in reader: inout CoreDataReader)
      throws(Stop) -> Bool
    {
      let table = reader.schema.entities[t.targetRoot].table
      // The column of the target's own entity (which may inherit the inverse).
      guard let column = reader.schema.column(inverse, of: reader.layout.entities[Int(target.entity)].name) else {
        return false
      }
      var other: Int64?
      do throws(SQLiteDatabase.Failure) {
        let id = table + "." + column
        if sides[id] == nil {
          sides[id] = try reader.store.database.prepare(
            "SELECT \(SQLiteDatabase.quote(column)) FROM \(SQLiteDatabase.quote(table)) WHERE Z_PK = ?")
        }
        let statement = sides[id]!
        statement.reset()
        try statement.bindInteger(0, t.key)
        if try statement.step(), !statement.isNull(0) { other = statement.int64(0) }
      } catch {
        try reader.report("sqlite-unreadable", "cannot read table \(table): \(error.message)")
        return false
      }
      guard other == t.ownerKey else {
        try reader.report(
          "run-memory-limit",
          "\(t.table).\(t.column) row Z_PK=\(t.ownerKey) names \(table) row Z_PK=\(t.key), whose \(column) is \(other.map(String.init) ?? "NULL"): the two sides of a one-to-one relationship disagree, which a run in chunks cannot read as a run in memory does"
        )
        return false
      }
      return true
    }

    /// The object of `root`'s table with `Z_PK` `key` and `Z_ENT` `number`: the chunk's, or a
    /// stub made now.
    mutating func stub(root: Int, key: Int64, number: Int, in reader: inout CoreDataReader) throws(Stop)
      -> ObjectRef?
    {
      if let known = reader.objects[root]?[key] { return known }
      let table = reader.schema.entities[root].table
      guard let k = reader.entityOfNumber[number], reader.schema.entities[k].root == root else {
        try reader.report(
          "sqlite-layout", "\(table) row Z_PK=\(key): Z_ENT \(number) is no entity of this table's hierarchy")
        return nil
      }
      let stub = reader.graph.appendObject(entity: reader.schema.entities[k].index)
      reader.graph.tables[Int(stub.entity)].setObjectKey(Int(stub.row), key)
      reader.objects[root, default: [:]][key] = stub
      return stub
    }

    /// The object of `root`'s table with `Z_PK` `key`: the chunk's, or a stub, its `Z_ENT` looked
    /// up; nil when there is no such row (`missing` says so).
    mutating func object(
      root: Int, key: Int64, in reader: inout CoreDataReader, missing: @autoclosure () -> String
    ) throws(Stop) -> ObjectRef? {
      if let known = reader.objects[root]?[key] { return known }
      let table = reader.schema.entities[root].table
      var number: Int?
      do throws(SQLiteDatabase.Failure) {
        if lookups[root] == nil {
          lookups[root] = try reader.store.database.prepare(
            "SELECT Z_ENT FROM \(SQLiteDatabase.quote(table)) WHERE Z_PK = ?")
        }
        let lookup = lookups[root]!
        lookup.reset()
        try lookup.bindInteger(0, key)
        if try lookup.step(), !lookup.isNull(0) { number = Int(lookup.int64(0)) }
      } catch {
        try reader.report("sqlite-unreadable", "cannot read table \(table): \(error.message)")
        return nil
      }
      guard let number else {
        try reader.report("sqlite-dangling", missing())
        return nil
      }
      return try stub(root: root, key: key, number: number, in: &reader)
    }

    /// Counts `n` members read whole for `owner` (key `key`), relationship `relationship`. The
    /// chunk's own rows counted theirs (`memberBytes`); the ordered relationships of the objects
    /// they refer to (stubs) come on top, within a quarter of the limit: false (reported) past it.
    mutating func counts(
      _ n: Int, of owner: ObjectRef, _ relationship: String, key: Int64, in reader: inout CoreDataReader
    ) throws(Stop) -> Bool {
      guard Int(owner.row) >= before[Int(owner.entity)] else { return true }
      memberCount += n
      guard let chunk = reader.chunk, memberCount * CoreDataReader.bytesPerMember > chunk.largest else { return true }
      let name = reader.layout.entities[Int(owner.entity)].name
      let table = reader.schema.entity(named: name).map { reader.schema.entities[$0.root].table } ?? name
      try reader.report(
        "run-memory-limit",
        "\(table) row Z_PK=\(key): its ordered relationship \(relationship), which a chunk that refers to it reads whole, brings the chunk's objects to \(memberCount), more than a quarter of the --memory-limit (\(chunk.largest) bytes) allows"
      )
      return false
    }

    /// Adds every member of `owner`'s many-to-many relationship at `property`, from its join
    /// table's rows that name it, in the whole-store reader's order, and `owner` to each
    /// member's side (its members outside the chunk as stubs). Returns the sides of stub
    /// members to read whole: those that are ordered (their positions are in the join rows).
    mutating func readJoinMembers(of owner: ObjectRef, property p: Int, in reader: inout CoreDataReader) throws(Stop)
      -> [(owner: ObjectRef, property: Int)]
    {
      let ownerLayout = reader.layout.entities[Int(owner.entity)]
      guard let r = ownerLayout.properties[p].relationship, let inv = r.inverseName,
        let member = reader.schema.entity(named: r.destinationEntity),
        let join = try reader.joinLayout(ownerLayout.name, r)
      else { return [] }
      let key = reader.graph.tables[Int(owner.entity)].objectKey(Int(owner.row))
      let rows: [(key: Int64, memberRank: Int64, ownerRank: Int64)]
      do throws(SQLiteDatabase.Failure) {
        let id = [Int(owner.entity), p, -1]
        if members[id] == nil {
          let columns = [join.memberColumn] + [join.memberOrder, join.ownerOrder].compactMap { $0 }
          members[id] = try reader.store.database.prepare(
            "SELECT \(columns.map(SQLiteDatabase.quote).joined(separator: ", ")) FROM \(SQLiteDatabase.quote(join.table)) WHERE \(SQLiteDatabase.quote(join.ownerColumn)) = ?"
          )
        }
        let statement = members[id]!
        statement.reset()
        try statement.bindInteger(0, key)
        var found: [(key: Int64, memberRank: Int64, ownerRank: Int64)] = []
        while try statement.step() {
          var k = 1
          let memberRank = join.memberOrder != nil ? statement.int64(k) : 0
          if join.memberOrder != nil { k += 1 }
          let ownerRank = join.ownerOrder != nil ? statement.int64(k) : 0
          found.append((statement.int64(0), memberRank, ownerRank))
        }
        rows = found
      } catch {
        try reader.report("sqlite-unreadable", "cannot read join table \(join.table): \(error.message)")
        return []
      }
      guard try counts(rows.count, of: owner, r.name, key: key, in: &reader) else { return [] }
      var sides: [(owner: ObjectRef, property: Int)] = []
      let memberTable = reader.schema.entities[member.root].table
      for row in rows {
        guard
          let m = try object(
            root: member.root, key: row.key, in: &reader,
            missing: "\(join.table).\(join.memberColumn) = \(row.key) is no Z_PK of \(memberTable)")
        else { continue }
        reader.links.append(Link(owner: owner, property: p, order: row.memberRank, key: row.key, member: m))
        // (A member of an entity that inherits the inverse has it at its own index.)
        guard let q = reader.layout.entities[Int(m.entity)].propertyIndex(inv) else { continue }
        reader.links.append(Link(owner: m, property: q, order: row.ownerRank, key: key, member: owner))
        // (Only for the chunk's own objects: a stub's join rows are not rendered.)
        let memberSide = reader.layout.entities[Int(m.entity)].properties[q].relationship
        if memberSide?.isOrdered == true && Int(m.row) >= before[Int(m.entity)]
          && Int(owner.row) < before[Int(owner.entity)]
        {
          if reader.ranksOnly(m, q, self) {
            ranked.append(.init(owner: m, property: q, order: row.ownerRank, key: key, member: owner))
          } else {
            sides.append((m, q))
          }
        }
      }
      return sides
    }

    /// Adds every member of `owner`'s to-many relationship at `property` (a one-to-many, or one
    /// without an inverse: its members' rows hold the owner's key, and their positions where it
    /// is ordered), in the whole-store reader's order; a stub member gets `owner` as its to-one
    /// inverse.
    mutating func readMembers(of owner: ObjectRef, property p: Int, in reader: inout CoreDataReader) throws(Stop) {
      let ownerLayout = reader.layout.entities[Int(owner.entity)]
      guard let r = ownerLayout.properties[p].relationship,
        let member = reader.schema.entity(named: r.destinationEntity),
        let column = reader.memberKeyColumn(of: ownerLayout.name, r)
      else { return }
      let inv = r.inverseName
      let key = reader.graph.tables[Int(owner.entity)].objectKey(Int(owner.row))
      let table = reader.schema.entities[member.root].table
      let rows: [(key: Int64, number: Int, order: Int64)]
      do throws(SQLiteDatabase.Failure) {
        let id = [Int(owner.entity), p]
        if members[id] == nil {
          let order = r.isOrdered ? ", " + SQLiteDatabase.quote(CoreDataSchema.orderColumn(ofKey: column)) : ""
          members[id] = try reader.store.database.prepare(
            "SELECT Z_PK, Z_ENT\(order) FROM \(SQLiteDatabase.quote(table)) WHERE \(SQLiteDatabase.quote(column)) = ?")
        }
        let statement = members[id]!
        statement.reset()
        try statement.bindInteger(0, key)
        var found: [(key: Int64, number: Int, order: Int64)] = []
        while try statement.step() {
          found.append((statement.int64(0), Int(statement.int64(1)), r.isOrdered ? statement.int64(2) : 0))
        }
        rows = found
      } catch {
        try reader.report("sqlite-unreadable", "cannot read table \(table): \(error.message)")
        return
      }
      guard try counts(rows.count, of: owner, r.name, key: key, in: &reader) else { return }
      for row in rows {
        guard let m = try stub(root: member.root, key: row.key, number: row.number, in: &reader) else { continue }
        // (A member of an entity that inherits the inverse has it at its own index.)
        if Int(m.row) >= before[Int(m.entity)], let inv,
          let q = reader.layout.entities[Int(m.entity)].propertyIndex(inv)
        {
          reader.graph.setToOne(m, property: q, owner)
        }
        reader.links.append(Link(owner: owner, property: p, order: row.order, key: row.key, member: m))
      }
    }
  }
}

/// A relationship of one object (`resolveReferencesWithStubs` reads each once).
private struct OwnerSide: Hashable {
  let owner: UInt64
  let property: Int
}
