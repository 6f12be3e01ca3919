import Foundation
import MapRuntime
import MapTools

/// Converts a store from one store format to another (what `mapc store convert`, `store export`
/// and `store import` do): finds the version of the model whose entity version hashes the store
/// records, reads every object with that version's model and writes them in the destination
/// format, atomically. The store UUID and the metadata keys the store carries are kept.
public struct StoreConverter: Sendable {
  /// What to convert, and how.
  public struct Options: Sendable {
    /// The store to read.
    public var store: String
    /// Where to write the converted store (replaced atomically, with an SQLite store's
    /// companions).
    public var output: String
    /// Every version of the model the store is a version of (a bundle's, a Swift schema's, or
    /// the one model an SQLite store carries).
    public var versions: ModelVersions
    /// How messages name the model (`App.xcdatamodeld`).
    public var modelName: String
    /// The format to read the store as; nil: the one of its content.
    public var source: (any StoreFormat)?
    /// The format to write.
    public var destination: any StoreFormat
    /// The formats the store's content is detected among.
    public var formats: [any StoreFormat]
    /// Called as the read and write phases advance (objects done, objects in all when known).
    public var ioProgress: (@Sendable (MigrationRun.IOPhase, Int, Int?) -> Void)?
    /// The memory the conversion may take (`--memory-limit`, in bytes): a store whose read in
    /// memory is expected to take more is converted a chunk at a time (`StreamingConversion`)
    /// or refused (`run-memory-limit`, nothing written). Default: `StoreIO.memoryLimit`, the
    /// process's (nil: no limit).
    public var memoryLimit: Int? = StoreIO.memoryLimit

    /// Options to convert `store` to `output` in `destination`'s format, with `versions` of the
    /// model named `modelName`.
    public init(
      store: String, output: String, versions: ModelVersions, modelName: String, source: (any StoreFormat)? = nil,
      destination: any StoreFormat, formats: [any StoreFormat] = StoreFormatChoice.formats
    ) {
      self.store = store
      self.output = output
      self.versions = versions
      self.modelName = modelName
      self.source = source
      self.destination = destination
      self.formats = formats
    }
  }

  /// What a conversion did.
  public struct Report: Sendable, Hashable {
    /// How many objects were read and written.
    public var objectCount: Int
    /// The chunks the store was read in (`memoryLimit`), or nil when it was read whole.
    public var chunks: Int?
    /// The version of the model the store was at.
    public var version: String
    /// Notes on what the new store leaves out or keeps as it is (external Binary files that are
    /// missing, Core Data's history and CloudKit tables), in the order `mapc` prints them.
    public var notes: [String]
  }

  /// A converter.
  public init() {}

  /// The destination format: the one named `name`, else the one named by `output`'s extension
  /// (`out.json`, `App.sqlite`); nil when neither names one of `formats`.
  public static func destination(
    named name: String?, output: String, among formats: [any StoreFormat] = StoreFormatChoice.formats
  ) -> (any StoreFormat)? {
    if let name { return StoreFormats.named(name, among: formats) }
    let file = (output as NSString).lastPathComponent
    guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return nil }
    return StoreFormats.named(String(file[file.index(after: dot)...]), among: formats)
  }

  /// Converts the store; throws ``MapcError/run(_:notes:)`` (exit status 2, nothing written)
  /// when the store cannot be read, matches no version or cannot be written.
  public func convert(_ options: Options) throws(MapcError) -> Report {
    let store = options.store
    let output = options.output
    let source = options.source ?? StoreFormats.detect(store, among: options.formats)
    let destination = options.destination
    // Same format: nothing is converted, so the store's own bookkeeping is kept too.
    let sameFormat = type(of: source) == type(of: destination)
    var external: String?
    var version = ""
    var chunks: Int?
    let result = Result { () throws(MigrationFailure) -> Int in
      let found = try Self.version(
        of: try source.peekMetadata(store), in: options.versions, modelName: options.modelName, path: store)
      version = found.name
      if destination.keepsMissingExternalFiles {
        external = ExternalDataNote.note(store: store, format: source, model: found.model, into: output)
      }
      let layout = StoreLayout(model: found.model)
      func written(_ metadata: StoreMetadata) -> StoreWriteMetadata {
        StoreWriteMetadata(
          modelVersionIdentifiers: metadata.modelVersionIdentifiers ?? found.model.versionIdentifiers,
          entityHashes: found.hashes, extra: metadata.extra)
      }
      if let limit = options.memoryLimit {
        let request = StreamingConversion.Request(
          store: store, output: output, source: source, destination: destination, layout: layout, limit: limit,
          metadata: written, bookkeepingFrom: sameFormat ? store : nil, report: options.ioProgress)
        if let done = try StreamingConversion.convertIfNeeded(request) {
          chunks = done.chunks
          return done.objects
        }
      }
      let (graph, metadata) = try StoreIO.read(source, store, layout: layout, report: options.ioProgress)
      try StoreIO.write(
        destination, graph, source: nil, metadata: written(metadata), to: output, backup: nil,
        report: options.ioProgress, bookkeepingFrom: sameFormat ? store : nil)
      return graph.objectCount
    }
    switch result {
    case .success(let count):
      var notes = external.map { [$0] } ?? []
      if !sameFormat { notes += AncillaryTables.notes(store: store, format: source, into: output) }
      return Report(objectCount: count, chunks: chunks, version: version, notes: notes)
    case .failure(let failure):
      throw .run(failure, notes: ["nothing was written"])
    }
  }

  /// The version of `versions` whose entity hashes the store's metadata records.
  package static func version(
    of peek: StoreMetadataPeek, in versions: ModelVersions, modelName: String, path: String
  ) throws(MigrationFailure) -> ModelVersion {
    let hashes = peek.entityVersionHashes ?? [:]
    let versions = versions.matchingConfiguration(of: hashes).versions
    switch StoreVersion.identify(hashes, in: versions) {
    case .version(let i): return versions.versions[i]
    case .unknown(let closest, let differing):
      throw MigrationFailure([
        MigrationError(
          "store-unknown-version",
          "the store's entity version hashes match no version of \(modelName); the closest is '\(versions.versions[closest].name)', which differs in \(differing.joined(separator: ", "))",
          file: path)
      ])
    }
  }
}
