/// A store format that can read a store a chunk of objects at a time and write one from chunks,
/// so that a run's memory is bounded by `--memory-limit` rather than by the store
/// (`StreamingRun`, `Specs/limits.md` "Memory").
package protocol ChunkedStoreFormat: StoreFormat {
  /// Opens `path` for reading in chunks: objects of the `streamed` entities (layout indexes)
  /// come a chunk at a time, each chunk read with about `budget.window` bytes of memory; every
  /// other entity is read whole, within `budget.held` bytes. With `stubs`, a chunk's to-one
  /// relationships to objects outside it are set to stubs (`EntityTable.stubsFrom`,
  /// `readsReferencesAsStubs`); the members a chunk holds of the ordered relationships in
  /// `positionsOnly` (`Entity.relationship`) of a stub get their index in the whole
  /// relationship (`ObjectGraph.orderedPositions`) instead of the relationship read whole. A
  /// format whose positions take a pass (`positionsTakeAPass`, JSON) reads the to-many
  /// relationships without an inverse in `positionsOnly` too: a chunk's member of one whose
  /// owner is outside it gets a stub of the owner listing it (the owner's key goes in the
  /// member's row in Core Data SQLite, `StreamingConversion`).
  /// What the reader keeps on disk goes in the folder `scratch`, which the run removes. A
  /// format whose positions take a pass tells `firstPass` how far it has read (bytes of the
  /// store, and of how many; `MigrationRun.IOPhase.places`).
  func openChunks(
    _ path: String, layout: StoreLayout, streamed: Set<Int>, stubs: Bool, positionsOnly: Set<String>,
    budget: MemoryBudget, maxErrors: Int, scratch: String, firstPass: (@Sendable (Int, Int) -> Void)?
  ) throws(MigrationFailure) -> any StoreChunkReader

  /// Starts a store at `target` (nil: a dry run, nothing is kept) written from chunks of
  /// destination objects, keeping what it needs in the folder `scratch`, within `budget`'s
  /// limit (what the format's own library takes to write it included).
  func openChunkWriter(layout: StoreLayout, target: String?, scratch: String, budget: MemoryBudget)
    throws(MigrationFailure) -> any StoreChunkWriter

  /// Why this format cannot read entity `name` of the source model a chunk at a time, beyond
  /// `StreamingPlan`'s rules; nil when it can.
  func cannotStream(source name: String, in model: ObjectModel) -> String?
  /// The metadata `StoreChunkReader.finish` will give for the store at `path` and the highest
  /// object numbers it records (`ObjectGraph.keyHighWater`), when the format can tell them from
  /// the store's first bytes (a JSON store mapc writes has its metadata first); nil when it
  /// cannot. A forecast only: a writer told it (`StoreChunkWriter.expect`) checks it against
  /// what it is given at the commit. Default: nil.
  func metadataForecast(_ path: String, layout: StoreLayout) -> (StoreMetadata, keyHighWater: [String: Int64])?
  /// Why this format cannot write entity `name` of the destination model from chunks, beyond
  /// `StreamingPlan`'s rules; nil when it can.
  func cannotStream(destination name: String, in model: ObjectModel) -> String?

  /// Whether a run in chunks can keep the objects' numbers (an inferred step,
  /// `MigrationRun.Options.keepObjectKeys`): the numbers of a streamed entity's objects, as read,
  /// are unique and positive in its table (or the read fails), so that each chunk's are the
  /// whole run's. Default: false.
  var keepsObjectKeysInChunks: Bool { get }

  /// Whether a store of this format lists the members of a to-many relationship with their
  /// owner (a JSON store's arrays of ids), not only in the members' rows (a Core Data SQLite
  /// store's one-to-many: its members' foreign keys). Default: true.
  var listsToManyMembers: Bool { get }

  /// Whether a chunk can refer to objects outside it as stubs, objects with only their number
  /// (`EntityTable.stubsFrom`), so that an entity with to-one relationships can stream
  /// (`StreamingPlan`, when the objects keep their numbers). Default: false.
  var readsReferencesAsStubs: Bool { get }

  /// Whether giving a chunk's members of an ordered relationship of an object outside it their
  /// index in the whole relationship (`positionsOnly`) takes a pass over the store of its own
  /// (a JSON store lists the members with their owner only), so that a reader is asked for them
  /// only where the writer keeps the order in the members' rows (Core Data SQLite's `Z_FOK_`):
  /// `positions(_:forWriterListingMembers:)`. Default: false.
  var positionsTakeAPass: Bool { get }
}

extension ChunkedStoreFormat {
  package func cannotStream(source name: String, in model: ObjectModel) -> String? { nil }
  package func cannotStream(destination name: String, in model: ObjectModel) -> String? { nil }
  package func metadataForecast(_ path: String, layout: StoreLayout) -> (
    StoreMetadata, keyHighWater: [String: Int64]
  )? { nil }
  package var keepsObjectKeysInChunks: Bool { false }
  package var readsReferencesAsStubs: Bool { false }
  package var listsToManyMembers: Bool { true }
  package var positionsTakeAPass: Bool { false }

