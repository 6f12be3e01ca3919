// To-one and to-many relationships: references to objects of the same graph.

package final class ToOneColumn: Column, @unchecked Sendable {
  @exclusivity(unchecked) package var values: [UInt64] = []
  package let isSource: Bool
  package init(isSource: Bool) {
    self.isSource = isSource
    super.init(kind: .toOne)
  }

  package override func pad(to n: Int) {
    if n > values.count { values.append(contentsOf: repeatElement(0, count: n - values.count)) }
  }
  package override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: ToOneColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
  }
  package override func reserve(_ n: Int) { values.reserveCapacity(n) }
  package override func read(_ row: Int) -> Value {
    guard let t = target(row) else { return .null }
    return isSource ? .sourceObject(t) : .destinationObject(t)
  }
  package override func isNull(_ row: Int) -> Bool { target(row) == nil }
  package override func nullRows(below n: Int, limit: Int) -> [Int] {
    Column.rows(below: n, limit: limit, stored: values, beyondIsNull: true) { $0 == 0 }
  }
  @inline(__always) package func target(_ row: Int) -> ObjectRef? {
    let v = row < values.count ? values[row] : 0
    return v == 0 ? nil : ObjectRef(packed: v)
  }
  @inline(__always) package func setTarget(_ row: Int, _ ref: ObjectRef?) {
    if row == values.count { values.append(0) } else if row > values.count { pad(to: row + 1) }
    values[row] = ref?.packed ?? 0
  }
}

