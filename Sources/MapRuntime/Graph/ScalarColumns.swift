// Integer, floating-point, date and Boolean attributes: typed arrays with a presence flag.

package final class IntColumn: Column, @unchecked Sendable {
  package init() { super.init(kind: .int) }
  @exclusivity(unchecked) package var values: [Int64] = []
  @exclusivity(unchecked) package var present: [Bool] = []
  @exclusivity(unchecked) package var fill: Int64?

  @inline(__always) package func ensure(_ row: Int) {
    if row == values.count {
      values.append(fill ?? 0)
      present.append(fill != nil)
    } else if row > values.count {
      pad(to: row + 1)
    }
  }
  package override func pad(to n: Int) {
    guard n > values.count else { return }
    values.append(contentsOf: repeatElement(fill ?? 0, count: n - values.count))
    present.append(contentsOf: repeatElement(fill != nil, count: n - present.count))
  }
  package override func reserve(_ n: Int) {
    values.reserveCapacity(n)
    present.reserveCapacity(n)
  }
  package override func setFill(_ value: Value) { if case .int(let v) = value { fill = v } }
  package override func get(_ row: Int) -> Value {
    if row >= values.count { return fill.map(Value.int) ?? .null }
    return present[row] ? .int(values[row]) : .null
  }
  package override func isNull(_ row: Int) -> Bool { row >= values.count ? fill == nil : !present[row] }
  package override func nullRows(below n: Int, limit: Int) -> [Int] {
    Column.rows(below: n, limit: limit, stored: present, beyondIsNull: fill == nil) { !$0 }
  }
  package override func set(_ row: Int, _ value: Value) {
    ensure(row)
    if case .int(let v) = value {
      values[row] = v
      present[row] = true
    } else {
      present[row] = false
    }
  }
  package override func truncate(to n: Int) {
    if values.count > n {
      values.removeLast(values.count - n)
      present.removeLast(present.count - n)
    }
  }
  package override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: IntColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
    present.append(contentsOf: o.present.prefix(rows))
  }
  @inline(__always) package func setInt(_ row: Int, _ v: Int64) {
    ensure(row)
    values[row] = v
    present[row] = true
  }
}

/// Double, Float and Date attributes (dates as seconds since the reference date).
package final class DoubleColumn: Column, @unchecked Sendable {
  package let isDate: Bool
  @exclusivity(unchecked) package var values: [Double] = []
  @exclusivity(unchecked) package var present: [Bool] = []
  @exclusivity(unchecked) package var fill: Double?
  package init(isDate: Bool) {
    self.isDate = isDate
    super.init(kind: .double)
  }

  @inline(__always) package func ensure(_ row: Int) {
    if row == values.count {
      values.append(fill ?? 0)
      present.append(fill != nil)
    } else if row > values.count {
      pad(to: row + 1)
    }
  }
  package override func pad(to n: Int) {
    guard n > values.count else { return }
    values.append(contentsOf: repeatElement(fill ?? 0, count: n - values.count))
    present.append(contentsOf: repeatElement(fill != nil, count: n - present.count))
  }
  package override func reserve(_ n: Int) {
    values.reserveCapacity(n)
    present.reserveCapacity(n)
  }
  package override func setFill(_ value: Value) {
    switch value {
    case .double(let v), .date(let v): fill = v
    default: break
    }
  }
  @inline(__always) private func wrap(_ v: Double) -> Value { isDate ? .date(v) : .double(v) }
  package override func truncate(to n: Int) {
    if values.count > n {
      values.removeLast(values.count - n)
      present.removeLast(present.count - n)
    }
  }
  package override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: DoubleColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
    present.append(contentsOf: o.present.prefix(rows))
  }
  package override func get(_ row: Int) -> Value {
    if row >= values.count { return fill.map(wrap) ?? .null }
    return present[row] ? wrap(values[row]) : .null
  }
  package override func isNull(_ row: Int) -> Bool { row >= values.count ? fill == nil : !present[row] }
  package override func nullRows(below n: Int, limit: Int) -> [Int] {
    Column.rows(below: n, limit: limit, stored: present, beyondIsNull: fill == nil) { !$0 }
  }
  package override func set(_ row: Int, _ value: Value) {
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

package final class BoolColumn: Column, @unchecked Sendable {
  package init() { super.init(kind: .bool) }
  /// 0 false, 1 true, 2 nil.
  @exclusivity(unchecked) package var values: [UInt8] = []
  @exclusivity(unchecked) package var fill: UInt8 = 2

  package override func pad(to n: Int) {
    if n > values.count { values.append(contentsOf: repeatElement(fill, count: n - values.count)) }
  }
  package override func reserve(_ n: Int) { values.reserveCapacity(n) }
  package override func truncate(to n: Int) {
    if values.count > n { values.removeLast(values.count - n) }
  }
  package override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: BoolColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
  }
  package override func setFill(_ value: Value) { if case .bool(let b) = value { fill = b ? 1 : 0 } }
  private func code(_ row: Int) -> UInt8 { row < values.count ? values[row] : fill }
  package override func get(_ row: Int) -> Value {
    switch code(row) {
    case 0: .bool(false)
    case 1: .bool(true)
    default: .null
    }
  }
  package override func isNull(_ row: Int) -> Bool { code(row) == 2 }
  package override func set(_ row: Int, _ value: Value) {
    if row == values.count { values.append(fill) } else if row > values.count { pad(to: row + 1) }
    if case .bool(let b) = value { values[row] = b ? 1 : 0 } else { values[row] = 2 }
  }
}
