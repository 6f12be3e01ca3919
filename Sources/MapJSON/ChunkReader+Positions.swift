import MapRuntime

extension ChunkReader {
  /// The first pass over a JSON store read in chunks with stubs, for a writer that keeps the
  /// members of the to-many relationships `names` (`Entity.relationship`) in their own rows
  /// (`MemberPlaces`): the store's chunks read as the run will read them, each link of such a
  /// relationship from one of a chunk's objects to a stub kept with its index (and, without an
  /// inverse, its owner). Nil when no chunk has one. The store's errors met in the chunks are
  /// thrown as the run would throw them, since it reads the same chunks. Places that pass what
  /// memory holds for them take the pass again, kept on disk in `scratch`. `progress` is told the
  /// bytes read of the file's (taken again, from 0: the reporter's phase never goes back).
  static func memberPlaces(
    path: String, layout: StoreLayout, streamed: Set<Int>, names: Set<String>, budget: MemoryBudget, maxErrors: Int,
    scratch: String, progress: (@Sendable (Int, Int) -> Void)? = nil
  ) throws(MigrationFailure) -> MemberPlaces? {
    var spill: String?
    while true {
      let pass = try ChunkReader(
        path: path, layout: layout, streamed: streamed, stubs: true, budget: budget, maxErrors: maxErrors,
        scratch: scratch, collecting: true)
      pass.places = MemberPlaces(layout: layout, names: names, budget: budget, spillingTo: spill)
      progress?(0, pass.progressTotal)
      while try pass.next() != nil { progress?(pass.position, pass.progressTotal) }
      if pass.placesFull && spill == nil {
        spill = scratch
        continue
      }
      guard var places = pass.places else { return nil }
      let joined: Bool
      do throws(StoreIOError) {
        joined = try places.finish()
      } catch {
        throw MigrationFailure(error, file: path)
      }
      guard joined else {
        throw MigrationFailure([
          MigrationError("run-memory-limit", tooManyPlaces(places.most, limit: budget.limit), file: path)
        ])
      }
      return places.isEmpty ? nil : places
    }
  }
}
