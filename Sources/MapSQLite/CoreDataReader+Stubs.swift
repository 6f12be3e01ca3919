import MapRuntime

extension CoreDataReader {
  /// For a chunk of a run in chunks (`CoreDataChunkReader`): sets each to-one relationship of
  /// the chunk's rows from its foreign key, to an object of the chunk or else to a stub, an
  /// object with only its `Z_PK` (`EntityTable.stubsFrom`), one per row referred to; the
  /// row must exist in its table, as the whole-store reader checks. Each stub gets the chunk's
  /// objects that refer to it in its inverse to-many, as a whole read gives them.
  /// `StreamingPlan` lets only such chunks refer out (to-one relationships whose inverse is an
  /// unordered to-many or none, to entities without parent or sub-entities).
  mutating func resolveReferencesWithStubs() throws(Stop) {
    let before = graph.tables.map(\.count)
    var lookups: [Int: SQLiteStatement] = [:]
    for t in toOnes {
      let targetTable = schema.entities[t.targetRoot].table
      var target = objects[t.targetRoot]?[t.key]
      if target == nil {
        // The row it names, and its entity, by its rowid (Core Data's INTEGER PRIMARY KEY).
        var number: Int?
        do throws(SQLiteDatabase.Failure) {
          if lookups[t.targetRoot] == nil {
            lookups[t.targetRoot] = try store.database.prepare(
              "SELECT Z_ENT FROM \(SQLiteDatabase.quote(targetTable)) WHERE Z_PK = ?")
          }
          let lookup = lookups[t.targetRoot]!
          lookup.reset()
          try lookup.bindInteger(0, t.key)
          if try lookup.step(), !lookup.isNull(0) { number = Int(lookup.int64(0)) }
        } catch {
          try report("sqlite-unreadable", "cannot read table \(targetTable): \(error.message)")
          continue
        }
        guard let number else {
          try report(
            "sqlite-dangling", "\(t.table).\(t.column) row Z_PK=\(t.ownerKey): \(t.key) is no Z_PK of \(targetTable)")
          continue
        }
        guard let k = entityOfNumber[number], schema.entities[k].root == t.targetRoot else {
          try report(
            "sqlite-layout", "\(targetTable) row Z_PK=\(t.key): Z_ENT \(number) is no entity of this table's hierarchy")
          continue
        }
        let stub = graph.appendObject(entity: schema.entities[k].index)
        graph.tables[Int(stub.entity)].setObjectKey(Int(stub.row), t.key)
        objects[t.targetRoot, default: [:]][t.key] = stub
        target = stub
      }
      guard let target else { continue }
      let property = layout.entities[Int(t.owner.entity)].properties[t.property]
      guard let r = property.relationship, try fits(target, property, "\(t.table).\(t.column) row Z_PK=\(t.ownerKey)")
      else { continue }
      graph.setToOne(t.owner, property: t.property, target)
      guard let inv = r.inverseName, let p = layout.entities[Int(target.entity)].propertyIndex(inv),
        layout.entities[Int(target.entity)].properties[p].relationship?.isToMany == true
      else { continue }
      links.append(Link(owner: target, property: p, order: t.order, key: t.ownerKey, member: t.owner))
    }
    for (e, table) in graph.tables.enumerated() where table.count > before[e] { table.stubsFrom = before[e] }
    addLinks()
  }
}
