#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapJSONText
import MapRuntime

/// Writes a JSON store from chunks of destination objects (`ChunkedStoreFormat`), with the
/// bytes `StoreWriter` writes for the whole graph. Each entity's objects are rendered as they
/// come, by the store writer's own code:
/// - told the metadata to expect (`expect`), straight into the store's temporary file
///   (`EarlyStoreFile`) for the entity being written, and into a scratch file of their entity
///   (`mapc-chunks-<pid>-<random>` in the temporary folder, removed however the run ends) for
///   those after it, which go in when the writing reaches them;
/// - otherwise, or when the guesses of `EarlyStoreFile` fail, into the scratch files, which
///   `commit` copies in, in name order, after the metadata, through `AtomicFileWriter`.
final class ChunkWriter: StoreChunkWriter {
  private let layout: StoreLayout
  private let target: String?
  private let style: JSONOutput.Style
  /// Where the entities' files go (nil for a dry run: nothing is kept).
  private let scratch: String?
  /// Per entity: its scratch file (-1 when it has none) and the bytes in it.
  private var files: [Int32]
  private var inScratch: [Int]
  /// Per entity: whether some of its objects were written, wherever they went (the next ones
  /// then start with a separator).
  private var hasObjects: [Bool]
  /// A dry run's `/dev/null` (-1 until it renders).
  private var devNull: Int32 = -1
  /// Where an entity's objects stand in the document: inside `{"objects": {"E": [`.
  private let continuation: JSONOutput.Continuation
  /// What `expect` said, until the first chunk opens the early store with it.
  private var expected: (forecast: StoreWriteForecast, durable: Bool)?
  private var early: EarlyStoreFile?

  init(layout: StoreLayout, target: String?, style: JSONOutput.Style, scratch: String) {
    self.layout = layout
    self.target = target
    self.style = style
    self.scratch = target == nil ? nil : scratch
    files = [Int32](repeating: -1, count: layout.entities.count)
    inScratch = [Int](repeating: 0, count: layout.entities.count)
    hasObjects = [Bool](repeating: false, count: layout.entities.count)
    var out = JSONOutput(style: style)
    out.beginObject()
    out.writeKey("objects")
    out.beginObject()
    out.writeKey("e")
    out.beginArray()
    continuation = out.continuation()
  }

  deinit { discard() }

  func expect(_ forecast: () -> StoreWriteForecast?, durable: Bool) {
    // (A dry run writes nothing early: it does not read the forecast.)
    if target != nil, let f = forecast() { expected = (f, durable) }
  }

  func append(_ chunk: ObjectGraph, source: ObjectGraph) throws(MigrationFailure) {
    chunk.finalize()
    let writer = StoreWriter(graph: chunk, input: source.input, codec: source.transformableCodec)
    let cells = writer.makeCells()
    defer { cells.release() }
    // Stubs (a chunk read with them: `EntityTable.stubsFrom`) are written by their own part.
    let present = chunk.tables.indices.filter { chunk.tables[$0].realCount > 0 }
    let direct = try earlyEntity(for: present)
    for e in present {
      defer { hasObjects[e] = true }
      if e == direct, let early {
        try render(writer, e, cells, to: &early.out, path: target ?? "")
        continue
      }
      // A dry run renders to nowhere: the errors a write would meet, nothing kept.
      let (fd, path) =
        try scratchPath(e).map { path throws(MigrationFailure) in (try file(e, path), path) }
        ?? (nowhere(), "/dev/null")
      // Rendered straight into the entity's file: a chunk's bytes are never all in memory.
      var out = JSONOutput(
        fileDescriptor: fd, path: path, continuing: continuation, isFirst: !hasObjects[e], bufferCapacity: 1 << 20)
      try render(writer, e, cells, to: &out, path: path)
      inScratch[e] += out.bytesFlushed
    }
  }

  /// Renders the chunk's objects of entity `e` to `out`, flushed.
  private func render(
    _ writer: StoreWriter, _ e: Int, _ cells: StoreWriter.Cells, to out: inout JSONOutput, path: String
  ) throws(MigrationFailure) {
    do {
      try writer.writeObjects(of: e, cells, to: &out)
    } catch {
      throw MigrationFailure([
        MigrationError("run-write", "cannot write the store: \(error)", file: target ?? "")
      ])
    }
    do {
      try out.flushAndCheck()
    } catch {
      throw MigrationFailure(error, file: path)
    }
  }

  /// The entity of `present` whose objects go straight into the early store (made at the
  /// first chunk with objects, when the writer was told what to expect), or nil.
  private func earlyEntity(for present: [Int]) throws(MigrationFailure) -> Int? {
    if early == nil, let (forecast, durable) = expected, let target, !present.isEmpty {
      expected = nil
      early = EarlyStoreFile(
        target: target, style: style, header: forecast.metadata, layout: layout, keyHighWater: forecast.keyHighWater,
        durable: durable)
    }
    guard let early else { return nil }
    do {
      return try early.entity(for: present, scratchParts)
    } catch {
      throw MigrationFailure(error, file: target ?? "")
    }
  }

  /// The scratch files as `EarlyStoreFile` takes them.
  private var scratchParts: EarlyStoreFile.Scratch {
    (
      { [unowned self] e in self.files[e] < 0 ? nil : (self.files[e], self.inScratch[e]) },
      { [unowned self] e in self.remove(e) }
    )
  }

