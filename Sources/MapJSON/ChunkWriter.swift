#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapJSONText
import MapRuntime

/// Writes a JSON store from chunks of destination objects (`ChunkedStoreFormat`): each
/// entity's objects are rendered as they come, by the store writer's own code, into a scratch
/// file of that entity (`mapc-chunks-<pid>-<random>` in the temporary folder, removed however the
/// run ends); `commit` writes the metadata and copies the entities' files in, in name order,
/// through `AtomicFileWriter`. The bytes are those `StoreWriter` writes for the whole graph.
final class ChunkWriter: StoreChunkWriter {
  private let layout: StoreLayout
  private let target: String?
  private let style: JSONOutput.Style
  /// Where the entities' files go (nil for a dry run: nothing is kept).
  private let scratch: String?
  /// Per entity: its scratch file (-1 before its first object) and the bytes in it.
  private var files: [Int32]
  private var sizes: [Int]
  /// A dry run's `/dev/null` (-1 until it renders).
  private var devNull: Int32 = -1
  /// Where an entity's objects stand in the document: inside `{"objects": {"E": [`.
  private let continuation: JSONOutput.Continuation

  init(layout: StoreLayout, target: String?, style: JSONOutput.Style, scratch: String) {
    self.layout = layout
    self.target = target
    self.style = style
    self.scratch = target == nil ? nil : scratch
    files = [Int32](repeating: -1, count: layout.entities.count)
    sizes = [Int](repeating: 0, count: layout.entities.count)
    var out = JSONOutput(style: style)
    out.beginObject()
    out.writeKey("objects")
    out.beginObject()
    out.writeKey("e")
    out.beginArray()
    continuation = out.continuation()
  }

  deinit { discard() }

  func append(_ chunk: ObjectGraph, source: ObjectGraph) throws(MigrationFailure) {
    chunk.finalize()
    let writer = StoreWriter(graph: chunk, input: source.input, codec: source.transformableCodec)
    let cells = writer.makeCells()
    defer { cells.release() }
    // Stubs (a chunk read with them: `EntityTable.stubsFrom`) are written by their own part.
    for (e, t) in chunk.tables.enumerated() where t.realCount > 0 {
      // A dry run renders to nowhere: the errors a write would meet, nothing kept.
      let (fd, path) =
        try scratchPath(e).map { path throws(MigrationFailure) in (try file(e, path), path) }
        ?? (nowhere(), "/dev/null")
      // Rendered straight into the entity's file: a chunk's bytes are never all in memory.
      var out = JSONOutput(
        fileDescriptor: fd, path: path, continuing: continuation, isFirst: sizes[e] == 0, bufferCapacity: 1 << 20)
      do {
        try writer.writeObjects(of: e, cells, to: &out)
      } catch {
        throw MigrationFailure([
          MigrationError("run-write", "cannot write the migrated store: \(error)", file: target ?? "")
        ])
      }
      do {
        try out.flushAndCheck()
      } catch {
        throw MigrationFailure(error, file: path)
      }
      sizes[e] += out.bytesFlushed
    }
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
    do {
      let file = try AtomicFileWriter(target: target)
      var out = JSONOutput(fileDescriptor: file.fileDescriptor, path: target, style: style, startsWriteback: durable)
      out.onFlush = written
      StoreWriter.writeHeader(metadata, layout: layout, keyHighWater: keyHighWater, to: &out)
      out.writeKey(PreparedKey("objects"))
      out.beginObject()
      for e in layout.entities.indices.sorted(by: { layout.entities[$0].name < layout.entities[$1].name }) {
        out.writeKey(layout.entities[e].name)
        out.beginArray()
        if sizes[e] > 0 {
          try out.flushAndCheck()
          try copy(files[e], sizes[e], to: out.descriptor, path: target)
          out.wroteDirectly(sizes[e])
          // Its pages go now, not after every other entity's copy: the page cache holds the
          // store being written, not the store twice.
          remove(e)
        }
        out.endArray()
      }
      out.endObject()
      out.endObject()
      try out.finishDocument()
      try file.commit(backupPath: backup, durable: durable)
    } catch {
      throw MigrationFailure(error, file: target)
    }
  }

