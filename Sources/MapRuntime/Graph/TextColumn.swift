/// String, UUID and URI attributes: each value is 8 bytes, a slice of the input or an index
/// into a side table of native strings (0 is nil).
package final class TextColumn: Column, @unchecked Sendable {
  package init() { super.init(kind: .text) }
  @exclusivity(unchecked) package var values: [UInt64] = []
  @exclusivity(unchecked) package var arena: [String] = []
  @exclusivity(unchecked) package var fill: UInt64 = 0

  package override func pad(to n: Int) {
    if n > values.count { values.append(contentsOf: repeatElement(fill, count: n - values.count)) }
  }
  package override func reserve(_ n: Int) { values.reserveCapacity(n) }
  package override func setFill(_ value: Value) { if case .string(let t) = value { fill = pack(t) } }
  @inline(__always) package func packed(_ row: Int) -> UInt64 { row < values.count ? values[row] : fill }
  package override func isNull(_ row: Int) -> Bool { packed(row) == 0 }
  package override func nullRows(below n: Int, limit: Int) -> [Int] {
    Column.rows(below: n, limit: limit, stored: values, beyondIsNull: fill == 0) { $0 == 0 }
  }
  package override func get(_ row: Int) -> Value {
    let v = packed(row)
    if v == 0 { return .null }
    return .string(text(v))
  }
  @inline(__always) package func text(_ v: UInt64) -> Text {
    if v & 1 == 1 {
      return .slice(ByteSlice(start: Int(v >> 26), count: Int((v >> 2) & 0xFF_FFFF), hasEscapes: v & 2 != 0))
    }
    return .native(arena[Int(v >> 1) - 1])
  }
  package override func set(_ row: Int, _ value: Value) {
    if row == values.count { values.append(fill) } else if row > values.count { pad(to: row + 1) }
    guard case .string(let t) = value else {
      values[row] = 0
      return
    }
    values[row] = pack(t)
  }
  /// Stores an already packed value (see `pack`).
  @inline(__always) package func setPacked(_ row: Int, _ packed: UInt64) {
    if row == values.count {
      values.append(packed)
      return
    }
    if row > values.count { pad(to: row + 1) }
    values[row] = packed
  }

  package override func truncate(to n: Int) {
    if values.count > n { values.removeLast(values.count - n) }
  }
  package override func append(_ other: Column, rows: Int, at row: Int) {
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
  @inline(__always) package func pack(_ t: Text) -> UInt64 {
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
  package static func fitsPacked(_ s: ByteSlice) -> Bool { s.start < (1 << 38) && s.count < (1 << 24) }
}

extension TextColumn {
  /// The slice a packed value holds (`packSlice`).
  @inlinable package static func slice(_ v: UInt64) -> ByteSlice {
    ByteSlice(start: Int(v >> 26), count: Int((v >> 2) & 0xFF_FFFF), hasEscapes: v & 2 != 0)
  }

  /// A slice packed in one word: start, count, whether it has escapes, and 1 (a slice).
  @inline(__always) package static func packSlice(_ s: ByteSlice) -> UInt64 {
    UInt64(s.start) << 26 | UInt64(s.count) << 2 | (s.hasEscapes ? 2 : 0) | 1
  }
}