  /// `/dev/null`, opened once, for a dry run's rendering.
  private func nowhere() -> Int32 {
    if devNull < 0 { devNull = open("/dev/null", O_WRONLY | O_CLOEXEC) }
    return devNull
  }

  /// Where entity `e`'s objects are kept until the commit (nil for a dry run).
  private func scratchPath(_ e: Int) -> String? { scratch.map { "\($0)/\(e).json" } }

  /// The scratch file of entity `e` at `path`, made at its first object.
  private func file(_ e: Int, _ path: String) throws(MigrationFailure) -> Int32 {
    if files[e] < 0 {
      files[e] = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if files[e] < 0 { throw failure(errno, path, "write") }
    }
    return files[e]
  }

  func commit(
    metadata: StoreWriteMetadata, keyHighWater: [String: Int64], backup: String?, durable: Bool,
    bookkeepingFrom: String?, written: (@Sendable (Int) -> Void)?
  ) throws(MigrationFailure) {
    guard let target else { return }
    do throws(StoreIOError) {
      if let early {
        if !early.broken
          && early.header == EarlyStoreFile.header(metadata, layout: layout, keyHighWater: keyHighWater, style: style)
        {
          try early.finish(scratchParts, backup: backup, durable: durable, written: written)
          self.early = nil
          return
        }
        try early.stop()
      }
      // The store anew: the metadata, then each entity's parts, those of the early store first.
      let parts = early.map { open($0.temporaryPath, O_RDONLY | O_CLOEXEC) } ?? -1
      defer { if parts >= 0 { _ = close(parts) } }
      if early != nil && parts < 0 { throw StoreIOError.system(errno, path: target, operation: "read back") }
      let file = try AtomicFileWriter(target: target)
      var out = JSONOutput(fileDescriptor: file.fileDescriptor, path: target, style: style, startsWriteback: durable)
      out.onFlush = written
      StoreWriter.writeHeader(metadata, layout: layout, keyHighWater: keyHighWater, to: &out)
      for e in StoreWriter.entityOrder(layout) {
        out.writeKey(layout.entities[e].name)
        out.beginArray()
        if let span = early?.spans[e] { try out.appendFile(parts, span) }
        if inScratch[e] > 0 { try out.appendFile(files[e], 0..<inScratch[e]) }
        // Its pages go now, not after every other entity's copy: the page cache holds the
        // store being written, not the store twice.
        remove(e)
        out.endArray()
      }
      out.endObject()
      out.endObject()
      try out.finishDocument()
      try file.commit(backupPath: backup, durable: durable)
      self.early = nil
    } catch {
      throw MigrationFailure(error, file: target)
    }
  }

  func discard() {
    early = nil
    if devNull >= 0 {
      _ = close(devNull)
      devNull = -1
    }
    for e in files.indices { remove(e) }
  }

  /// Closes and removes entity `e`'s scratch file, if it has one.
  private func remove(_ e: Int) {
    inScratch[e] = 0
    guard files[e] >= 0 else { return }
    _ = close(files[e])
    files[e] = -1
    if let path = scratchPath(e) { unlink(path) }
  }

  private func failure(_ code: Int32, _ path: String, _ operation: String) -> MigrationFailure {
    MigrationFailure(StoreIOError.system(code, path: path, operation: operation), file: path)
  }
}

extension JSONStoreFormat: ChunkedStoreFormat {
  package func openChunks(
    _ path: String, layout: StoreLayout, streamed: Set<Int>, stubs: Bool, positionsOnly: Set<String>,
    budget: MemoryBudget, maxErrors: Int, scratch: String, firstPass: (@Sendable (Int, Int) -> Void)?
  ) throws(MigrationFailure) -> any StoreChunkReader {
    // Members of objects in other chunks get their places in their owners' lists from a first
    // pass over the store (`MemberPlaces`), asked only where a writer needs them.
    let places =
      stubs && !positionsOnly.isEmpty
      ? try ChunkReader.memberPlaces(
        path: path, layout: layout, streamed: streamed, names: positionsOnly, budget: budget, maxErrors: maxErrors,
        scratch: scratch, progress: firstPass) : nil
    let reader = try ChunkReader(
      path: path, layout: layout, streamed: streamed, stubs: stubs, budget: budget, maxErrors: maxErrors,
      scratch: scratch)
    reader.places = places
    return reader
  }

  /// A chunk's references out of it are stubs made from the ids (`ChunkLinks`): an id
  /// `Entity/n` names its entity and number.
  package var readsReferencesAsStubs: Bool { true }
  /// A JSON store's ordered relationships are listed whole with their owner only: a member's
  /// index in an owner outside its chunk takes a first pass over the store.
  package var positionsTakeAPass: Bool { true }

  package func metadataForecast(_ path: String, layout: StoreLayout) -> (
    StoreMetadata, keyHighWater: [String: Int64]
  )? {
    StoreReader.leadingMetadata(path, layout: layout)
  }

  package func openChunkWriter(layout: StoreLayout, target: String?, scratch: String, budget: MemoryBudget)
    throws(MigrationFailure) -> any StoreChunkWriter
  {
    ChunkWriter(layout: layout, target: target, style: style, scratch: scratch)
  }
}