  /// Copies the first `count` bytes of `source` to `fd`.
  private func copy(_ source: Int32, _ count: Int, to fd: Int32, path: String) throws(StoreIOError) {
    #if os(Linux)
      // In the kernel, without the bytes coming up to this process and going down again; a
      // file system or kernel that cannot (EXDEV, ENOSYS, EINVAL…) gets the loop below.
      var from: Int64 = 0
      var copied = 0
      while copied < count {
        let n = copyFileRange(source, &from, fd, nil, count - copied, 0)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        copied += n
      }
      if copied == count { return }
      if copied > 0 {
        // Part went over: the rest the ordinary way, from where it stopped.
        try copyByReading(source, from: copied, count, to: fd, path: path)
        return
      }
    #endif
    try copyByReading(source, from: 0, count, to: fd, path: path)
  }

  private func copyByReading(_ source: Int32, from start: Int, _ count: Int, to fd: Int32, path: String)
    throws(StoreIOError)
  {
    let size = 8 << 20
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    var at = start
    while at < count {
      let n = pread(source, buffer, min(size, count - at), off_t(at))
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw StoreIOError.system(n < 0 ? errno : EIO, path: path, operation: "write") }
      if WriteCalls.write(fd, buffer, n) != n { throw StoreIOError.system(errno, path: path, operation: "write") }
      at += n
    }
  }

  func discard() {
    if devNull >= 0 {
      _ = close(devNull)
      devNull = -1
    }
    for e in files.indices { remove(e) }
  }

  /// Closes and removes entity `e`'s scratch file, if it has one.
  private func remove(_ e: Int) {
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
    budget: MemoryBudget, maxErrors: Int, scratch: String
  ) throws(MigrationFailure) -> any StoreChunkReader {
    // (No positions: `givesOrderedPositions` is false. The chunk writer takes them: a Core Data
    // SQLite store converted to JSON in chunks.)
    try ChunkReader(
      path: path, layout: layout, streamed: streamed, stubs: stubs, budget: budget, maxErrors: maxErrors,
      scratch: scratch)
  }

  /// A chunk's references out of it are stubs made from the ids (`ChunkLinks`): an id
  /// `Entity/n` names its entity and number.
  package var readsReferencesAsStubs: Bool { true }
  /// A JSON store's ordered relationships are listed whole with their owner only: a member
  /// does not know its index in an owner outside its chunk.
  package var givesOrderedPositions: Bool { false }

  /// A relationship without an inverse keeps its entity whole: nothing in a chunk says that
  /// the ids it names out of the chunk are objects of the store (`ChunkLinks` checks the links
  /// both sides write).
  package func cannotStream(source name: String, in model: ObjectModel) -> String? {
    guard let e = model.entity(named: name) else { return nil }
    for r in model.allRelationships(of: e) where !r.isTransient && model.inverse(of: r) == nil {
      return "its relationship \(r.name) has no inverse, which a JSON store's chunk cannot check"
    }
    return nil
  }

  package func openChunkWriter(layout: StoreLayout, target: String?, scratch: String, budget: MemoryBudget)
    throws(MigrationFailure) -> any StoreChunkWriter
  {
    ChunkWriter(layout: layout, target: target, style: style, scratch: scratch)
  }
}

#if os(Linux)
  /// `copy_file_range(2)` (glibc 2.27, musl 1.1.24), which Swift's Glibc module does not
  /// declare without `_GNU_SOURCE`.
  @_silgen_name("copy_file_range")
  private func copyFileRange(
    _ input: Int32, _ inputOffset: UnsafeMutablePointer<Int64>?, _ output: Int32,
    _ outputOffset: UnsafeMutablePointer<Int64>?, _ length: Int, _ flags: UInt32
  ) -> Int
#endif
