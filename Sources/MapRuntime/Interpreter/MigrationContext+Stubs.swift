extension MigrationContext {
  /// Marks the destination objects made from stubs of the source (`EntityTable.stubsFrom`) as
  /// stubs. False when they are not the last objects of their tables (a table whose objects
  /// come from stubs and from other objects in another order cannot mark them).
  func markDestinationStubs() -> Bool {
    guard source.tables.contains(where: { $0.stubsFrom != nil }) else { return true }
    var stubs = [[Int]](repeating: [], count: destination.tables.count)
    var others = [Int](repeating: -1, count: destination.tables.count)
    for a in associations {
      for k in 0..<a.instanceCount {
        let d = a.destination(at: k)
        if let s = a.source(at: k), Int(s.row) >= source.table(s).realCount {
          stubs[Int(d.entity)].append(Int(d.row))
        } else {
          others[Int(d.entity)] = max(others[Int(d.entity)], Int(d.row))
        }
      }
    }
    for (e, rows) in stubs.enumerated() where !rows.isEmpty {
      let table = destination.tables[e]
      let first = table.count - rows.count
      // Every stub row once, all of them after every other object.
      guard Set(rows).count == rows.count, rows.allSatisfy({ $0 >= first }), others[e] < first else { return false }
      table.stubsFrom = first
    }
    return true
  }
}
