/// Everything else: Decimal, Binary, Transformable, and the rarely used types.
package final class ValueColumn: Column, @unchecked Sendable {
  package init() { super.init(kind: .value) }
  @exclusivity(unchecked) package var values: [Value] = []
  @exclusivity(unchecked) package var fill: Value = .null

  package override func pad(to n: Int) {
    if n > values.count { values.append(contentsOf: repeatElement(fill, count: n - values.count)) }
  }
  package override func reserve(_ n: Int) { values.reserveCapacity(n) }
  package override func setFill(_ value: Value) { fill = value }
  package override func truncate(to n: Int) {
    if values.count > n { values.removeLast(values.count - n) }
  }
  package override func append(_ other: Column, rows: Int, at row: Int) {
    let o = unsafeDowncast(other, to: ValueColumn.self)
    pad(to: row)
    o.pad(to: rows)
    values.append(contentsOf: o.values.prefix(rows))
  }
  package override func get(_ row: Int) -> Value { row < values.count ? values[row] : fill }
  package override func set(_ row: Int, _ value: Value) {
    if row == values.count {
      values.append(value)
      return
    }
    if row > values.count { pad(to: row + 1) }
    values[row] = value
  }
}
