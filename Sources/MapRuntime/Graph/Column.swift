/// Storage of one property for all objects of an entity. Subclasses store one Swift type per
/// attribute type so that large stores stay small (8 bytes or less per value for scalars,
/// strings and to-one relationships).
///
/// Columns grow lazily: adding an object to a table touches no column, and a column's arrays
/// may be shorter than the table. Rows beyond them hold the column's fill value (the model
/// default, else nil). `pad(to:)` makes them full length before bulk reads.
package class Column: @unchecked Sendable {
  /// Which subclass this is, so code outside the graph (writers, the interpreter's fast paths)
  /// can switch over the kinds without a dynamic cast or an override per output format.
  package let kind: ColumnKind
  package init(kind: ColumnKind) { self.kind = kind }

  /// The value as expressions see it: relationship columns give objects of the graph's side.
  package func read(_ row: Int) -> Value { get(row) }
  /// The stored value, with strings as slices where possible.
  package func get(_ row: Int) -> Value { .null }
  /// Stores an already coerced value (see `Coercion`).
  package func set(_ row: Int, _ value: Value) {}
  package func isNull(_ row: Int) -> Bool { get(row).isNull }
  /// The rows below `n` whose value is nil, in order, at most `limit` of them (validation).
  package func nullRows(below n: Int, limit: Int) -> [Int] {
    var rows: [Int] = []
    for row in 0..<n where isNull(row) {
      rows.append(row)
      if rows.count >= limit { break }
    }
    return rows
  }
  /// Makes the arrays `n` long, filling new rows with the fill value.
  package func pad(to n: Int) {}
  /// Drops rows from `n` on (taking back a `pad`); only for the column kinds
  /// `ParallelCreation` fills.
  package func truncate(to n: Int) {}
  /// Appends the first `rows` rows of `other` (a column of the same kind) from row `row` on
  /// (see `StoreReader.adopt`).
  package func append(_ other: Column, rows: Int, at row: Int) {
    preconditionFailure("append(_:rows:at:) on \(type(of: self))")
  }
  package func reserve(_ n: Int) {}
  /// Sets the value of rows not stored yet (a model default).
  package func setFill(_ value: Value) {}
}

/// The storage classes of `Column`.
package enum ColumnKind: UInt8, Sendable {
  /// `IntColumn`: Integer 16, 32 and 64 attributes.
  case int
  /// `DoubleColumn`: Double, Float and Date attributes.
  case double
  /// `BoolColumn`.
  case bool
  /// `TextColumn`: String, UUID and URI attributes.
  case text
  /// `ValueColumn`: every other attribute type.
  case value
  /// `ToOneColumn`.
  case toOne
  /// `ToManyColumn`.
  case toMany
}

extension Column {
  /// The rows below `n` that `isNull` picks out of `stored`, then those beyond it when
  /// `beyondIsNull`, in order, at most `limit`.
  @inline(__always) package static func rows<T>(
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
