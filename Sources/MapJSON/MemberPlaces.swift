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
/// - in a to-many without an inverse, its owner (entity and number) and index (`owners`).
/// The run's chunks then give each member its index (`ObjectGraph.orderedPositions`) and, for a
/// relationship without an inverse, a stub of its owner listing it (`place`). Both passes cut the
/// store into the same chunks (the windows depend on the bytes and the limit only), so each link
/// to a stub in the first is a link from a stub in the second.
///
/// Entries are keyed by two keyed hashes (`Hasher`, seeded anew by each process, so no store can
/// be made to collide): 128 bits, a chance of 2^-128 per pair that two links share a key. They
/// are held in memory, at most an eighth of the limit, `bytesPerIndex` or
/// `bytesPerOwner` each. A store with more (`collect` says `full`) takes the first pass again
/// with the places on disk (`PlaceSpill`), in the same eighth of the limit.
struct MemberPlaces {
  /// What an index is counted as: its key and index, and the dictionary's room around them
  /// (its table three-quarters full at most).
  static let bytesPerIndex = 32
  /// What an owner is counted as: its key, entity, number and index, and the room around them.
  static let bytesPerOwner = 48

  private struct Key: Hashable {
    var a: UInt64
    var b: UInt64
  }

  /// What is kept of a property's members, with the relationship's declared name
  /// (`Entity.relationship`, the entity the one that declares it), which the keys hold.
  private enum Role {
    case none
    /// An ordered to-many with an inverse: its members name their owner; their index is kept.
    case index(declared: String)
    /// A to-many without an inverse: its members' owners (and indexes) are kept.
    case owner(declared: String, ordered: Bool)
  }

  /// An owner of a member of a to-many without an inverse: its entity (layout index) and number
  /// (a stub's id is `Entity/number`), and the member's index in its list.
  private struct Owner {
    var entity: Int32
    var index: Int32
    var number: Int64
  }

  private var indexes: [Key: Int32] = [:]
  private var owners: [Key: Owner] = [:]
  /// Owners beyond the first of members two objects list (which the writer refuses).
  private var moreOwners: [Key: [Owner]] = [:]
  /// Per entity (layout index) and property.
  private let roles: [[Role]]
  /// Per entity: the relationships without an inverse whose members it may be: the declared
  /// name, the relationship's name and whether it is ordered.
  private let ownedBy: [[(declared: String, name: String, ordered: Bool)]]
  /// The bytes counted so far, and at most.
  private(set) var bytes = 0
  let capacity: Int
  /// The places on disk, for a store whose places pass `capacity` (nil: in memory).
  private let spill: PlaceSpill?
  /// The places kept (each member's index or owner, once per key) and those the chunks took: a
  /// store read whole takes every one, which the reader checks at its end (`ChunkReader.finish`),
  /// so that a place lost on the way refuses the run instead of leaving a member out.
  private(set) var kept = 0
  private(set) var placed = 0

  /// The relationships named in `names` (`Entity.relationship`): ordered ones with an inverse,
  /// and to-many ones without an inverse; with `spillingTo`, kept on disk in that folder.
  init(layout: StoreLayout, names: Set<String>, budget: MemoryBudget, spillingTo folder: String? = nil) {
    let model = layout.model
    roles = layout.entities.map { e in
      e.properties.map { p in
        guard let r = p.relationship, r.isToMany, names.contains(e.name + "." + p.name) else { return .none }
        let declared = (model.declaring(r.name, of: e.name)?.name ?? e.name) + "." + r.name
        if r.inverseName == nil { return .owner(declared: declared, ordered: r.isOrdered) }
        return r.isOrdered ? .index(declared: declared) : .none
      }
    }
    var owned = [[(declared: String, name: String, ordered: Bool)]](repeating: [], count: layout.entities.count)
    var seen: Set<String> = []
    for (e, entity) in layout.entities.enumerated() {
      for (p, role) in roles[e].enumerated() {
        guard case .owner(let name, let ordered) = role, let r = entity.properties[p].relationship else { continue }
        guard seen.insert(name).inserted else { continue }
        for d in layout.entities where model.isKind(d.name, of: r.destinationEntity) {
          owned[d.index].append((name, r.name, ordered))
        }
      }
    }
    ownedBy = owned
    capacity = budget.limit / 8
    spill = folder.map { PlaceSpill(capacity: max(budget.limit / 8, 64 << 10), folder: $0) }
  }

  /// Whether nothing was kept (after `finish`).
  var isEmpty: Bool { kept == 0 }
  /// The entries and look-ups the places on disk hold at most (0 in memory).
  var most: Int { spill?.most ?? 0 }

