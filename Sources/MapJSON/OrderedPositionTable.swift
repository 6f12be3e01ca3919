import MapRuntime

/// The index of each member of an ordered to-many relationship in its owner's whole list, for a
/// JSON store read in chunks with stubs into a format that keeps the order in the members' rows
/// (Core Data SQLite's `Z_FOK_`, `Specs/limits.md` "Memory").
///
/// A JSON store lists a relationship's members with their owner only. A chunk that holds a
/// member and a stub of its owner (the owner is in another chunk) sees the member in the stub's
/// list, not where the whole list puts it. So a first pass over the store (`collect`) reads the
/// chunks as the run will, and keeps, for each member an owner's list names outside the owner's
/// chunk, its index; the run's chunks then give it to the member
/// (`ObjectGraph.orderedPositions`). Both passes cut the store into the same chunks (the windows
/// depend on the bytes and the limit only), so each link out of a chunk in the first is a link
/// from a stub in the second.
///
/// Entries are keyed by two keyed hashes (`Hasher`, seeded anew by each process, so no store can
/// be made to collide) of the owner's id, the relationship and the member's id: 128 bits, a
/// chance of 2^-128 per pair that two links share a key. They are held in memory, at most an
/// eighth of the limit (at least 4 MiB) at `bytesPerEntry` each; a store with more links out of
/// chunks is refused (`run-memory-limit`).
struct OrderedPositionTable {
  /// What an entry is counted as: its two hashes and index, and the dictionary's room around them.
  static let bytesPerEntry = 32

  private struct Key: Hashable {
    var a: UInt64
    var b: UInt64
  }

  private var indexes: [Key: Int32] = [:]
  /// Per entity (layout index) and property: whether it is one of the ordered relationships.
  private let ordered: [[Bool]]
  /// At most this many entries.
  let capacity: Int

  /// The relationships named in `names` (`Entity.relationship`, `StreamingPlan.positionsOnly`).
  init(layout: StoreLayout, names: Set<String>, budget: MemoryBudget) {
    ordered = layout.entities.map { e in
      e.properties.map { p in
        guard let r = p.relationship, r.isToMany, r.isOrdered else { return false }
        return names.contains(e.name + "." + p.name)
      }
    }
    capacity = max(budget.limit / 8, 4 << 20) / Self.bytesPerEntry
  }

  var count: Int { indexes.count }

  /// Keeps the index of each stub that an ordered relationship of one of the chunk's own objects
  /// lists; false once the table holds more than `capacity` entries.
  mutating func collect(_ graph: ObjectGraph) -> Bool {
    for (e, table) in graph.tables.enumerated() where ordered[e].contains(true) {
      for (p, isOrdered) in ordered[e].enumerated() where isOrdered {
        guard let many = table.columns[p] as? ToManyColumn else { continue }
        let name = table.layout.properties[p].name
        for row in 0..<table.realCount where many.count(row) > 0 {
          var ownerID: String?
          for (i, m) in many.targets(row).enumerated() where Self.isStub(m, in: graph) {
            let owner = ownerID ?? graph.idText(ObjectRef(entity: e, row: row))
            ownerID = owner
            indexes[Self.key(owner, name, graph.idText(m))] = Int32(truncatingIfNeeded: i)
          }
        }
        if indexes.count > capacity { return false }
      }
    }
    return true
  }

  /// Gives each of the chunk's objects that an ordered relationship of a stub lists its index in
  /// the whole list, as `collect` kept it. A member the table lacks (the owner's list does not
  /// name it) is left out: the two sides then disagree, which the reader's check of both sides
  /// refuses (`ChunkLinks`).
  func place(_ graph: ObjectGraph) {
    guard !indexes.isEmpty else { return }
    for (e, table) in graph.tables.enumerated() where ordered[e].contains(true) {
      guard let first = table.stubsFrom, first < table.count else { continue }
      for (p, isOrdered) in ordered[e].enumerated() where isOrdered {
        guard let many = table.columns[p] as? ToManyColumn else { continue }
        let name = table.layout.properties[p].name
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
