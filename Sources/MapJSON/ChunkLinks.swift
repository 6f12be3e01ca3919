import MapJSONText
import MapRuntime

/// The references of a JSON store's chunk (`ChunkReader` with stubs, `Specs/limits.md`
/// "Memory"): each id a chunk's object names points at an object of the chunk or, outside it,
/// at a **stub** of the object (`EntityTable.stubsFrom`), made from the id alone: an id
/// `Entity/n` is an object of `Entity` numbered n (B.3 of `Specs/store-format.md`), the
/// numbers a step over the chunk keeps (`ChunkNumbering` holds the entity to its ids' numbers).
///
/// A store read whole fills in a relationship's side the store left out, and finds an id that
/// names no object; a chunk cannot, since the other side is in another chunk. So every link a
/// chunk's object writes is counted, per side of its relationship: a keyed hash of (the pair of
/// relationships, the two ids in one orientation) added up, with the number of links. When
/// every link is written on both sides, both sums are equal; a link written on one side only,
/// an id that names no object and two sides that disagree leave them different (but with a
/// chance of 2^-128), and the run is refused before anything is written (`check`). The hashes
/// are `Hasher`'s, seeded anew by each process, so no store can be made to collide.
///
/// A relationship without an inverse has no other side to count: the ids its links name out
/// of the chunk are kept (`outside`) for the reader, which checks at the end that each names an
/// object of the store (`ChunkReader.checkReferences`).
struct ChunkLinks {
  /// Per entity and property: the relationship pair's number and which side the property is
  /// (nil for attributes and relationships without an inverse, which do not stream); -1 for a
  /// relationship that is its own inverse, whose side is the one of the link's two ids that
  /// comes first.
  private let sides: [[(pair: Int, side: Int)?]]
  private let inverses: InverseTable
  /// Per side: the sums of the two hashes and the number of links.
  private var sums: [(UInt64, UInt64, Int)] = [(0, 0, 0), (0, 0, 0)]
  /// The links of relationships without an inverse to objects out of the chunk: the target
  /// id's hash (`IDIndex.hash`), where its quote is in the chunk's window, and the owner and
  /// property (for the message of an id that names no object). The reader takes them.
  var outside: [OutsideLink] = []
  /// Whether links are counted and kept for the checks at the end; not in the first pass of
  /// `MemberPlaces`, which only needs the chunks' stubs and lists (the run's own pass
  /// checks them).
  var checks = true

  struct OutsideLink {
    var hash: UInt64
    var offset: Int
    var owner: String
    var property: String
  }

  init(layout: StoreLayout) {
    let model = layout.model
    var pairs: [String: Int] = [:]
    sides = layout.entities.map { e in
      e.properties.map { p -> (pair: Int, side: Int)? in
        guard let r = p.relationship, let inverse = r.inverseName,
          let own = model.declaring(r.name, of: e.name), let other = model.declaring(inverse, of: r.destinationEntity)
        else { return nil }
        let a = own.name + "." + r.name
        let b = other.name + "." + inverse
        let key = min(a, b) + "\u{0}" + max(a, b)
        let pair = pairs[key] ?? pairs.count
        pairs[key] = pair
        return (pair, a == b ? -1 : a < b ? 0 : 1)
      }
    }
    inverses = InverseTable(layout: layout)
  }

  /// Points the references `pending` of `reader`'s chunk (window `input`) at their targets, in
  /// the chunk or as stubs; reports a store error as the whole-store reader does, and an id out
  /// of the chunk that does not name an object's entity and number as `run-memory-limit`.
  mutating func resolve(_ reader: inout StoreReader) throws {
    let graph = reader.graph
    let before = graph.tables.map(\.count)
    // Each object's id, decoded once: looked up here, and named by each link it writes.
    let ids = graph.tables.enumerated().map { e, t in (0..<t.count).map { graph.idText(ObjectRef(entity: e, row: $0)) }
    }
    var found: [String: ObjectRef] = [:]
    found.reserveCapacity(ids.reduce(0) { $0 + $1.count } + reader.pending.count)
    for (e, texts) in ids.enumerated() {
      for (row, id) in texts.enumerated() { found[id] = ObjectRef(entity: e, row: row) }
    }
    let pending = reader.pending
    var targets: [ObjectRef?] = []
    targets.reserveCapacity(pending.count)
    var keys: [String] = []
    keys.reserveCapacity(pending.count)
    for ref in pending {
      let key = reader.input.decodeString(ref.target)
      keys.append(key)
      if let t = found[key] {
        targets.append(t)
        continue
      }
      let owner = graph.tables[Int(ref.owner.entity)]
      let name = owner.layout.properties[Int(ref.column)].name
      guard let stub = Self.stub(key, accepted: inverses.entry(ref.owner.entity, Int(ref.column)), in: graph) else {
        try reader.report(
          "run-memory-limit",
          "\(ids[Int(ref.owner.entity)][Int(ref.owner.row)]).\(name) refers to \(key), outside its chunk, whose id does not give an entity this relationship holds and a number (Entity/number): the store cannot go a chunk at a time; give a --memory-limit that holds it whole",
          at: ref.target.start - 1)
        // (Once: the run is refused whatever else the chunk holds.)
        throw StoreReader.Stop()
      }
      found[key] = stub
      targets.append(stub)
    }
    graph.finalize()
    for (i, ref) in pending.enumerated() {
      guard let target = targets[i] else { continue }
      let ownerID = ids[Int(ref.owner.entity)][Int(ref.owner.row)]
      try link(ref, to: target, key: keys[i], ownerID: ownerID, stubsFrom: before, &reader)
    }
  }