  enum Collected {
    case kept
    /// The entries take more than `capacity` bytes.
    case full
    /// An owner of a member out of its chunk, of a to-many without an inverse, whose id is not
    /// `Entity/number`: a stub of it cannot be made (the id).
    case unnumbered(String)
    /// The places on disk need more runs than `PlaceSpill.maxRuns` (the most they hold).
    case tooMany(Int)
    case failed(StoreIOError)
  }

  /// Keeps what the chunk's own objects' lists say of their members that are stubs; on disk,
  /// also the keys the chunk (at `window`, its first byte) will look up in the second pass.
  mutating func collect(_ graph: ObjectGraph, window: Int) -> Collected {
    do throws(StoreIOError) {
      let outcome = try keep(graph)
      if case .kept = outcome, let spill, try !request(graph, window: window, spill) { return .tooMany(spill.most) }
      return outcome
    } catch {
      return .failed(error)
    }
  }

  /// The keys `place` will look up in the chunk at `window`, kept on disk (the same walks).
  /// False when the list is full.
  private func request(_ graph: ObjectGraph, window: Int, _ spill: PlaceSpill) throws(StoreIOError) -> Bool {
    guard
      try eachIndexLookup(
        graph,
        { (_, _, _, key) throws(StoreIOError) -> Bool in
          try spill.request(key.a, key.b, window: window)
        })
    else { return false }
    return try eachOwnerLookup(graph) { (_, _, _, key) throws(StoreIOError) -> Bool in
      try spill.request(key.a, key.b, window: window)
    }
  }

  /// Calls `body` with each member of an ordered list (of a relationship with an inverse) of the
  /// chunk's stubs, with the stub, the property and the key the member's index is kept by, until
  /// it returns false (false then): the look-ups of `place`, and on disk of `request`.
  private func eachIndexLookup<E: Error>(
    _ graph: ObjectGraph,
    _ body: (_ owner: ObjectRef, _ property: Int, _ member: ObjectRef, _ key: Key) throws(E) -> Bool
  ) throws(E) -> Bool {
    for (e, table) in graph.tables.enumerated() {
      guard let first = table.stubsFrom, first < table.count else { continue }
      for (p, role) in roles[e].enumerated() {
        guard case .index(let name) = role, let many = table.columns[p] as? ToManyColumn else { continue }
        for row in first..<table.count where many.count(row) > 0 {
          let owner = ObjectRef(entity: e, row: row)
          let ownerID = graph.idText(owner)
          for m in many.targets(row) {
            guard try body(owner, p, m, Self.key(ownerID, name, graph.idText(m))) else { return false }
          }
        }
      }
    }
    return true
  }

  /// Calls `body` with each of the chunk's objects that may be the member of a to-many without an
  /// inverse, once per such relationship, with its name, whether it is ordered and the key the
  /// member's owners are kept by, until it returns false (false then): the look-ups of
  /// `placeOwners`, and on disk of `request`.
  private func eachOwnerLookup<E: Error>(
    _ graph: ObjectGraph,
    _ body: (_ member: ObjectRef, _ relationship: String, _ ordered: Bool, _ key: Key) throws(E) -> Bool
  ) throws(E) -> Bool {
    for (e, table) in graph.tables.enumerated() where !ownedBy[e].isEmpty {
      for row in 0..<table.realCount {
        let member = ObjectRef(entity: e, row: row)
        let id = graph.idText(member)
        for (name, relationship, ordered) in ownedBy[e] {
          guard try body(member, relationship, ordered, Self.key("", name, id)) else { return false }
        }
      }
    }
    return true
  }

  /// Ends the first pass: on disk, the entries are joined with the requests. False when the
  /// places need more runs than they may have.
  mutating func finish() throws(StoreIOError) -> Bool {
    guard let spill else {
      kept = indexes.count + owners.count + moreOwners.values.reduce(0) { $0 + $1.count }
      return true
    }
    guard try spill.join() else { return false }
    kept = spill.kept
    return true
  }

