/// `mapc test`'s comparison of a result with its expected store (`GraphComparison`) when the
/// two do not fit `--memory-limit` in memory: each store is read a chunk at a time
/// (`ChunkedStoreFormat`, the entities `StreamingPlan(copying:)` lets stream), each object's
/// id and property texts go to a spill on disk (`ComparisonSpill`), and the differences are
/// then found entity by entity through it. They are the ones, in the same order and with the
/// same texts, that the comparison in memory finds (`Specs/test-fixtures.md` §3).
package final class StreamingComparison {
  package typealias Side = ComparisonSide

  private let layout: StoreLayout
  private let limit: Int
  private let scratch: String
  private let spill: any ComparisonSpill

  /// A comparison of two stores of `layout` within `limit` bytes, keeping what it needs in the
  /// folder `scratch` (which the caller removes) and `spill`.
  package init(layout: StoreLayout, limit: Int, scratch: String, spill: any ComparisonSpill) {
    self.layout = layout
    self.limit = limit
    self.scratch = scratch
    self.spill = spill
  }

  /// Whether these stores (bytes and format) must be compared this way: both read whole and
  /// compared would not fit `limit`. The comparison in memory holds both graphs and a table of
  /// ids: measured on 2,000,000 objects, 1,096 MB for two Core Data SQLite stores of 116 and
  /// 118 MB (4.7x), 1,179 MB for two JSON stores of 304 MB (1.9x, the child's run included);
  /// so 5x an SQLite store's bytes (or another format's), twice a JSON store's, and the
  /// program's baseline.
  package static func isNeeded(_ stores: [(bytes: Int, format: any StoreFormat)], limit: Int) -> Bool {
    var held = StreamingRun.baseline
    for store in stores {
      // Saturating: a sparse file of exabytes is simply too large.
      let (bytes, o1) = store.bytes.multipliedReportingOverflow(by: store.format.name == "json" ? 2 : 5)
      let (sum, o2) = held.addingReportingOverflow(bytes)
      if o1 || o2 { return true }
      held = sum
    }
    return held > limit
  }

  /// Reads the store at `path` into the spill as `side`; returns the chunks it was read in.
  /// Throws what reading it finds wrong, and `run-memory-limit` when it cannot be read within
  /// the limit.
  @discardableResult
  package func add(_ side: Side, path: String, format: any StoreFormat) throws(MigrationFailure) -> Int {
    let size = StoreFootprint.of(path, format: format, limit: limit) ?? StoreFootprint(bytes: 0)
    guard let chunked = format as? any ChunkedStoreFormat else {
      throw StreamingRun.tooLarge(
        size, limit: limit, path, "the \(format.name) format cannot be read a chunk at a time yet")
    }
    let model = layout.model
    // Owners list their to-many members here, as a JSON store written from chunks does.
    let streaming = StreamingPlan(
      copying: model, stubs: chunked.readsReferencesAsStubs, listsMembers: true,
      sourceCheck: { chunked.cannotStream(source: $0, in: model) })
    try StreamingRun.refuseIfNothingFits(streaming, size: size, limit: limit, path)
    let streamed = Set(layout.entities.filter { streaming.streamed.contains($0.name) }.map(\.index))
    do throws(MigrationFailure) {
      // Each store's reader keeps its spills in a folder of its own (two readers' files in
      // one folder would be one file).
      let folder = scratch + "/" + (side == .got ? "got" : "expected")
      try ScratchFolder.make(folder)
      let reader = try chunked.openChunks(
        path, layout: layout, streamed: streamed, stubs: !streaming.stubbed.isEmpty,
        positionsOnly: chunked.positions(streaming.positionsOnly, forWriterListingMembers: true),
        budget: MemoryBudget(limit: limit), maxErrors: 50,
        scratch: folder)
      var positions = [Int](repeating: 0, count: layout.entities.count)
      var chunks = 0
      while let chunk = try reader.next() {
        chunks += 1
        chunk.finalize()
        let ids = GraphComparison.ObjectIDs(chunk)
        // A chunk's stubs (objects outside it, only their numbers) are some other chunk's.
        for (e, table) in chunk.tables.enumerated() {
          for row in 0..<table.realCount {
            try spill.add(
              side, entity: e, position: positions[e], id: ids.id(ObjectRef(entity: e, row: row)),
              texts: GraphComparison.texts(of: row, e, in: chunk, ids: ids))
            positions[e] += 1
          }
        }
      }
      _ = try reader.finish()
      return chunks
    } catch {
      throw StreamingRun.explained(error, streaming, size: size, limit: limit, path)
    }
  }

  /// The differences of the store added as `.got` from the one added as `.expected`, at most
  /// `limit` of them, as `GraphComparison.differences` gives them.
  package func differences(limit: Int = 20) throws(MigrationFailure) -> (
    differences: [GraphComparison.Difference], truncated: Bool
  ) {
    var found = GraphComparison.Collector(limit: limit)
    for entity in layout.entities {
      let properties = entity.properties.map(\.name)
      var going = true
      try spill.eachExpected(entity: entity.index) { id, want, have in
        guard let have else {
          going = found.add(.missing(entity.name, id))
          return going
        }
        for (p, name) in properties.enumerated() where want[p] != have[p] {
          going = found.add(
            GraphComparison.Difference(entity: entity.name, object: id, property: name, expected: want[p], got: have[p])
          )
          if !going { return false }
        }
        return true
      }
      guard going else { break }
      try spill.eachUnexpected(entity: entity.index) { id in
        going = found.add(.unexpected(entity.name, id))
        return going
      }
      guard going else { break }
    }
    return (found.found, found.truncated)
  }
}
