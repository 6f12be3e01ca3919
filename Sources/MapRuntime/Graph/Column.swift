/// Storage of one property for all objects of an entity. Subclasses store one Swift type per
/// attribute type so that large stores stay small (8 bytes or less per value for scalars,
/// strings and to-one relationships).
///
/// Columns grow lazily: adding an object to a table touches no column, and a column's arrays
/// may be shorter than the table. Rows beyond them hold the column's fill value (the model
/// default, else nil). `pad(to:)` makes them full length before bulk reads.
public class Column: @unchecked Sendable {
  /// The value as expressions see it: relationship columns give objects of the graph's side.
  func read(_ row: Int) -> Value { get(row) }
  /// The stored value, with strings as slices where possible.
  func get(_ row: Int) -> Value { .null }
  /// Stores an already coerced value (see `Coercion`).
  func set(_ row: Int, _ value: Value) {}
  func isNull(_ row: Int) -> Bool { get(row).isNull }
  /// The rows below `n` whose value is nil, in order, at most `limit` of them (validation).
  func nullRows(below n: Int, limit: Int) -> [Int] {
    var rows: [Int] = []
    for row in 0..<n where isNull(row) {
      rows.append(row)
      if rows.count >= limit { break }
    }
    return rows
  }
  /// Stores an expression's value after converting it to the attribute's type (see `Coercion`).
  /// Subclasses take the common case, a value already of the column's kind, without the
  /// general conversion.
  func setCoerced(_ row: Int, _ value: Value, _ type: AttributeType, _ m: MigrationManager) throws(MigrationError) {
    var coerced = try Coercion.coerce(value, to: type, manager: m)
    if case .string(.slice(let s)) = coerced, !TextColumn.fitsPacked(s) {
      coerced = .string(.native(m.string(.slice(s))))
    }
    set(row, coerced)
  }
  /// Makes the arrays `n` long, filling new rows with the fill value.
  func pad(to n: Int) {}
  /// Drops rows from `n` on (taking back a `pad`); only for the column kinds
  /// `ParallelCreation` fills.
  func truncate(to n: Int) {}
  /// Appends the first `rows` rows of `other` (a column of the same kind) from row `row` on
  /// (see `StoreReader.adopt`).
  func append(_ other: Column, rows: Int, at row: Int) { preconditionFailure("append(_:rows:at:) on \(type(of: self))") }
  func reserve(_ n: Int) {}
  /// Sets the value of rows not stored yet (a model default).
  func setFill(_ value: Value) {}
  /// Writes the cell of `row` as a JSON value of the store.
  func writeCell(_ row: Int, to out: inout JSONOutput, _ w: CellWriting) throws(StoreWriteError) {
    try StoreWriter.writeValue(get(row), to: &out, w)
  }
}

extension Column {
  /// The rows below `n` that `isNull` picks out of `stored`, then those beyond it when
  /// `beyondIsNull`, in order, at most `limit`.
  @inline(__always) static func rows<T>(
    below n: Int, limit: Int, stored: [T], beyondIsNull: Bool, _ isNull: (T) -> Bool
  ) -> [Int] {
    var rows: [Int] = []
    guard limit > 0 else { return rows }
    stored.withUnsafeBufferPointer { values in
      for row in 0..<min(n, values.count) where isNull(values[row]) {
        rows.append(row)
        if rows.count >= limit { return }
      }
    }
    if beyondIsNull && rows.count < limit {
      for row in stored.count..<max(n, stored.count) {
        rows.append(row)
        if rows.count >= limit { break }
      }
    }
    return rows
  }
}

final class IntColumn: Column, @unchecked Sendable {
  @exclusivity(unchecked) var values: [Int64] = []
  @exclusivity(unchecked) var present: [Bool] = []
  @exclusivity(unchecked) var fill: Int64?

