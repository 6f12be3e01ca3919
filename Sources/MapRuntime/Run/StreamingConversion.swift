/// `mapc store convert` (and `store export`, `store import`) with `--memory-limit`, for a store
/// larger than the limit allows in memory: the store is read a chunk of objects at a time
/// (`ChunkedStoreFormat`) and each chunk is handed to the destination format's chunk writer as
/// it is, no mapping running; the writer renders it and lets it go before the next is read.
/// The entities that go this way are `StreamingPlan(copying:)`'s; the rest of the store is
/// read whole, within a quarter of the limit. The file written is byte for byte the one the
/// conversion in memory writes (`Specs/limits.md` "Memory").
package enum StreamingConversion {
  /// What to convert.
  package struct Request {
    package var store: String
    /// The file to write (replaced atomically).
    package var output: String
    package var source: any StoreFormat
    package var destination: any StoreFormat
    /// The layout of the store's model version, read and written.
    package var layout: StoreLayout
    package var limit: Int
    /// The metadata to write, from the metadata the store holds.
    package var metadata: (StoreMetadata) -> StoreWriteMetadata
    /// The store whose bookkeeping (persistent history, CloudKit tables) the new store keeps.
    package var bookkeepingFrom: String?
    package var report: StoreIO.Report?

    package init(
      store: String, output: String, source: any StoreFormat, destination: any StoreFormat, layout: StoreLayout,
      limit: Int, metadata: @escaping (StoreMetadata) -> StoreWriteMetadata, bookkeepingFrom: String?,
      report: StoreIO.Report?
    ) {
      self.store = store
      self.output = output
      self.source = source
      self.destination = destination
      self.layout = layout
      self.limit = limit
      self.metadata = metadata
      self.bookkeepingFrom = bookkeepingFrom
      self.report = report
    }
  }

  /// What a conversion in chunks did.
  package struct Done: Sendable {
    /// Objects read and written.
    package var objects: Int
    package var chunks: Int
  }

  /// The conversion in chunks, or nil when the store fits the limit in memory (the conversion
  /// in memory then goes on). Throws `run-memory-limit` (nothing written) when it fits neither
  /// way.
  package static func convertIfNeeded(_ request: Request) throws(MigrationFailure) -> Done? {
    let path = request.store
    guard let size = StoreFootprint.of(path, format: request.source, limit: request.limit),
      size.expectedPeak > request.limit
    else {
      return nil
    }
    func refuse(_ why: String) -> MigrationFailure { StreamingRun.tooLarge(size, limit: request.limit, path, why) }
    guard let source = request.source as? any ChunkedStoreFormat else {
      throw refuse("the \(request.source.name) format cannot be read a chunk at a time yet")
    }
    guard let destination = request.destination as? any ChunkedStoreFormat else {
      throw refuse("the \(request.destination.name) format cannot be written a chunk at a time yet")
    }
    let model = request.layout.model
    // A source that lists members with their owner (JSON) holds none of the chunks' objects in
    // the part it reads whole, so that part must not refer to them through a to-many either.
    let listsMembers = source.listsToManyMembers || destination.listsToManyMembers
    let streaming = StreamingPlan(
      copying: model, stubs: source.readsReferencesAsStubs, listsMembers: listsMembers,
      sourceCheck: { source.cannotStream(source: $0, in: model) },
      destinationCheck: { destination.cannotStream(destination: $0, in: model) })
    let budget = MemoryBudget(limit: request.limit)
    try StreamingRun.refuseIfNothingFits(streaming, size: size, limit: request.limit, path)
    do throws(MigrationFailure) {
      // An entity whose first chunks' ids all had numbers, and a later chunk's not, is
      // numbered anew from the start: the conversion starts over, at most once per entity.
      var anew: Set<Int> = []
      while true {
        switch try convert(
          request, source: source, destination: destination, streaming: streaming, budget: budget, anew: anew)
        {
        case .done(let done): return done
        case .numberAnew(let e): anew.insert(e)
        }
      }
    } catch {
      throw StreamingRun.explained(error, streaming, size: size, limit: request.limit, path)
    }
  }

  /// The relationships whose members a chunk places in their owners' whole lists
  /// (`ChunkedStoreFormat.openChunks`' `positionsOnly`): the plan's ordered ones, where the
  /// writer needs them; and, from a source that lists a to-many's members with their owner only
  /// (JSON) into a writer that keeps them in the members' rows (Core Data SQLite), every stored
  /// to-many relationship without an inverse, whose members' rows hold their owner's key, which
  /// a chunk of members does not otherwise know.
  private static func positions(
    _ streaming: StreamingPlan, source: any ChunkedStoreFormat, destination: any ChunkedStoreFormat,
    _ model: ObjectModel
  ) -> Set<String> {
    var names = source.positions(streaming.positionsOnly, forWriterListingMembers: destination.listsToManyMembers)
    if source.listsToManyMembers && !destination.listsToManyMembers {
      for entity in model.entities {
        for r in model.allRelationships(of: entity) where r.isToMany && r.inverseName == nil && !r.isTransient {
          names.insert(entity.name + "." + r.name)
        }
      }
    }
    return names
  }

  private enum Outcome {
    case done(Done)
    /// Start over, numbering this entity's objects anew (`ChunkNumbering`).
    case numberAnew(Int)
  }

  private static func convert(
    _ request: Request, source: any ChunkedStoreFormat, destination: any ChunkedStoreFormat,
    streaming: StreamingPlan, budget: MemoryBudget, anew: Set<Int>
  ) throws(MigrationFailure) -> Outcome {
    let layout = request.layout
    let streamed = Set(layout.entities.filter { streaming.streamed.contains($0.name) }.map(\.index))
    // The chunks' files and the reader's spills, removed however the conversion ends.
    let scratch = try ScratchFolder(name: "mapc-chunks")
    defer { scratch.remove() }
    let reader = try source.openChunks(
      request.store, layout: layout, streamed: streamed, stubs: !streaming.stubbed.isEmpty,
      positionsOnly: positions(streaming, source: source, destination: destination, layout.model),
      budget: budget, maxErrors: 50, scratch: scratch.path,
      firstPass: request.report.map { report in { @Sendable done, total in report(.places, done, total) } })
    let writer = try destination.openChunkWriter(
      layout: layout, target: request.output, scratch: scratch.path, budget: budget)
    writer.expect(
      { source.metadataForecast(request.store, layout: layout).map { (request.metadata($0.0), $0.keyHighWater) } },
      durable: true)
    var committed = false
    defer { if !committed { writer.discard() } }
    let total = reader.progressTotal
    let phase: MigrationRun.IOPhase = reader.countsRows ? .readRows : .read
    request.report?(phase, 0, total)
    var consumed = 0
    var objects = 0
    var chunks = 0
    var keyHighWater: [String: Int64] = [:]
    var numbers = ChunkNumbering(layout: layout, path: request.store, anew: anew)
    let prefetch = ChunkPrefetch(reader)
    defer { prefetch.stop() }
    while let chunk = try prefetch.next() {
      chunks += 1
      if !source.keepsObjectKeysInChunks, let e = try numbers.number(chunk) { return .numberAnew(e) }
      objects += chunk.tables.reduce(0) { $0 + $1.realCount }
      keyHighWater.merge(chunk.keyHighWater, uniquingKeysWith: max)
      try writer.append(chunk, source: chunk)
      consumed += reader.weight(of: chunk)
      request.report?(phase, min(consumed, total), total)
    }
    request.report?(phase, total, total)
    let metadata = try reader.finish()
    try numbers.check(keyHighWater)
    try writer.commit(
      metadata: request.metadata(metadata), keyHighWater: keyHighWater, backup: nil, durable: true,
      bookkeepingFrom: request.bookkeepingFrom,
      written: request.report.map { report in { @Sendable n in report(.write, n, nil) } })
    committed = true
    if let report = request.report, let size = MigrationRun.fileSize(request.output) { report(.write, size, size) }
    return .done(Done(objects: objects, chunks: chunks))
  }
}