  /// Sets the reference `ref` to `target` (named `key`), as the whole-store reader does
  /// (`StoreReader.setReference`); a stub's side of the relationship gets the chunk's object.
  /// Counts the link.
  private mutating func link(
    _ ref: StoreReader.PendingReference, to target: ObjectRef, key: String, ownerID: String,
    stubsFrom before: [Int], _ reader: inout StoreReader
  ) throws {
    guard try reader.setReference(ref, to: target, key: key, ownerID: ownerID, inverses),
      let entry = inverses.entry(ref.owner.entity, Int(ref.column))
    else { return }
    let graph = reader.graph
    let column = Int(ref.column)
    let ic = entry.inverseColumn[Int(target.entity)]
    if Int(target.row) >= before[Int(target.entity)] && ic >= 0 {
      let inverse = graph.tables[Int(target.entity)].columns[ic]
      if let many = inverse as? ToManyColumn {
        many.add(Int(target.row), ref.owner)
      } else {
        (inverse as! ToOneColumn).setTarget(Int(target.row), ref.owner)
      }
    }
    guard checks else { return }
    guard let (pair, side) = sides[Int(ref.owner.entity)][column] else {
      // No inverse: no other side to count; a target out of the chunk is checked at the end.
      if Int(target.row) >= before[Int(target.entity)] {
        outside.append(
          OutsideLink(
            hash: Array(key.utf8).withUnsafeBytes { IDIndex.hash($0) }, offset: ref.target.start - 1,
            owner: ownerID, property: graph.tables[Int(ref.owner.entity)].layout.properties[column].name))
      }
      return
    }
    if side >= 0 {
      count(pair, side, side == 0 ? (ownerID, key) : (key, ownerID))
    } else {
      // Its own inverse: each id's side names the other; a link of an object to itself is both.
      let ordered = ownerID <= key ? (ownerID, key) : (key, ownerID)
      if ownerID <= key { count(pair, 0, ordered) }
      if ownerID >= key { count(pair, 1, ordered) }
    }
  }

  private mutating func count(_ pair: Int, _ side: Int, _ ids: (String, String)) {
    sums[side].0 &+= Self.hash(0, pair, ids.0, ids.1)
    sums[side].1 &+= Self.hash(1, pair, ids.0, ids.1)
    sums[side].2 += 1
  }

  /// Whether every link counted was written on both sides of its relationship.
  var bothSidesAgree: Bool { sums[0] == sums[1] }

  /// A stub for the object named `key` out of the chunk: an object, with that id, of the entity
  /// the id names, numbered as the id says, where that entity is one the relationship holds.
  private static func stub(_ key: String, accepted entry: InverseTable.Entry?, in graph: ObjectGraph) -> ObjectRef? {
    // (By bytes: a search by Character breaks the id into graphemes, a tenth of a first pass.)
    guard let entry, let slash = key.utf8.firstIndex(of: UInt8(ascii: "/")),
      let e = graph.layout.entityIndex(String(key[..<slash])), entry.destinationKinds.contains(e),
      ObjectKeysJSON.number(Array(key.utf8), entity: graph.layout.entities[e].name) != nil
    else { return nil }
    return graph.appendStub(entity: e, id: key)
  }

  private static func hash(_ salt: UInt8, _ pair: Int, _ a: String, _ b: String) -> UInt64 {
    KeyedHash.of(salt) {
      $0.combine(pair)
      $0.combine(a)
      $0.combine(b)
    }
  }
}
