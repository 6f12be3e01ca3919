import MapRuntime

extension ChunkReader {
  /// The first pass over a JSON store read in chunks with stubs, for a writer that keeps the
  /// order of the ordered relationships `names` (`Entity.relationship`) in their members' rows
  /// (`OrderedPositionTable`): the store's chunks read as the run will read them, each link of
  /// such a relationship from one of a chunk's objects to a stub kept with its index. Nil when
  /// no chunk has one. The store's errors met in the chunks are thrown as the run would throw
  /// them, since it reads the same chunks.
  static func orderedPositions(
    path: String, layout: StoreLayout, streamed: Set<Int>, names: Set<String>, budget: MemoryBudget, maxErrors: Int,
    scratch: String
  ) throws(MigrationFailure) -> OrderedPositionTable? {
    let pass = try ChunkReader(
      path: path, layout: layout, streamed: streamed, stubs: true, budget: budget, maxErrors: maxErrors,
      scratch: scratch, collecting: true)
    pass.positions = OrderedPositionTable(layout: layout, names: names, budget: budget)
    while try pass.next() != nil {}
    guard let table = pass.positions, table.count > 0 else { return nil }
    return table
  }
}
