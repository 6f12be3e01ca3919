/// A store format: how a store file on disk becomes the object graph a migration reads, and how
/// the migrated graph goes back to disk. `MigrationRun` and `ChainRun` talk to stores only
/// through this protocol; the interpreter and validation see only `ObjectGraph`.
///
/// `JSONStoreFormat` (`Specs/store-format.md`) is the first implementation. A format adds one
/// type conforming to this protocol and a line in `StoreFormats.all`.
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
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriter.Metadata, to target: String?,
    backup: String?, options: StoreWriteOptions
  ) throws(MigrationFailure)
}

/// How to read a store.
public struct StoreReadOptions: Sendable {
  /// Stop after this many errors.
  public var maxErrors: Int
  /// See `StoreReader.read` (JSON only).
  public var splitMinimum: Int

  public init(maxErrors: Int = 50, splitMinimum: Int = StoreReader.defaultSplitMinimum) {
    self.maxErrors = maxErrors
    self.splitMinimum = splitMinimum
  }
}

/// How to write a store. Options a format has no use for are ignored.
public struct StoreWriteOptions: Sendable {
  /// Indented or compact (JSON only).
  public var style: JSONOutput.Style
  /// Called as the store is written, with the bytes written so far and, once known (at the
  /// end), the total.
  public var progress: (@Sendable (Int, Int?) -> Void)?

  public init(style: JSONOutput.Style = .indented, progress: (@Sendable (Int, Int?) -> Void)? = nil) {
    self.style = style
    self.progress = progress
  }
}

extension StoreMetadataPeek {
  /// What a format other than JSON found in its store's metadata.
  public static func found(hashes: [String: String]?, migrations: [MetadataValue] = []) -> StoreMetadataPeek {
    StoreMetadataPeek(entityVersionHashes: hashes, migrations: migrations)
  }
}
