/// A store format: how a store file on disk becomes the object graph a migration reads, and how
/// the migrated graph goes back to disk. `MigrationRun` and `ChainRun` talk to stores only
/// through this protocol; the interpreter and validation see only `ObjectGraph`.
///
/// The seam knows none of its implementations: JSON (`Specs/store-format.md`) and SQLite each
/// conform beside their codecs, and the program that runs plans lists the formats it knows
/// (`StoreFormats`). A format's own settings (JSON's indentation) are properties of its value.
public protocol StoreFormat: Sendable {
  /// The name `--store-format` takes and `mapc store info` prints (`json`, `sqlite`).
  var name: String { get }

  /// Whether a file that starts with `prefix` (up to `StoreFormats.prefixLength` bytes, fewer
  /// for a shorter file) is in this format.
  func recognizes(prefix: [UInt8]) -> Bool

  /// Reads the store at `path` into a source graph laid out for `layout`, checking every object
  /// against the model. Errors name the file and a position within it (line and column, or
  /// table, column and row).
  func read(_ path: String, layout: StoreLayout, options: StoreReadOptions) throws(MigrationFailure)
    -> (ObjectGraph, StoreMetadata)

  /// The store's entity version hashes and the steps `mapc migrate` recorded, without reading
  /// the objects.
  func peekMetadata(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek

  /// Writes `graph` as a store of this format. With a target, the file (and whatever files
  /// the format keeps beside it) is replaced atomically: nothing is touched until the whole
  /// store is on disk, and the old contents go to `backup` when given. Without a target the
  /// store is rendered and checked, and nothing is written (a dry run).
  ///
  /// `source` is the graph the values were read from: strings and raw values of `graph` may
  /// refer to its input bytes.
  func write(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, to target: String?,
    backup: String?, options: StoreWriteOptions
  ) throws(MigrationFailure)

  /// The format to write the intermediate stores of a `mapc migrate` chain in, which only mapc
  /// reads back (JSON: compact). Default: the format itself.
  var forIntermediateStores: any StoreFormat { get }

  /// What `mapc store info` prints about the store at `path` without a model. Default: the
  /// entity version hashes `peekMetadata` finds, sorted by entity name.
  func summary(_ path: String) throws(MigrationFailure) -> StoreSummary

  /// Whether a store of this format comes with companion files that are replaced with it
  /// (SQLite's `-wal`, `-shm`, `-journal`), which no other output of a command may name.
  /// Default: false.
  var hasCompanionFiles: Bool { get }

  // MARK: Capabilities (defaults in `StoreFormat+Capabilities.swift`: a format without one writes nothing)

  /// Whether a store of this format may carry the model that wrote it (Core Data's
  /// `Z_MODELCACHE`), so that a command can read it without `--model`. Default: false.
  var carriesModels: Bool { get }

  /// Whether a store this format writes computes the values of derived attributes itself, as
  /// Core Data's SQLite store does with its triggers and fill statements (so a derived value a
  /// step does not copy is computed again, not lost). Default: false.
  var computesDerivedAttributes: Bool { get }

  /// The model the store at `path` carries, with what of it mapc leaves out; nil when it carries
  /// none. Throws when it carries one that cannot be read. Default: nil.
  func carriedModel(_ path: String) throws(MigrationFailure) -> CarriedModel?

  /// What the store at `path` holds besides the model's objects that a store written from its
  /// graph would not carry (Core Data's persistent history and CloudKit mirroring tables); none
  /// when it cannot be read (the command's own read reports that). Default: none.
  func bookkeeping(_ path: String) -> [StoreBookkeeping]

  /// The Binary values of `model` that the store at `path` keeps outside itself in files that
  /// are missing, per entity and attribute. Default: none.
  func missingExternalFiles(_ path: String, model: ObjectModel) -> [MissingExternalFiles]

  /// Whether a store written in this format keeps a reference to an external file that is
  /// missing as it is (Core Data SQLite), rather than needing the value. Default: false.
  var keepsMissingExternalFiles: Bool { get }

  /// Whether a store of this format is copied as the bytes of its one file; otherwise a copy is
  /// read and written again, its bookkeeping kept (`mapc test --update`). Default: true.
  var isCopiedAsBytes: Bool { get }

  /// The schema of the store at `path` beyond the entity version hashes (Core Data SQLite: the
  /// tables, indexes and triggers), which a migrated store must share with a new empty store of
  /// the same version; nil for a format whose stores have none. Default: nil.
  func schema(_ path: String) throws(MigrationFailure) -> StoreSchema?

  /// Exactly what `read(_:layout:options:)` with `layout` would return from the store that
  /// `write(_:source:metadata:to:backup:options:)` would write from `graph`, `source` and
  /// `metadata`, made in memory without writing or reading anything: the objects, their order,
  /// values and numbers, the to-many members in the order a read rebuilds them, the metadata.
  /// `path` names the store as a read of it would (its messages). Nil whenever the format cannot
  /// be sure that the two are the same (a value kind, external data, anything), and whenever
  /// the write would fail: the caller then writes the store and reads it back. `mapc migrate`'s
  /// fused chain hands each step's result to the next step this way (`ChainRun`). `progress`
  /// is told the objects made so far and the total as it goes (`MigrationRun.IOPhase.handOn`).
  /// Default: nil.
  func readBack(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, layout: StoreLayout, path: String,
    progress: (@Sendable (Int, Int) -> Void)?
  ) -> (ObjectGraph, StoreMetadata)?

  /// Makes ahead what this format derives from `layout` and keeps with it (`StoreLayout
  /// .derived`) for reading and writing its stores, so that the work is done before a store is
  /// read or written (a chain lays out its later versions on another core while it runs the
  /// earlier steps). Default: nothing.
  func prepareLayout(_ layout: StoreLayout)

  /// At most how many objects the store at `path` holds, when the format can tell without
  /// reading it (what the memory a whole read takes is estimated with, `StoreFootprint`); nil
  /// when it cannot. A format that counts by reading the file may stop once the count passes
  /// `cap` (the answer is then above `cap`). Default: nil.
  func objectCountBound(_ path: String, cap: Int) -> Int?
  /// Memory an object of this format's stores takes in a run beyond twice its bytes
  /// (`StoreFootprint`). Default: `defaultMemoryPerObject`.
  var memoryPerObject: Int { get }
}

extension StoreFormat {
  public var forIntermediateStores: any StoreFormat { self }

