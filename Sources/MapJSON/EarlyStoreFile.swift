#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapJSONText
import MapRuntime

/// The store a `ChunkWriter` writes from its first chunk on, on two guesses: that the header
/// is the one the commit will be given (the metadata forecast, `StoreChunkWriter.expect`), and
/// that once a chunk holds no object of the entity being written but objects of a later one
/// (in name order, the store's order), no more objects of the first come. Then each entity's
/// objects are written once, straight into the store; only those of entities after the one
/// being written wait in their scratch files, and go in when the writing reaches them.
///
/// A guess that fails costs time, not bytes: an object for an entity already closed makes the
/// file `broken`, and a header that differs makes the commit write the store anew from this
/// file's parts (`spans`) and the scratch files, as the writer does without this file.
final class EarlyStoreFile {
  private var file: AtomicFileWriter?
  var out: JSONOutput
  /// The temporary file, for reading its parts back.
  let temporaryPath: String
  /// The bytes from the document's start to the first entity's key, as written.
  let header: [UInt8]
  private let names: [String]
  /// The entities in the store's order (by name), and the rank of each in it.
  private let order: [Int]
  private let rank: [Int]
  /// The rank of the entity being written (-1 before the first), and where its objects start.
  private var frontier = -1
  private var start = 0
  /// Per entity: where its objects are in the file (empty when none are).
  private(set) var spans: [Range<Int>]
  /// An object came for an entity already closed: the file holds parts of the store only.
  private(set) var broken = false

  /// The scratch file of an entity (its descriptor and bytes; nil when it has none), and what
  /// removes it once its bytes are in.
  typealias Scratch = (scratch: (Int) -> (fd: Int32, count: Int)?, taken: (Int) -> Void)

  /// Creates the store's temporary file beside `target` and writes the header; nil when the
  /// target is not a regular file to replace (a stream cannot be written anew), or the
  /// temporary file cannot be made (the commit then reports why).
  init?(
    target: String, style: JSONOutput.Style, header metadata: StoreWriteMetadata, layout: StoreLayout,
    keyHighWater: [String: Int64], durable: Bool
  ) {
    let opened: AtomicFileWriter
    do {
      opened = try AtomicFileWriter(target: target, streams: false)
    } catch {
      return nil
    }
    header = Self.header(metadata, layout: layout, keyHighWater: keyHighWater, style: style)
    out = JSONOutput(fileDescriptor: opened.fileDescriptor, path: target, style: style, startsWriteback: durable)
    StoreWriter.writeHeader(metadata, layout: layout, keyHighWater: keyHighWater, to: &out)
    temporaryPath = opened.temporaryPath
    file = consume opened
    names = layout.entities.map(\.name)
    order = StoreWriter.entityOrder(layout)
    var rank = [Int](repeating: 0, count: order.count)
    for (r, e) in order.enumerated() { rank[e] = r }
    self.rank = rank
    spans = [Range<Int>](repeating: 0..<0, count: order.count)
  }

  /// The header's bytes, as `StoreWriter.writeHeader` writes them.
  static func header(
    _ metadata: StoreWriteMetadata, layout: StoreLayout, keyHighWater: [String: Int64], style: JSONOutput.Style
  ) -> [UInt8] {
    var out = JSONOutput(style: style)
    StoreWriter.writeHeader(metadata, layout: layout, keyHighWater: keyHighWater, to: &out)
    return out.bytes
  }

  /// The entity whose objects of the next chunk go straight into the file, given the entities
  /// the chunk has objects of; nil when none does (the file is broken, or each of them comes
  /// after the one being written). Moves on to a later entity when the one being written has
  /// no object in the chunk: the entities passed are closed, their waiting objects copied in.
  func entity(for present: [Int], _ scratch: Scratch) throws(StoreIOError) -> Int? {
    guard !broken, let first = present.min(by: { rank[$0] < rank[$1] }) else { return nil }
    if frontier >= 0 && rank[first] < frontier {
      try closeSpan()
      broken = true
      return nil
    }
    if frontier < 0 || (rank[first] > frontier && !present.contains(order[frontier])) {
      try advance(to: rank[first], scratch)
    }
    return order[frontier]
  }

  /// Closes the entity being written and those before rank `r`, and opens the entity of rank
  /// `r` (none when `r` is past the last).
  private func advance(to r: Int, _ scratch: Scratch) throws(StoreIOError) {
    while frontier < r {
      if frontier >= 0 {
        try closeSpan()
        out.endArray()
      }
      frontier += 1
      guard frontier < order.count else { return }
      let e = order[frontier]
      out.writeKey(names[e])
      out.beginArray()
      try out.flushAndCheck()
      start = out.bytesFlushed
      if let (fd, count) = scratch.scratch(e), count > 0 {
        try out.appendFile(fd, 0..<count)
        scratch.taken(e)
      }
    }
  }

  /// Ends the span of the entity being written at what has been written.
  private func closeSpan() throws(StoreIOError) {
    try out.flushAndCheck()
    spans[order[frontier]] = start..<out.bytesFlushed
  }

  /// Stops writing the file (its parts are to be read back): the span of the entity being
  /// written ends here.
  func stop() throws(StoreIOError) {
    guard !broken else { return }
    if frontier >= 0 { try closeSpan() }
    broken = true
  }

  /// Completes the store in this file, the entities after the one being written from their
  /// scratch files, and commits it over the target; `written` is told the bytes written.
  func finish(
    _ scratch: Scratch, backup: String?, durable: Bool, written: (@Sendable (Int) -> Void)?
  ) throws(StoreIOError) {
    precondition(!broken, "finish() of a broken early store")
    out.onFlush = written
    written?(out.bytesFlushed)
    try advance(to: order.count, scratch)
    out.endObject()
    out.endObject()
    try out.finishDocument()
    guard let file = file.take() else { preconditionFailure("finish() twice") }
    try file.commit(backupPath: backup, durable: durable)
  }
}