  @inline(__always) func ensure(_ row: Int) {
    if row == values.count {
      values.append(fill ?? 0)
      present.append(fill != nil)
    } else if row > values.count {
      pad(to: row + 1)
    }
  }
  override func pad(to n: Int) {
    guard n > values.count else { return }
    values.append(contentsOf: repeatElement(fill ?? 0, count: n - values.count))
    present.append(contentsOf: repeatElement(fill != nil, count: n - present.count))
  }
  override func reserve(_ n: Int) {
    values.reserveCapacity(n)
    present.reserveCapacity(n)
  }
  override func setFill(_ value: Value) { if case .int(let v) = value { fill = v } }
  override func get(_ row: Int) -> Value {
    if row >= values.count { return fill.map(Value.int) ?? .null }
    return present[row] ? .int(values[row]) : .null
  }
  override func isNull(_ row: Int) -> Bool { row >= values.count ? fill == nil : !present[row] }
  override func nullRows(below n: Int, limit: Int) -> [Int] {
    Column.rows(below: n, limit: limit, stored: present, beyondIsNull: fill == nil) { !$0 }
  }
  override func writeCell(_ row: Int, to out: inout JSONOutput, _ w: CellWriting) throws(StoreWriteError) {
    if present[row] { out.writeInt(values[row]) } else { out.writeNull() }
  }
  override func set(_ row: Int, _ value: Value) {
    ensure(row)
    if case .int(let v) = value {
      values[row] = v
      present[row] = true
    } else {
      present[row] = false
    }
  }
  override func truncate(to n: Int) {
    if values.count > n {
      values.removeLast(values.count - n)
      present.removeLast(present.count - n)
    }
  }
  override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: IntColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
    present.append(contentsOf: o.present.prefix(rows))
  }
  @inline(__always) func setInt(_ row: Int, _ v: Int64) {
    ensure(row)
    values[row] = v
    present[row] = true
  }
  override func setCoerced(_ row: Int, _ value: Value, _ type: AttributeType, _ m: MigrationManager) throws(MigrationError) {
    if case .int(let n) = value, type == .integer64 || (type.integerRange?.contains(n) ?? false) {
      setInt(row, n)
    } else {
      try super.setCoerced(row, value, type, m)
    }
  }
}

/// Double, Float and Date attributes (dates as seconds since the reference date).
final class DoubleColumn: Column, @unchecked Sendable {
  let isDate: Bool
  @exclusivity(unchecked) var values: [Double] = []
  @exclusivity(unchecked) var present: [Bool] = []
  @exclusivity(unchecked) var fill: Double?
  init(isDate: Bool) { self.isDate = isDate }

  @inline(__always) func ensure(_ row: Int) {
    if row == values.count {
      values.append(fill ?? 0)
      present.append(fill != nil)
    } else if row > values.count {
      pad(to: row + 1)
    }
  }
  override func pad(to n: Int) {
    guard n > values.count else { return }
    values.append(contentsOf: repeatElement(fill ?? 0, count: n - values.count))
    present.append(contentsOf: repeatElement(fill != nil, count: n - present.count))
  }
  override func reserve(_ n: Int) {
    values.reserveCapacity(n)
    present.reserveCapacity(n)
  }
  override func setFill(_ value: Value) {
    switch value {
    case .double(let v), .date(let v): fill = v
    default: break
    }
  }
  @inline(__always) private func wrap(_ v: Double) -> Value { isDate ? .date(v) : .double(v) }
  override func truncate(to n: Int) {
    if values.count > n {
      values.removeLast(values.count - n)
      present.removeLast(present.count - n)
    }
  }
  override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: DoubleColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
    present.append(contentsOf: o.present.prefix(rows))
  }
  override func get(_ row: Int) -> Value {
    if row >= values.count { return fill.map(wrap) ?? .null }
    return present[row] ? wrap(values[row]) : .null
  }
  override func isNull(_ row: Int) -> Bool { row >= values.count ? fill == nil : !present[row] }
  override func nullRows(below n: Int, limit: Int) -> [Int] {
    Column.rows(below: n, limit: limit, stored: present, beyondIsNull: fill == nil) { !$0 }
  }
  override func writeCell(_ row: Int, to out: inout JSONOutput, _ w: CellWriting) throws(StoreWriteError) {
    guard present[row] else {
      out.writeNull()
      return
    }
    do {
      if isDate { try out.writeDate(values[row]) } else { try out.writeDouble(values[row]) }
    } catch {
      throw .value(error, isDate ? "a date" : "a number")
    }
  }
  override func set(_ row: Int, _ value: Value) {
    ensure(row)
    switch value {
    case .double(let v), .date(let v):
      values[row] = v
      present[row] = true
    default:
      present[row] = false
    }
  }
}