/// To-many relationships. Members of all rows share one pool: a row's members are a segment
/// (start, count, capacity) of it, so a million small relationships cost no allocation each.
/// Members added to a row in one go (see `reserve(_:extra:)`) fill an exact segment; a row
/// that outgrows its segment moves to the end of the pool with twice the room (the old
/// segment is left unused).
package final class ToManyColumn: Column, @unchecked Sendable {
  @exclusivity(unchecked) package var pool: [UInt64] = []
  @exclusivity(unchecked) package var start: [Int] = []
  @exclusivity(unchecked) package var counts: [UInt32] = []
  @exclusivity(unchecked) package var capacities: [UInt32] = []
  package let isSource: Bool
  /// Membership sets for large relationships, so adding stays O(1).
  @exclusivity(unchecked) package var large: [Int: Set<UInt64>] = [:]
  package static let linearLimit = 24
  package init(isSource: Bool) {
    self.isSource = isSource
    super.init(kind: .toMany)
  }

  package override func pad(to n: Int) {
    guard n > start.count else { return }
    let k = n - start.count
    start.append(contentsOf: repeatElement(0, count: k))
    counts.append(contentsOf: repeatElement(0, count: k))
    capacities.append(contentsOf: repeatElement(0, count: k))
  }
  package override func reserve(_ n: Int) {
    start.reserveCapacity(n)
    counts.reserveCapacity(n)
    capacities.reserveCapacity(n)
  }
  /// Only for columns without members yet (the store reader links relationships after reading).
  package override func append(_ other: Column, rows: Int, at row: Int) {
    precondition(unsafeDowncast(other, to: ToManyColumn.self).pool.isEmpty, "appending a to-many column with members")
    pad(to: row + rows)
  }
  package override func read(_ row: Int) -> Value {
    let side = isSource
    return .array(
      members(row).map { side ? .sourceObject(ObjectRef(packed: $0)) : .destinationObject(ObjectRef(packed: $0)) })
  }
  package override func isNull(_ row: Int) -> Bool { false }

  /// Number of members of `row`.
  @inline(__always) package func count(_ row: Int) -> Int { row < counts.count ? Int(counts[row]) : 0 }

  /// The members of `row`, in order.
  package func members(_ row: Int) -> [UInt64] {
    let n = count(row)
    guard n > 0 else { return [] }
    let s = start[row]
    return Array(pool[s..<(s + n)])
  }

  /// Whether `row` holds `p`; searched linearly (small rows) or in the row's set.
  private func has(_ row: Int, _ p: UInt64) -> Bool {
    let n = count(row)
    if n > ToManyColumn.linearLimit, let set = large[row] { return set.contains(p) }
    let s = n > 0 ? start[row] : 0
    for k in s..<(s + n) where pool[k] == p { return true }
    return false
  }

  package func contains(_ row: Int, _ ref: ObjectRef) -> Bool { has(row, ref.packed) }

  /// Appends unless present; returns whether it was added. Small relationships are searched
  /// linearly; past `linearLimit` members a set keeps adding O(1).
  @discardableResult
  package func add(_ row: Int, _ ref: ObjectRef) -> Bool {
    if row >= start.count { pad(to: row + 1) }
    let p = ref.packed
    let n = Int(counts[row])
    if n < ToManyColumn.linearLimit {
      if has(row, p) { return false }
    } else if large[row] != nil {
      guard large[row]!.insert(p).inserted else { return false }
    } else {
      if has(row, p) { return false }
      var set = Set(members(row))
      set.insert(p)
      large[row] = set
    }
    if n == Int(capacities[row]) { grow(row, to: max(1, n * 2)) }
    pool[start[row] + n] = p
    counts[row] = UInt32(n + 1)
    return true
  }

  /// Gives `row` room for `capacity` members: in place when its segment ends the pool, else in
  /// a new segment at the end.
  private func grow(_ row: Int, to capacity: Int) {
    let s = start[row]
    let old = Int(capacities[row])
    if old > 0 && s + old == pool.count {
      pool.append(contentsOf: repeatElement(0, count: capacity - old))
    } else {
      let n = Int(counts[row])
      let newStart = pool.count
      pool.append(contentsOf: repeatElement(0, count: capacity))
      for k in 0..<n { pool[newStart + k] = pool[s + k] }
      start[row] = newStart
    }
    capacities[row] = UInt32(capacity)
  }

  /// Appends a member known to be absent, to a row with room for it (see `reserve(_:extra:)`)
  /// and no more than `linearLimit` members.
  @inline(__always) package func appendAbsent(_ row: Int, _ ref: ObjectRef) {
    let n = Int(counts[row])
    pool[start[row] + n] = ref.packed
    counts[row] = UInt32(n + 1)
  }

  /// Makes room for `extra` more members of `row`.
  package func reserve(_ row: Int, extra: Int) {
    if row >= start.count { pad(to: row + 1) }
    let wanted = Int(counts[row]) + extra
    if wanted > Int(capacities[row]) { grow(row, to: wanted) }
  }

  @discardableResult
  package func remove(_ row: Int, _ ref: ObjectRef) -> Bool {
    let n = count(row)
    guard n > 0 else { return false }
    let p = ref.packed
    let s = start[row]
    guard let i = (s..<(s + n)).first(where: { pool[$0] == p }) else { return false }
    for k in i..<(s + n - 1) { pool[k] = pool[k + 1] }
    counts[row] = UInt32(n - 1)
    large[row]?.remove(p)
    return true
  }

  package func targets(_ row: Int) -> [ObjectRef] { members(row).map { ObjectRef(packed: $0) } }

  /// Puts the members of `row` that `first` names first, in `first`'s order, and the others
  /// after them in the order they had: what setting an ordered relationship to a value does
  /// to members an inverse added before.
  package func order(_ row: Int, first: [ObjectRef]) {
    let n = count(row)
    guard n > 1 else { return }
    let s = start[row]
    let current = Array(pool[s..<(s + n)])
    let present = Set(current)
    var placed = Set<UInt64>()
    var k = s
    for ref in first where present.contains(ref.packed) && placed.insert(ref.packed).inserted {
      pool[k] = ref.packed
      k += 1
    }
    for p in current where !placed.contains(p) {
      pool[k] = p
      k += 1
    }
  }
}
