import MapRuntime

extension CoreDataReader {
  /// Sets every to-one relationship from its foreign key, adds the owner to the inverse
  /// to-many relationship where there is one, and adds members found through hidden keys.
  mutating func resolveReferences() throws(Stop) {
    for t in toOnes {
      let targetTable = schema.entities[t.targetRoot].table
      guard let target = objects[t.targetRoot]?[t.key] else {
        try report(
          "sqlite-dangling", "\(t.table).\(t.column) row Z_PK=\(t.ownerKey): \(t.key) is no Z_PK of \(targetTable)")
        continue
      }
      let ownerLayout = layout.entities[Int(t.owner.entity)]
      let property = ownerLayout.properties[t.property]
      guard let r = property.relationship, try fits(target, property, "\(t.table).\(t.column) row Z_PK=\(t.ownerKey)")
      else { continue }
      graph.setToOne(t.owner, property: t.property, target)
      guard let inv = r.inverseName, let p = layout.entities[Int(target.entity)].propertyIndex(inv),
        layout.entities[Int(target.entity)].properties[p].relationship?.isToMany == true
      else { continue }
      links.append(Link(owner: target, property: p, order: t.order, key: t.ownerKey, member: t.owner))
    }
    for h in hiddenLinks {
      guard let owner = schema.entity(named: h.hidden.ownerEntity).flatMap({ objects[$0.root]?[h.owner] }) else {
        try report(
          "sqlite-dangling",
          "\(h.table).\(h.hidden.column) row Z_PK=\(h.key): \(h.owner) is no Z_PK of \(schema.entity(named: h.hidden.ownerEntity)?.table ?? "?")"
        )
        continue
      }
      guard let p = try hiddenProperty(h, of: owner) else { continue }
      links.append(Link(owner: owner, property: p, order: h.order, key: h.key, member: h.member))
    }
  }

  /// The property of `owner`, the object a row's hidden key `h` names, that lists the row: its
  /// to-many relationship without an inverse; nil (reported) when it has none, or the row is
  /// not of its destination entity.
  mutating func hiddenProperty(_ h: HiddenLink, of owner: ObjectRef) throws(Stop) -> Int? {
    let ownerLayout = layout.entities[Int(owner.entity)]
    guard let p = ownerLayout.propertyIndex(h.hidden.relationship) else {
      try report(
        "sqlite-layout",
        "\(h.table).\(h.hidden.column) row Z_PK=\(h.key): the row it names is a \(ownerLayout.name), which has no relationship \(h.hidden.relationship)"
      )
      return nil
    }
    guard try fits(h.member, ownerLayout.properties[p], "\(h.table).\(h.hidden.column) row Z_PK=\(h.key)") else {
      return nil
    }
    return p
  }

  /// Whether `target` is of the relationship's destination entity (or inherits from it).
  mutating func fits(_ target: ObjectRef, _ property: PropertyLayout, _ place: String) throws(Stop) -> Bool {
    guard let d = property.destinationIndex else { return false }
    if Self.fits(target, property, in: layout) { return true }
    try report(
      "sqlite-layout",
      "\(place): the row it names is a \(layout.entities[Int(target.entity)].name), not a \(layout.entities[d].name) (\(property.name))"
    )
    return false
  }

  /// Whether `target` is of `property`'s destination entity (or inherits from it).
  static func fits(_ target: ObjectRef, _ property: PropertyLayout, in layout: StoreLayout) -> Bool {
    guard let d = property.destinationIndex else { return false }
    return layout.entities[Int(target.entity)].ancestorIndexes.contains(d)
  }

  /// Many-to-many pairs, each once: (entity, relationship) whose inverse is also to-many.
  func manyToManyPairs() -> [(String, RelationshipDescription)] {
    var result: [(String, RelationshipDescription)] = []
    for e in schema.entities {
      guard let entity = layout.model.entity(named: e.name) else { continue }
      for r in entity.relationships where r.isToMany && !r.isTransient {
        guard let invName = r.inverseName, let d = layout.model.entity(named: r.destinationEntity),
          let inv = layout.model.allRelationships(of: d).first(where: { $0.name == invName }), inv.isToMany
        else { continue }
        // Once per pair: from the side met first in Z_ENT order (then by name).
        let declaring = schema.declaring(invName, of: d.name)?.name ?? d.name
        let mine = (number(e.name), r.name)
        let theirs = (number(declaring), invName)
        if mine <= theirs { result.append((e.name, r)) }
      }
    }
    return result
  }