final class BoolColumn: Column, @unchecked Sendable {
  /// 0 false, 1 true, 2 nil.
  @exclusivity(unchecked) var values: [UInt8] = []
  @exclusivity(unchecked) var fill: UInt8 = 2

  override func pad(to n: Int) {
    if n > values.count { values.append(contentsOf: repeatElement(fill, count: n - values.count)) }
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: BoolColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
  }
  override func setFill(_ value: Value) { if case .bool(let b) = value { fill = b ? 1 : 0 } }
  private func code(_ row: Int) -> UInt8 { row < values.count ? values[row] : fill }
  override func get(_ row: Int) -> Value {
    switch code(row) {
    case 0: .bool(false)
    case 1: .bool(true)
    default: .null
    }
  }
  override func isNull(_ row: Int) -> Bool { code(row) == 2 }
  override func writeCell(_ row: Int, to out: inout JSONOutput, _ w: CellWriting) throws(StoreWriteError) {
    switch values[row] {
    case 0: out.writeBool(false)
    case 1: out.writeBool(true)
    default: out.writeNull()
    }
  }
  override func set(_ row: Int, _ value: Value) {
    if row == values.count { values.append(fill) } else if row > values.count { pad(to: row + 1) }
    if case .bool(let b) = value { values[row] = b ? 1 : 0 } else { values[row] = 2 }
  }
}

/// String, UUID and URI attributes: each value is 8 bytes, a slice of the input or an index
/// into a side table of native strings (0 is nil).
final class TextColumn: Column, @unchecked Sendable {
  @exclusivity(unchecked) var values: [UInt64] = []
  @exclusivity(unchecked) var arena: [String] = []
  @exclusivity(unchecked) var fill: UInt64 = 0

