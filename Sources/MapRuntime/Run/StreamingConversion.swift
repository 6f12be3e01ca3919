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
    guard let size = MigrationRun.fileSize(path), StreamingRun.expectedPeak(storeBytes: size) > request.limit else {
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
    let stubs = source.readsReferencesAsStubs
    let streaming = StreamingPlan(
      copying: model, stubs: stubs, listsMembers: destination.listsToManyMembers,
      sourceCheck: { source.cannotStream(source: $0, in: model) },
      destinationCheck: { destination.cannotStream(destination: $0, in: model) })
    let budget = MemoryBudget(limit: request.limit)
    let noneStreams = streaming.noneStreams
    if streaming.streamed.isEmpty && size > budget.held {
      throw refuse(
        "\(noneStreams), and the store is larger than the quarter of the limit the part read whole may take (\(budget.held) bytes)"
      )
    }
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
      guard streaming.streamed.isEmpty, error.errors.count == 1, error.errors[0].code == "run-memory-limit" else {
        throw error
      }
      throw refuse("\(noneStreams), so it is read whole, and \(error.errors[0].message)")
    }
  }

  private enum Outcome {
    case done(Done)
    /// Start over, numbering this entity's objects anew (`Numbering`).
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
      request.store, layout: layout, streamed: streamed, stubs: !streaming.stubbed.isEmpty, budget: budget,
      maxErrors: 50, scratch: scratch.path)
    let writer = try destination.openChunkWriter(layout: layout, target: request.output, scratch: scratch.path)
    var committed = false
    defer { if !committed { writer.discard() } }
    let total = reader.progressTotal
    let phase: MigrationRun.IOPhase = reader.countsRows ? .readRows : .read
    request.report?(phase, 0, total)
    var consumed = 0
    var objects = 0
    var chunks = 0
    var keyHighWater: [String: Int64] = [:]
    var numbers = Numbering(layout: layout, path: request.store, anew: anew)
    let prefetch = ChunkPrefetch(reader)
    defer { prefetch.stop() }
    while let chunk = try prefetch.next() {
      chunks += 1
      if !source.keepsObjectKeysInChunks, let e = numbers.number(chunk) { return .numberAnew(e) }
      objects += chunk.tables.reduce(0) { $0 + $1.realCount }
      for (root, high) in chunk.keyHighWater { keyHighWater[root] = max(keyHighWater[root] ?? 0, high) }
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

  /// The numbers of a streamed entity's objects where the format's chunks do not carry the
  /// whole store's (`ChunkedStoreFormat.keepsObjectKeysInChunks`: a JSON store, whose ids give
  /// them only when every id of the entity has the form `Entity/number`). Each entity is taken
  /// as its first chunk says: its ids' numbers, or (some id has none) its objects numbered
  /// from 1 in order, as a writer numbers a whole graph's objects that have none. A later
  /// chunk with an id without a number starts the conversion over with that entity numbered
  /// anew (`anew`). What the store's metadata can deny is checked at the end; a conversion
  /// that would then differ from the one in memory is refused (`run-memory-limit`), before
  /// anything is written.
  struct Numbering {
    let layout: StoreLayout
    let path: String
    /// Per entity (layout index) that has had objects in chunks: whether its ids' numbers are
    /// kept.
    var keyed: [Int: Bool] = [:]
    /// Objects per entity so far, and the highest number kept.
    var given: [Int: Int] = [:]
    var highest: [Int: Int64] = [:]
    /// Entities numbered anew whatever their first chunk says.
    let anew: Set<Int>

    init(layout: StoreLayout, path: String, anew: Set<Int>) {
      self.layout = layout
      self.path = path
      self.anew = anew
    }

    /// Numbers the chunk's objects; returns an entity that must be numbered anew from its
    /// first object (nothing of the chunk numbered then).
    mutating func number(_ chunk: ObjectGraph) -> Int? {
      // (The part read whole is numbered by the writer, as in memory.)
      guard chunk.isStreamedChunk else { return nil }
      chunk.resolveObjectKeys()
      for (e, t) in chunk.tables.enumerated() where t.count > 0 {
        let hasNumbers = t.objectKeys.count >= t.count
        let kept = !anew.contains(e) && (keyed[e] ?? hasNumbers)
        keyed[e] = kept
        let before = given[e, default: 0]
        if kept {
          guard hasNumbers else { return e }
          highest[e] = max(highest[e] ?? 0, t.objectKeys[0..<t.count].max() ?? 0)
        } else {
          t.objectKeys = (0..<t.count).map { Int64(before + $0 + 1) }
        }
        given[e] = before + t.count
      }
      return nil
    }

    /// Once the store's highest numbers (`mapcObjectKeyMax`) are known: objects numbered anew
    /// are numbered from 1 only when their entity has none, and numbers kept are not so high
    /// that a writer would number them all anew (`CoreDataWriter`).
    func check(_ keyHighWater: [String: Int64]) throws(MigrationFailure) {
      for (e, kept) in keyed.sorted(by: { $0.key < $1.key }) {
        let name = layout.entities[e].name
        let recorded = keyHighWater[name] ?? 0
        if !kept && recorded > 0 {
          throw refused(
            "the ids of \(name) are not all of the form \(name)/number, and the store records \(recorded) as its highest number, after which the objects would be numbered"
          )
        }
        if kept && max(highest[e] ?? 0, recorded) > Int64.max - Int64(given[e] ?? 0) {
          throw refused("the numbers in the ids of \(name) leave no room for new ones below 2^63")
        }
      }
    }

    /// Why entity `e`, numbered by its first chunk's ids, cannot be in a run that cannot start
    /// over (`StreamingRun`).
    func deniedByALaterId(_ e: Int) -> MigrationFailure {
      let name = layout.entities[e].name
      return refused(
        "some ids of \(name) after the first \(given[e] ?? 0) are not of the form \(name)/number, so its objects are numbered anew, which the objects written before cannot be"
      )
    }

    private func refused(_ why: String) -> MigrationFailure {
      MigrationFailure([
        MigrationError(
          "run-memory-limit",
          "the store cannot go a chunk at a time: \(why); give a --memory-limit that holds it whole",
          file: path)
      ])
    }
  }
}