  /// Where the join table of `entity.r` and its inverse keeps them, seen from `entity`'s side
  /// (reference §5.1): the table is named after one side (`Z_<ent><REL>`), each column after
  /// the relationship whose destination it holds (`Z_<destination ent><REL>`), ordered sides
  /// have a `Z_FOK_` column. Nil (reported) when the store lacks it.
  struct JoinLayout {
    var table: String
    /// The column of `entity`'s objects, and of their members.
    var ownerColumn: String
    var memberColumn: String
    /// The members' positions in `entity.r` and the owners' in the inverse, where ordered.
    var memberOrder: String?
    var ownerOrder: String?
  }

  /// The two names the join table of `entity.r` may have: after either side (`Z_<ent><REL>`,
  /// with the store's entity numbers), `entity`'s first.
  func joinTableNames(_ entity: String, _ r: RelationshipDescription) -> [String] {
    let inv = r.inverseName ?? ""
    let invDeclaring = schema.declaring(inv, of: r.destinationEntity)?.name ?? r.destinationEntity
    return [
      "Z_\(number(entity))\(CoreDataSchema.upper(r.name))", "Z_\(number(invDeclaring))\(CoreDataSchema.upper(inv))",
    ]
  }

  /// The join table of `entity`'s many-to-many `r` (its own or inherited: the table is named
  /// after the entity that declares it).
  mutating func joinLayout(_ entity: String, _ r: RelationshipDescription) throws(Stop) -> JoinLayout? {
    // Once per entity asking (a chunk asks for each of its rows and members) and once per
    // relationship, a failure reported once.
    let asked = entity + "." + r.name
    if let known = joinLayouts[asked] { return known }
    let declaring = schema.declaring(r.name, of: entity)?.name ?? entity
    let id = declaring + "." + r.name
    let found: JoinLayout?
    if let known = joinLayouts[id] {
      found = known
    } else {
      found = try findJoinLayout(declaring, r)
      joinLayouts[id] = .some(found)
    }
    joinLayouts[asked] = .some(found)
    return found
  }

  private mutating func findJoinLayout(_ entity: String, _ r: RelationshipDescription) throws(Stop) -> JoinLayout? {
    let inv = r.inverseName!
    let invDeclaring = schema.declaring(inv, of: r.destinationEntity)?.name ?? r.destinationEntity
    let candidates = joinTableNames(entity, r)
    guard let table = candidates.first(where: { tables[$0] != nil }) else {
      try report(
        "sqlite-layout",
        "the store has no join table \(candidates[0]) (or \(candidates[1])) for \(entity).\(r.name) and its inverse \(r.destinationEntity).\(inv)"
      )
      return nil
    }
    // The key columns the model gives (Specs/sqlite-store.md §4.3). Where the store numbered a
    // suffix otherwise (`Z_22USERS2` where the rule gives `Z_22USERS1`), a missing column is the
    // table's one other key column of the same stem.
    let present = tables[table]!
    let keys = present.filter { !$0.hasPrefix("Z_FOK_") }
    func keyColumn(_ derived: String, besides other: String) -> String {
      guard !present.contains(derived) else { return derived }
      let stem = String(derived.reversed().drop { $0.isNumber }.reversed())
      let found = keys.filter { c in
        c != other && c.hasPrefix(stem) && c.dropFirst(stem.count).allSatisfy(\.isNumber)
      }
      return found.count == 1 ? found[0] : derived
    }
    let reflexive = schema.isSelfInverse(r, of: entity)
    let (owned, members) = (
      schema.joinKey(r.name, of: entity) ?? "", reflexive ? "REFLEXIVE" : schema.joinKey(inv, of: invDeclaring) ?? ""
    )
    var ownerColumn = keyColumn(owned, besides: members)
    var memberColumn = keyColumn(members, besides: ownerColumn)
    // The naming side's first column holds its owners; read from the other side, the roles swap.
    if reflexive && table != candidates[0] { swap(&ownerColumn, &memberColumn) }
    let columns = Set(tables[table]!)
    for c in [ownerColumn, memberColumn] where !columns.contains(c) {
      try report(
        "sqlite-layout",
        "join table \(table) has no column \(c) for \(entity).\(r.name) ↔ \(r.destinationEntity).\(inv)")
      return nil
    }
    func order(_ key: String) -> String { "Z_FOK_" + (key == "REFLEXIVE" ? key : String(key.dropFirst(2))) }
    var result = JoinLayout(table: table, ownerColumn: ownerColumn, memberColumn: memberColumn)
    for (ordered, key, what, slot) in [
      (r.isOrdered, memberColumn, "\(entity).\(r.name)", \JoinLayout.memberOrder),
      (layout.model.inverse(of: r)?.isOrdered == true, ownerColumn, "\(r.destinationEntity).\(inv)", \.ownerOrder),
    ] where ordered {
      guard columns.contains(order(key)) else {
        try report("sqlite-layout", "join table \(table) has no column \(order(key)) for the order of \(what)")
        return nil
      }
      result[keyPath: slot] = order(key)
    }
    return result
  }

