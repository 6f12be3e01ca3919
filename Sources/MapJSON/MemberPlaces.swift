import MapRuntime

/// Where each member of a to-many relationship stands in its owner's list, for a JSON store read
/// in chunks with stubs into a format that keeps a to-many's members in their own rows (Core
/// Data SQLite: a one-to-many's owner key and `Z_FOK_` position in the member's row, a
/// many-to-many's positions in its join rows; `Specs/limits.md` "Memory").
///
/// A JSON store lists a relationship's members with their owner only. A chunk that holds a
/// member and not its owner does not see the owner's whole list: the member of an ordered
/// relationship with an inverse sits in a stub of its owner's list, not where the whole list
/// puts it; the member of a to-many without an inverse does not name its owner at all. So a
/// first pass over the store (`collect`) reads the chunks as the run will, and keeps, for each
/// member an owner's list names outside the owner's chunk (a stub there):
/// - in an ordered relationship with an inverse, its index (`indexes`);
/// - in a to-many without an inverse, its owner's id and index (`owners`).
/// The run's chunks then give each member its index (`ObjectGraph.orderedPositions`) and, for a
/// relationship without an inverse, a stub of its owner listing it (`place`). Both passes cut the
/// store into the same chunks (the windows depend on the bytes and the limit only), so each link
/// to a stub in the first is a link from a stub in the second.
///
/// Entries are keyed by two keyed hashes (`Hasher`, seeded anew by each process, so no store can
/// be made to collide): 128 bits, a chance of 2^-128 per pair that two links share a key. They
/// are held in memory, at most an eighth of the limit (at least 4 MiB): `bytesPerIndex` each, and
/// `bytesPerOwner` and the owner's id for an owner; a store with more is refused
/// (`run-memory-limit`).
struct MemberPlaces {
  /// What an index is counted as: its two hashes and index, and the dictionary's room around them.
  static let bytesPerIndex = 32
  /// What an owner is counted as besides its id's bytes: the key, the list and the string.
  static let bytesPerOwner = 80

  private struct Key: Hashable {
    var a: UInt64
    var b: UInt64
  }

  private enum Role {
    case none
    /// An ordered to-many with an inverse: its members name their owner; their index is kept.
    case index
    /// A to-many without an inverse: its members' owners (and indexes) are kept.
    case owner(ordered: Bool)
  }

  private var indexes: [Key: Int32] = [:]
  private var owners: [Key: [(owner: String, index: Int32)]] = [:]
  /// Per entity (layout index) and property.
  private let roles: [[Role]]
  /// Per entity: the relationships without an inverse (owner's entity index, property) whose
  /// members it may be, by the relationship's declared name (`Entity.relationship`).
  private let ownedBy: [[(declared: String, ordered: Bool)]]
  private let layout: StoreLayout
  /// The bytes counted so far, and at most.
  private(set) var bytes = 0
  let capacity: Int

  /// The relationships named in `names` (`Entity.relationship`): ordered ones with an inverse,
  /// and to-many ones without an inverse.
  init(layout: StoreLayout, names: Set<String>, budget: MemoryBudget) {
    self.layout = layout
    let model = layout.model
    func declared(_ e: String, _ r: String) -> String { (model.declaring(r, of: e)?.name ?? e) + "." + r }
    roles = layout.entities.map { e in
      e.properties.map { p in
        guard let r = p.relationship, r.isToMany, names.contains(e.name + "." + p.name) else { return .none }
        if r.inverseName == nil { return .owner(ordered: r.isOrdered) }
        return r.isOrdered ? .index : .none
      }
    }
    var owned = [[(declared: String, ordered: Bool)]](repeating: [], count: layout.entities.count)
    var seen: Set<String> = []
    for (e, entity) in layout.entities.enumerated() {
      for (p, role) in roles[e].enumerated() {
        guard case .owner(let ordered) = role, let r = entity.properties[p].relationship else { continue }
        let name = declared(entity.name, r.name)
        guard seen.insert(name).inserted else { continue }
        for d in layout.entities where model.isKind(d.name, of: r.destinationEntity) {
          owned[d.index].append((name, ordered))
        }
      }
    }
    ownedBy = owned
    capacity = max(budget.limit / 8, 4 << 20)
  }

  var isEmpty: Bool { indexes.isEmpty && owners.isEmpty }

  /// Keeps what the chunk's own objects' lists say of their members that are stubs; false once
  /// the entries take more than `capacity` bytes.
  mutating func collect(_ graph: ObjectGraph) -> Bool {
    for (e, table) in graph.tables.enumerated() {
      for (p, role) in roles[e].enumerated() {
        if case .none = role { continue }
        guard let many = table.columns[p] as? ToManyColumn else { continue }
        let name = Self.declared(table, p, layout)
        for row in 0..<table.realCount where many.count(row) > 0 {
          var ownerID: String?
          for (i, m) in many.targets(row).enumerated() where Self.isStub(m, in: graph) {
            let owner = ownerID ?? graph.idText(ObjectRef(entity: e, row: row))
            ownerID = owner
            let index = Int32(truncatingIfNeeded: i)
            switch role {
            case .index:
              indexes[Self.key(owner, name, graph.idText(m))] = index
              bytes += Self.bytesPerIndex
            case .owner:
              owners[Self.key("", name, graph.idText(m)), default: []].append((owner, index))
              bytes += Self.bytesPerOwner + owner.utf8.count
            case .none: break
            }
          }
        }
        if bytes > capacity { return false }
      }
    }
    return true
  }