  /// The `positionsOnly` to open this format's chunks with for a writer that lists a to-many
  /// relationship's members with their owner (`listsToManyMembers`) or not: a writer that lists
  /// them needs no member's index, so a reader for which they take a pass is not asked for them.
  package func positions(_ names: Set<String>, forWriterListingMembers lists: Bool) -> Set<String> {
    positionsTakeAPass && lists ? [] : names
  }
}

/// The chunks of a store, in order (`ChunkedStoreFormat.openChunks`).
package protocol StoreChunkReader: AnyObject {
  /// The next chunk: a graph of the source layout holding the next objects of one streamed
  /// entity, or (last, once) the objects of every other entity; nil after the last. Errors of
  /// the store found so far stop the reading and are thrown, with those `finish` adds.
  func next() throws(MigrationFailure) -> ObjectGraph?
  /// The checks that take the whole store (ids unique across chunks) and its metadata; after
  /// `next` gave nil.
  func finish() throws(MigrationFailure) -> StoreMetadata
  /// What the whole store counts for progress: its bytes (or rows, `countsRows`). The run adds
  /// up the chunks it has taken (`weight`), not what the reader, a chunk ahead, has read.
  var progressTotal: Int { get }
  /// Whether `progressTotal` and `weight` count rows rather than bytes.
  var countsRows: Bool { get }
  /// What `chunk`, one `next` gave, counts for progress.
  func weight(of chunk: ObjectGraph) -> Int
}

extension ChunkedStoreFormat {
  /// `openChunks` whose first pass, if it takes one, reports nothing.
  package func openChunks(
    _ path: String, layout: StoreLayout, streamed: Set<Int>, stubs: Bool, positionsOnly: Set<String>,
    budget: MemoryBudget, maxErrors: Int, scratch: String
  ) throws(MigrationFailure) -> any StoreChunkReader {
    try openChunks(
      path, layout: layout, streamed: streamed, stubs: stubs, positionsOnly: positionsOnly, budget: budget,
      maxErrors: maxErrors, scratch: scratch, firstPass: nil)
  }
}

extension StoreChunkReader {
  package var countsRows: Bool { false }
  package func weight(of chunk: ObjectGraph) -> Int { chunk.input?.count ?? 0 }
}

/// A store written from chunks (`ChunkedStoreFormat.openChunkWriter`).
package protocol StoreChunkWriter: AnyObject {
  /// Adds the objects of `chunk`, a destination graph whose tables number their objects on
  /// from the previous chunks' (`EntityTable.objectKeys`); `source` is the chunk they were
  /// made from (the bytes their strings refer to). Objects of each entity are written in the
  /// order they are added.
  func append(_ chunk: ObjectGraph, source: ObjectGraph) throws(MigrationFailure)
  /// Writes the store: metadata and every object added, atomically (nothing at `target`
  /// changes before this); `written` is told the bytes written so far as they go.
  /// `bookkeepingFrom`: a store of this format whose bookkeeping (`StoreBookkeeping`) the new
  /// store keeps, as `StoreWriteOptions.bookkeepingFrom` says (a conversion within a format).
  func commit(
    metadata: StoreWriteMetadata, keyHighWater: [String: Int64], backup: String?, durable: Bool,
    bookkeepingFrom: String?, written: (@Sendable (Int) -> Void)?
  ) throws(MigrationFailure)
  /// Deletes what was written so far (a failed run).
  func discard()
  /// Offers the writer, before the first chunk, the metadata and highest numbers `commit` will
  /// most likely be given (`forecast`, from `ChunkedStoreFormat.metadataForecast`; asked only
  /// by a writer that uses it) and whether it will be durable, so that it may write the store's
  /// beginning early. A forecast that proves wrong at the commit costs time, never bytes.
  /// Default: ignored.
  func expect(_ forecast: () -> StoreWriteForecast?, durable: Bool)
}

/// What a chunk writer is told to expect (`StoreChunkWriter.expect`).
package typealias StoreWriteForecast = (metadata: StoreWriteMetadata, keyHighWater: [String: Int64])

extension StoreChunkWriter {
  package func expect(_ forecast: () -> StoreWriteForecast?, durable: Bool) {}
}

/// How a run with `--memory-limit` shares its memory (`Specs/limits.md` "Memory").
package struct MemoryBudget: Sendable {
  /// The limit, in bytes.
  package let limit: Int
  package init(limit: Int) { self.limit = limit }
  /// Input bytes read for one chunk of objects: a 32nd of the limit, between 4 KiB and 64 MiB.
  /// A chunk takes about six times its input while it is migrated and rendered (source and
  /// destination objects, the rendered text), and two are in memory at once (one read ahead,
  /// `ChunkPrefetch`): 3/8 of the limit, besides the ids (a quarter) and the part read whole (a
  /// quarter).
  package var window: Int { min(max(limit / 32, 4 << 10), 64 << 20) }
  /// The largest single object or value: a quarter of the limit.
  package var largestValue: Int { max(limit / 4, 4 << 10) }
  /// Input bytes of the entities read whole: a quarter of the limit.
  package var held: Int { max(limit / 4, 4 << 10) }
}