  /// Reads the join table of `entity.r` and its inverse (`joinLayout`).
  mutating func readJoinTable(_ entity: String, _ r: RelationshipDescription) throws(Stop) {
    guard let join = try joinLayout(entity, r) else { return }
    let inv = r.inverseName!
    let table = join.table
    let (ownerColumn, memberColumn) = (join.ownerColumn, join.memberColumn)
    let select = [ownerColumn, memberColumn] + [join.memberOrder, join.ownerOrder].compactMap { $0 }
    let sql = "SELECT \(select.map(SQLiteDatabase.quote).joined(separator: ", ")) FROM \(SQLiteDatabase.quote(table))"
    let rows: [[SQLiteValue]]
    do {
      rows = try store.database.rows(sql)
    } catch {
      try report("sqlite-unreadable", "cannot read join table \(table): \(error.message)")
      return
    }
    guard let ownerRoot = schema.entity(named: entity)?.root,
      let memberRoot = schema.entity(named: r.destinationEntity)?.root
    else { return }
    for row in rows {
      guard let ok = row[0].integer, let mk = row[1].integer else {
        try report("sqlite-layout", "join table \(table): a row without two integer keys")
        continue
      }
      guard let owner = objects[ownerRoot]?[ok] else {
        try report(
          "sqlite-dangling", "\(table).\(ownerColumn) = \(ok) is no Z_PK of \(schema.entities[ownerRoot].table)")
        continue
      }
      guard let member = objects[memberRoot]?[mk] else {
        try report(
          "sqlite-dangling", "\(table).\(memberColumn) = \(mk) is no Z_PK of \(schema.entities[memberRoot].table)")
        continue
      }
      let ownerLayout = layout.entities[Int(owner.entity)]
      let memberLayout = layout.entities[Int(member.entity)]
      guard let p = ownerLayout.propertyIndex(r.name), let q = memberLayout.propertyIndex(inv) else {
        try report(
          "sqlite-layout",
          "join table \(table) row (\(ok), \(mk)): joins a \(ownerLayout.name) and a \(memberLayout.name)")
        continue
      }
      guard try fits(member, ownerLayout.properties[p], "join table \(table) row (\(ok), \(mk))"),
        try fits(owner, memberLayout.properties[q], "join table \(table) row (\(ok), \(mk))")
      else { continue }
      // The positions follow the keys in `select`, where the sides are ordered.
      let memberRank = join.memberOrder != nil ? row[2].integer ?? 0 : 0
      let ownerRank = join.ownerOrder != nil ? row[join.memberOrder != nil ? 3 : 2].integer ?? 0 : 0
      links.append(Link(owner: owner, property: p, order: memberRank, key: mk, member: member))
      links.append(Link(owner: member, property: q, order: ownerRank, key: ok, member: owner))
    }
  }
}