  override func pad(to n: Int) {
    if n > values.count { values.append(contentsOf: repeatElement(fill, count: n - values.count)) }
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func setFill(_ value: Value) { if case .string(let t) = value { fill = pack(t) } }
  @inline(__always) func packed(_ row: Int) -> UInt64 { row < values.count ? values[row] : fill }
  override func isNull(_ row: Int) -> Bool { packed(row) == 0 }
  override func nullRows(below n: Int, limit: Int) -> [Int] {
    Column.rows(below: n, limit: limit, stored: values, beyondIsNull: fill == 0) { $0 == 0 }
  }
  override func get(_ row: Int) -> Value {
    let v = packed(row)
    if v == 0 { return .null }
    return .string(text(v))
  }
  override func writeCell(_ row: Int, to out: inout JSONOutput, _ w: CellWriting) throws(StoreWriteError) {
    let v = values[row]
    if v == 0 { out.writeNull() } else { w.writeText(text(v), to: &out) }
  }
  @inline(__always) func text(_ v: UInt64) -> Text {
    if v & 1 == 1 {
      return .slice(ByteSlice(start: Int(v >> 26), count: Int((v >> 2) & 0xFF_FFFF), hasEscapes: v & 2 != 0))
    }
    return .native(arena[Int(v >> 1) - 1])
  }
  override func set(_ row: Int, _ value: Value) {
    if row == values.count { values.append(fill) } else if row > values.count { pad(to: row + 1) }
    guard case .string(let t) = value else {
      values[row] = 0
      return
    }
    values[row] = pack(t)
  }
  override func setCoerced(_ row: Int, _ value: Value, _ type: AttributeType, _ m: MigrationManager) throws(MigrationError) {
    switch value {
    case .string(.slice(let s)) where type != .uuid:
      setPacked(row, TextColumn.fitsPacked(s) ? TextColumn.packSlice(s) : pack(.native(m.string(.slice(s)))))
    case .string(let t) where type != .uuid:
      setPacked(row, pack(t))
    case .null:
      setPacked(row, 0)
    default:
      try super.setCoerced(row, value, type, m)
    }
  }
  /// Stores an already packed value (see `pack`).
  @inline(__always) func setPacked(_ row: Int, _ packed: UInt64) {
    if row == values.count {
      values.append(packed)
      return
    }
    if row > values.count { pad(to: row + 1) }
    values[row] = packed
  }

  override func truncate(to n: Int) {
    if values.count > n { values.removeLast(values.count - n) }
  }
  override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: TextColumn.self)
    pad(to: row)
    o.pad(to: rows)
    if o.arena.isEmpty {
      values.append(contentsOf: o.values.prefix(rows))
      return
    }
    // Native strings move to this column's side table.
    let shift = UInt64(arena.count) << 1
    for v in o.values.prefix(rows) { values.append(v != 0 && v & 1 == 0 ? v + shift : v) }
    arena.append(contentsOf: o.arena)
  }

  /// Packs a slice in place, or adds a native string to the side table. Slices too large to
  /// pack must be stored as native text (see `fitsPacked`).
  @inline(__always) func pack(_ t: Text) -> UInt64 {
    switch t {
    case .slice(let s) where TextColumn.fitsPacked(s):
      return UInt64(s.start) << 26 | UInt64(s.count) << 2 | (s.hasEscapes ? 2 : 0) | 1
    case .slice:
      preconditionFailure("oversized slice must be stored as native text")
    case .native(let s):
      arena.append(s)
      return UInt64(arena.count) << 1
    }
  }
  static func fitsPacked(_ s: ByteSlice) -> Bool { s.start < (1 << 38) && s.count < (1 << 24) }
}

/// Everything else: Decimal, Binary, Transformable, and the rarely used types.
final class ValueColumn: Column, @unchecked Sendable {
  @exclusivity(unchecked) var values: [Value] = []
  @exclusivity(unchecked) var fill: Value = .null

  override func pad(to n: Int) {
    if n > values.count { values.append(contentsOf: repeatElement(fill, count: n - values.count)) }
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func setFill(_ value: Value) { fill = value }
  override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: ValueColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
  }
  override func get(_ row: Int) -> Value { row < values.count ? values[row] : fill }
  override func set(_ row: Int, _ value: Value) {
    if row == values.count {
      values.append(value)
      return
    }
    if row > values.count { pad(to: row + 1) }
    values[row] = value
  }
}

final class ToOneColumn: Column, @unchecked Sendable {
  @exclusivity(unchecked) var values: [UInt64] = []
  let isSource: Bool
  init(isSource: Bool) { self.isSource = isSource }

  override func pad(to n: Int) {
    if n > values.count { values.append(contentsOf: repeatElement(0, count: n - values.count)) }
  }
  override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: ToOneColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
  }
  override func reserve(_ n: Int) { values.reserveCapacity(n) }
  override func read(_ row: Int) -> Value {
    guard let t = target(row) else { return .null }
    return isSource ? .sourceObject(t) : .destinationObject(t)
  }
  override func isNull(_ row: Int) -> Bool { target(row) == nil }
  override func nullRows(below n: Int, limit: Int) -> [Int] {
    Column.rows(below: n, limit: limit, stored: values, beyondIsNull: true) { $0 == 0 }
  }
  override func writeCell(_ row: Int, to out: inout JSONOutput, _ w: CellWriting) throws(StoreWriteError) {
    let v = values[row]
    if v == 0 { out.writeNull() } else { w.writeID(ObjectRef(packed: v), to: &out) }
  }
  @inline(__always) func target(_ row: Int) -> ObjectRef? {
    let v = row < values.count ? values[row] : 0
    return v == 0 ? nil : ObjectRef(packed: v)
  }
  @inline(__always) func setTarget(_ row: Int, _ ref: ObjectRef?) {
    if row == values.count { values.append(0) } else if row > values.count { pad(to: row + 1) }
    values[row] = ref?.packed ?? 0
  }
}