  /// Gives the chunk's objects what `collect` kept of them: each member of an ordered
  /// relationship of a stub its index in the whole list, and each member of a to-many without an
  /// inverse whose owner is out of the chunk a stub of that owner listing it (and its index, where
  /// ordered). A member the table lacks (no list names it out of its chunk) is left as it is: of
  /// a relationship with an inverse, the two sides then disagree, which the reader's check of
  /// both sides refuses (`ChunkLinks`). Returns the id of an owner that does not give an entity
  /// and number (`Entity/n`), which a stub needs, if any (nothing of it placed).
  func place(_ graph: ObjectGraph) -> String? {
    if !owners.isEmpty, let bad = placeOwners(graph) { return bad }
    guard !indexes.isEmpty else { return nil }
    for (e, table) in graph.tables.enumerated() {
      guard let first = table.stubsFrom, first < table.count else { continue }
      for (p, role) in roles[e].enumerated() {
        guard case .index = role, let many = table.columns[p] as? ToManyColumn else { continue }
        let name = Self.declared(table, p, layout)
        for row in first..<table.count where many.count(row) > 0 {
          let owner = ObjectRef(entity: e, row: row)
          let ownerID = graph.idText(owner)
          for m in many.targets(row) {
            guard let i = indexes[Self.key(ownerID, name, graph.idText(m))] else { continue }
            graph.orderedPositions[OrderedMember(owner: owner, property: p, member: m)] = Int(i)
          }
        }
      }
    }
    return nil
  }

  /// The stubs of owners of members without an inverse, as `place` says.
  private func placeOwners(_ graph: ObjectGraph) -> String? {
    let counts = graph.tables.map(\.count)
    var stubs: [String: ObjectRef] = [:]
    for (e, table) in graph.tables.enumerated() {
      guard let first = table.stubsFrom else { continue }
      for row in first..<table.count {
        let stub = ObjectRef(entity: e, row: row)
        stubs[graph.idText(stub)] = stub
      }
    }
    var added = false
    for (e, table) in graph.tables.enumerated() where !ownedBy[e].isEmpty {
      for row in 0..<table.realCount {
        let member = ObjectRef(entity: e, row: row)
        var memberID: String?
        for (name, ordered) in ownedBy[e] {
          let id = memberID ?? graph.idText(member)
          memberID = id
          guard let list = owners[Self.key("", name, id)] else { continue }
          for (ownerID, index) in list {
            let owner: ObjectRef
            if let known = stubs[ownerID] {
              owner = known
            } else {
              guard let made = Self.stub(ownerID, of: name, in: graph) else { return ownerID }
              owner = made
              stubs[ownerID] = made
              added = true
            }
            let relationship = String(name[name.index(after: name.firstIndex(of: ".")!)...])
            guard let p = graph.table(owner).layout.propertyIndex(relationship),
              let many = graph.table(owner).columns[p] as? ToManyColumn
            else { continue }
            _ = many.add(Int(owner.row), member)
            if ordered {
              graph.orderedPositions[OrderedMember(owner: owner, property: p, member: member)] = Int(index)
            }
          }
        }
      }
    }
    if added {
      for (e, table) in graph.tables.enumerated() where table.count > counts[e] && table.stubsFrom == nil {
        table.stubsFrom = counts[e]
      }
      graph.finalize()
    }
    return nil
  }

  /// A stub of the object `id` names, an owner through relationship `declared`: an object of the
  /// entity the id names, which must be a kind of the relationship's entity, numbered as it says.
  private static func stub(_ id: String, of declared: String, in graph: ObjectGraph) -> ObjectRef? {
    let model = graph.layout.model
    let ownerEntity = String(declared[..<declared.firstIndex(of: ".")!])
    guard let slash = id.firstIndex(of: "/"), let e = graph.layout.entityIndex(String(id[..<slash])),
      model.isKind(graph.layout.entities[e].name, of: ownerEntity),
      ObjectKeysJSON.number(Array(id.utf8), entity: graph.layout.entities[e].name) != nil
    else { return nil }
    let table = graph.tables[e]
    let row = table.appendObject()
    table.ids?.set(row, .string(.native(id)))
    return ObjectRef(entity: e, row: row)
  }

  /// `Entity.relationship`, the entity the one that declares it.
  private static func declared(_ table: EntityTable, _ p: Int, _ layout: StoreLayout) -> String {
    let name = table.layout.properties[p].name
    return (layout.model.declaring(name, of: table.layout.name)?.name ?? table.layout.name) + "." + name
  }

  private static func isStub(_ ref: ObjectRef, in graph: ObjectGraph) -> Bool {
    guard let first = graph.table(ref).stubsFrom else { return false }
    return Int(ref.row) >= first
  }

  private static func key(_ owner: String, _ relationship: String, _ member: String) -> Key {
    func hash(_ salt: UInt8) -> UInt64 {
      var h = Hasher()
      h.combine(salt)
      h.combine(owner)
      h.combine(relationship)
      h.combine(member)
      return UInt64(bitPattern: Int64(h.finalize()))
    }
    return Key(a: hash(0), b: hash(1))
  }
}
