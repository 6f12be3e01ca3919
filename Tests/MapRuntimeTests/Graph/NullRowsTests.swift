import MapTestSupport
import Testing

@testable import MapRuntime

/// Validation finds nil values with each column kind's own scan (`nullRows`); it must pick the
/// same rows, in the same order and up to the same limit, as asking `isNull` row by row, for
/// columns shorter than the table (rows never stored hold the fill value) too.
@Suite struct NullRowsTests {
  /// What `isNull` says, row by row.
  static func expected(_ column: Column, below n: Int, limit: Int) -> [Int] {
    Array((0..<n).filter { column.isNull($0) }.prefix(limit))
  }

  static func check(_ make: () -> Column, set: (Column, Int, inout SplitMix64) -> Void) {
    var rng = SplitMix64(seed: 0x6e75_6c6c)
    for round in 0..<200 {
      let column = make()
      let stored = Int(rng.next() % 300)
      for row in 0..<stored where rng.next() % 3 != 0 { set(column, row, &rng) }
      if round % 4 == 0 { column.pad(to: stored) }  // padded and lazily grown columns alike
      let n = stored + Int(rng.next() % 50)
      for limit in [0, 1, 7, Int.max] {
        #expect(
          column.nullRows(below: n, limit: limit) == expected(column, below: n, limit: limit),
          "round \(round), limit \(limit)")
      }
    }
  }

  @Test func integers() {
    Self.check({ IntColumn() }) { c, row, rng in c.set(row, rng.next() % 2 == 0 ? .int(Int64(row)) : .null) }
  }

  @Test func integersWithADefault() {
    Self.check({
      let c = IntColumn()
      c.setFill(.int(5))
      return c
    }) { c, row, rng in c.set(row, rng.next() % 2 == 0 ? .int(1) : .null) }
  }

  @Test func doublesAndDates() {
    Self.check({ DoubleColumn(isDate: true) }) { c, row, _ in c.set(row, .date(Double(row))) }
  }

  @Test func strings() {
    Self.check({ TextColumn() }) { c, row, rng in c.set(row, rng.next() % 2 == 0 ? .string(.native("s\(row)")) : .null)
    }
  }

  @Test func toOneRelationships() {
    Self.check({ ToOneColumn(isSource: false) }) { c, row, rng in
      (c as! ToOneColumn).setTarget(row, rng.next() % 2 == 0 ? ObjectRef(entity: 0, row: row) : nil)
    }
  }
}