  public func summary(_ path: String) throws(MigrationFailure) -> StoreSummary {
    let peek = try peekMetadata(path)
    return StoreSummary(
      entityVersionHashes: (peek.entityVersionHashes ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
  }

  public var hasCompanionFiles: Bool { false }

  public func prepareLayout(_ layout: StoreLayout) {}

  public func objectCountBound(_ path: String, cap: Int) -> Int? { nil }
  public var memoryPerObject: Int { defaultMemoryPerObject }
}

/// How to read a store.
public struct StoreReadOptions: Sendable {
  /// Stop after this many errors.
  public var maxErrors: Int
  /// Called as rows are read, by a format that reads rows (Core Data's SQLite stores): the rows
  /// read so far and the store's total, counted before reading.
  public var rowProgress: (@Sendable (Int, Int) -> Void)?
  /// Called as the file is read, by a format that reads it as text (JSON): the bytes read so
  /// far and the file's size.
  public var byteProgress: (@Sendable (Int, Int) -> Void)?

  public init(maxErrors: Int = 50, rowProgress: (@Sendable (Int, Int) -> Void)? = nil) {
    self.maxErrors = maxErrors
    self.rowProgress = rowProgress
  }
}

/// How to write a store, in any format.
public struct StoreWriteOptions: Sendable {
  /// Called as the store is written, with the objects written so far (of the graph's
  /// `objectCount`), every few thousand objects: not on every object.
  public var objectProgress: (@Sendable (Int) -> Void)?
  /// A store of the same format that holds the same objects (a conversion: nothing migrated):
  /// the store written keeps what that store holds besides the objects and which the graph
  /// does not carry (Core Data SQLite: the persistent-history and CloudKit tables).
  public var bookkeepingFrom: String?
  /// Whether the store written is flushed to disk before it replaces the target (`fsync` of
  /// the file and its folder). False only for a scratch store that is read back and removed
  /// within the same run (the hand-off between the steps of a `mapc migrate` chain): it is
  /// still written to a temporary file and renamed, but never flushed.
  public var durable = true

  public init(objectProgress: (@Sendable (Int) -> Void)? = nil, bookkeepingFrom: String? = nil) {
    self.objectProgress = objectProgress
    self.bookkeepingFrom = bookkeepingFrom
  }
}

extension StoreMetadataPeek {
  /// What a format other than JSON found in its store's metadata.
  public static func found(hashes: [String: String]?, migrations: [MetadataValue] = []) -> StoreMetadataPeek {
    StoreMetadataPeek(entityVersionHashes: hashes, migrations: migrations)
  }
}

/// Memory an object of a Core Data SQLite store takes in a run beyond twice its bytes, counted
/// for the estimate (`StoreFormat.memoryPerObject`, `StoreFootprint`): measured 276 bytes
/// (648 MB − 48 MB − 2 × 116 MB over 2,002,000 objects), taken as 300.
package let defaultMemoryPerObject = 300