/// To-many relationships. Members of all rows share one pool: a row's members are a segment
/// (start, count, capacity) of it, so a million small relationships cost no allocation each.
/// Members added to a row in one go (see `reserve(_:extra:)`) fill an exact segment; a row
/// that outgrows its segment moves to the end of the pool with twice the room (the old
/// segment is left unused).
final class ToManyColumn: Column, @unchecked Sendable {
  @exclusivity(unchecked) var pool: [UInt64] = []
  @exclusivity(unchecked) var start: [Int] = []
  @exclusivity(unchecked) var counts: [UInt32] = []
  @exclusivity(unchecked) var capacities: [UInt32] = []
  let isSource: Bool
  /// Membership sets for large relationships, so adding stays O(1).
  @exclusivity(unchecked) var large: [Int: Set<UInt64>] = [:]
  static let linearLimit = 24
  init(isSource: Bool) { self.isSource = isSource }

  override func pad(to n: Int) {
    guard n > start.count else { return }
    let k = n - start.count
    start.append(contentsOf: repeatElement(0, count: k))
    counts.append(contentsOf: repeatElement(0, count: k))
    capacities.append(contentsOf: repeatElement(0, count: k))
  }
  override func reserve(_ n: Int) {
    start.reserveCapacity(n)
    counts.reserveCapacity(n)
    capacities.reserveCapacity(n)
  }
  /// Only for columns without members yet (the store reader links relationships after reading).
  override func append(_ other: Column, rows: Int, at row: Int) {
    precondition(unsafeDowncast(other, to: ToManyColumn.self).pool.isEmpty, "appending a to-many column with members")
    pad(to: row + rows)
  }
  override func read(_ row: Int) -> Value {
    let side = isSource
    return .array(members(row).map { side ? .sourceObject(ObjectRef(packed: $0)) : .destinationObject(ObjectRef(packed: $0)) })
  }
  override func isNull(_ row: Int) -> Bool { false }
  override func writeCell(_ row: Int, to out: inout JSONOutput, _ w: CellWriting) throws(StoreWriteError) {
    out.beginArray()
    let s = start[row]
    for k in s..<(s + Int(counts[row])) { w.writeID(ObjectRef(packed: pool[k]), to: &out) }
    out.endArray()
  }

  /// Number of members of `row`.
  @inline(__always) func count(_ row: Int) -> Int { row < counts.count ? Int(counts[row]) : 0 }

  /// The members of `row`, in order.
  func members(_ row: Int) -> [UInt64] {
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

  func contains(_ row: Int, _ ref: ObjectRef) -> Bool { has(row, ref.packed) }

  /// Appends unless present; returns whether it was added. Small relationships are searched
  /// linearly; past `linearLimit` members a set keeps adding O(1).
  @discardableResult
  func add(_ row: Int, _ ref: ObjectRef) -> Bool {
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
  @inline(__always) func appendAbsent(_ row: Int, _ ref: ObjectRef) {
    let n = Int(counts[row])
    pool[start[row] + n] = ref.packed
    counts[row] = UInt32(n + 1)
  }

  /// Makes room for `extra` more members of `row`.
  func reserve(_ row: Int, extra: Int) {
    if row >= start.count { pad(to: row + 1) }
    let wanted = Int(counts[row]) + extra
    if wanted > Int(capacities[row]) { grow(row, to: wanted) }
  }

  @discardableResult
  func remove(_ row: Int, _ ref: ObjectRef) -> Bool {
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

  func targets(_ row: Int) -> [ObjectRef] { members(row).map { ObjectRef(packed: $0) } }
}