  /// Keeps what the chunk's own objects' lists say of their members that are stubs.
  private mutating func keep(_ graph: ObjectGraph) throws(StoreIOError) -> Collected {
    for (e, table) in graph.tables.enumerated() {
      for (p, role) in roles[e].enumerated() {
        if case .none = role { continue }
        guard let many = table.columns[p] as? ToManyColumn else { continue }
        for row in 0..<table.realCount where many.count(row) > 0 {
          var ownerID: String?
          var number: Int64?
          for (i, m) in many.targets(row).enumerated() where Self.isStub(m, in: graph) {
            let owner = ownerID ?? graph.idText(ObjectRef(entity: e, row: row))
            ownerID = owner
            let index = Int32(truncatingIfNeeded: i)
            switch role {
            case .index(let name):
              let key = Self.key(owner, name, graph.idText(m))
              if let spill {
                guard try spill.keep(key.a, key.b, index: index, owner: nil) else { return .tooMany(spill.most) }
                continue
              }
              indexes[key] = index
              bytes += Self.bytesPerIndex
            case .owner(let name, _):
              number = number ?? ObjectKeysJSON.number(Array(owner.utf8), entity: table.layout.name)
              guard let number else { return .unnumbered(owner) }
              let key = Self.key("", name, graph.idText(m))
              if let spill {
                guard try spill.keep(key.a, key.b, index: index, owner: (Int32(e), number)) else {
                  return .tooMany(spill.most)
                }
                continue
              }
              let kept = Owner(entity: Int32(e), index: index, number: number)
              if owners[key] == nil { owners[key] = kept } else { moreOwners[key, default: []].append(kept) }
              bytes += Self.bytesPerOwner
            case .none: break
            }
          }
        }
        if spill == nil && bytes > capacity { return .full }
      }
    }
    return .kept
  }

  /// Gives the chunk's objects what `collect` kept of them: each member of an ordered
  /// relationship of a stub its index in the whole list, and each member of a to-many without an
  /// inverse whose owner is out of the chunk a stub of that owner listing it (and its index, where
  /// ordered). A member the table lacks (no list names it out of its chunk) is left as it is: of
  /// a relationship with an inverse, the two sides then disagree, which the reader's check of
  /// both sides refuses (`ChunkLinks`). On disk, the places of the chunk at `window` are read
  /// first (the chunks come in order).
  mutating func place(_ graph: ObjectGraph, window: Int) throws(StoreIOError) {
    if let spill {
      indexes.removeAll(keepingCapacity: true)
      owners.removeAll(keepingCapacity: true)
      moreOwners.removeAll(keepingCapacity: true)
      for r in try spill.take(window: window) {
        let key = Key(a: r.a, b: r.b)
        guard r.entity >= 0 else {
          indexes[key] = r.index
          continue
        }
        let kept = Owner(entity: r.entity, index: r.index, number: r.number)
        if owners[key] == nil { owners[key] = kept } else { moreOwners[key, default: []].append(kept) }
      }
    }
    if !owners.isEmpty { placed += placeOwners(graph) }
    guard !indexes.isEmpty else { return }
    var found = 0
    _ = eachIndexLookup(graph) { owner, p, m, key in
      if let i = indexes[key] {
        found += 1
        graph.orderedPositions[OrderedMember(owner: owner, property: p, member: m)] = Int(i)
      }
      return true
    }
    placed += found
  }

  /// The stubs of owners of members without an inverse, as `place` says; the owners placed.
  private func placeOwners(_ graph: ObjectGraph) -> Int {
    var placed = 0
    // The chunk's stubs by id, made once a member has an owner out of the chunk.
    var known: [String: ObjectRef]?
    func stubs() -> [String: ObjectRef] {
      var result: [String: ObjectRef] = [:]
      for (e, table) in graph.tables.enumerated() {
        guard let first = table.stubsFrom else { continue }
        for row in first..<table.count {
          let stub = ObjectRef(entity: e, row: row)
          result[graph.idText(stub)] = stub
        }
      }
      return result
    }
    var added = false
    _ = eachOwnerLookup(graph) { member, relationship, ordered, key in
      guard let first = owners[key] else { return true }
      for kept in [first] + (moreOwners[key] ?? []) {
        let ownerID = graph.tables[Int(kept.entity)].layout.name + "/" + String(kept.number)
        if known == nil { known = stubs() }
        let owner: ObjectRef
        if let stub = known![ownerID] {
          owner = stub
        } else {
          owner = graph.appendStub(entity: Int(kept.entity), id: ownerID)
          known![ownerID] = owner
          added = true
        }
        let index = kept.index
        guard let p = graph.table(owner).layout.propertyIndex(relationship),
          let many = graph.table(owner).columns[p] as? ToManyColumn
        else { continue }
        _ = many.add(Int(owner.row), member)
        placed += 1
        if ordered {
          graph.orderedPositions[OrderedMember(owner: owner, property: p, member: member)] = Int(index)
        }
      }
      return true
    }
    if added { graph.finalize() }
    return placed
  }

  private static func isStub(_ ref: ObjectRef, in graph: ObjectGraph) -> Bool {
    guard let first = graph.table(ref).stubsFrom else { return false }
    return Int(ref.row) >= first
  }

  private static func key(_ owner: String, _ relationship: String, _ member: String) -> Key {
    func hash(_ salt: UInt8) -> UInt64 {
      KeyedHash.of(salt) {
        $0.combine(owner)
        $0.combine(relationship)
        $0.combine(member)
      }
    }
    return Key(a: hash(0), b: hash(1))
  }
}
