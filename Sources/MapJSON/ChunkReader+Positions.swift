import MapRuntime

extension ChunkReader {
  /// The first pass over a JSON store read in chunks with stubs, for a writer that keeps the
  /// members of the to-many relationships `names` (`Entity.relationship`) in their own rows
  /// (`MemberPlaces`): the store's chunks read as the run will read them, each link of such a
  /// relationship from one of a chunk's objects to a stub kept with its index (and, without an
  /// inverse, its owner). Nil when no chunk has one. The store's errors met in the chunks are
  /// thrown as the run would throw them, since it reads the same chunks.
  static func memberPlaces(
    path: String, layout: StoreLayout, streamed: Set<Int>, names: Set<String>, budget: MemoryBudget, maxErrors: Int,
    scratch: String
  ) throws(MigrationFailure) -> MemberPlaces? {
    let pass = try ChunkReader(
      path: path, layout: layout, streamed: streamed, stubs: true, budget: budget, maxErrors: maxErrors,
      scratch: scratch, collecting: true)
    pass.places = MemberPlaces(layout: layout, names: names, budget: budget)
    while try pass.next() != nil {}
    guard let places = pass.places, !places.isEmpty else { return nil }
    return places
  }
}
