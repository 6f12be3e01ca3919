/// A column's arrays as plain pointers, for a store writer in another module that reads every
/// cell of a finished graph.
///
/// Reading a class's stored array from another module costs a dynamic exclusivity check per
/// read (`@exclusivity(unchecked)` on the declaration is not honoured across modules), which
/// showed up as 6% of writing the diary store; these pointers cost nothing per cell. They are
/// valid while the column lives and is not changed, as during writing. Every array holds at
/// least `rows` cells (`ObjectGraph.finalize` pads them), which `init` checks.
package struct ColumnCells: @unchecked Sendable {
  package let kind: ColumnKind
  package let column: Unmanaged<Column>
  /// The cells: `Int64` (int), `Double` (double), `UInt8` (bool), packed `UInt64` (text,
  /// to-one), and a to-many's pool of packed `UInt64` references.
  package let values: UnsafeRawPointer?
  /// Whether each int or double cell holds a value.
  package let present: UnsafePointer<Bool>?
  /// A to-many's first pool index and number of members, per row.
  package let start: UnsafePointer<Int>?
  package let counts: UnsafePointer<UInt32>?
  /// A double column of dates.
  package let isDate: Bool

  package init(_ column: Column, rows: Int) {
    func base<T>(_ a: [T]) -> UnsafeRawPointer? {
      precondition(a.count >= rows, "a column shorter than its table")
      return a.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
    kind = column.kind
    self.column = Unmanaged.passUnretained(column)
    var values: UnsafeRawPointer? = nil
    var present: UnsafeRawPointer? = nil
    var start: UnsafeRawPointer? = nil
    var counts: UnsafeRawPointer? = nil
    var isDate = false
    switch column.kind {
    case .int:
      let c = unsafeDowncast(column, to: IntColumn.self)
      (values, present) = (base(c.values), base(c.present))
    case .double:
      let c = unsafeDowncast(column, to: DoubleColumn.self)
      (values, present, isDate) = (base(c.values), base(c.present), c.isDate)
    case .bool: values = base(unsafeDowncast(column, to: BoolColumn.self).values)
    case .text: values = base(unsafeDowncast(column, to: TextColumn.self).values)
    case .toOne: values = base(unsafeDowncast(column, to: ToOneColumn.self).values)
    case .toMany:
      let c = unsafeDowncast(column, to: ToManyColumn.self)
      values = c.pool.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
      (start, counts) = (base(c.start), base(c.counts))
    case .value: break
    }
    self.values = values
    self.present = present?.assumingMemoryBound(to: Bool.self)
    self.start = start?.assumingMemoryBound(to: Int.self)
    self.counts = counts?.assumingMemoryBound(to: UInt32.self)
    self.isDate = isDate
  }

  @inlinable package func int(_ row: Int) -> Int64? {
    present.unsafelyUnwrapped[row] ? values.unsafelyUnwrapped.load(fromByteOffset: row &* 8, as: Int64.self) : nil
  }

  @inlinable package func double(_ row: Int) -> Double? {
    present.unsafelyUnwrapped[row] ? values.unsafelyUnwrapped.load(fromByteOffset: row &* 8, as: Double.self) : nil
  }

  /// 0 false, 1 true, else nil.
  @inlinable package func bool(_ row: Int) -> UInt8 {
    values.unsafelyUnwrapped.load(fromByteOffset: row, as: UInt8.self)
  }

  /// A text or to-one cell: 0 for nil.
  @inlinable package func packed(_ row: Int) -> UInt64 {
    values.unsafelyUnwrapped.load(fromByteOffset: row &* 8, as: UInt64.self)
  }

  /// A to-many cell: its members' packed references.
  @inlinable package func members(_ row: Int) -> UnsafeBufferPointer<UInt64> {
    UnsafeBufferPointer(
      start: values.unsafelyUnwrapped.assumingMemoryBound(to: UInt64.self) + start.unsafelyUnwrapped[row],
      count: Int(counts.unsafelyUnwrapped[row]))
  }
}
