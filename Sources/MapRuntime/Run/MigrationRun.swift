import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One `mapc run`: read the store, check it matches the plan, migrate, validate, and only then
/// write the new store atomically (temporary file in the target folder, fsync, rename). When
/// anything fails nothing is written and the input is untouched.
///
/// Apps that link MapRuntime can call this directly with a plan read by `PlanReader` and the
/// store's format (`JSONStoreFormat()` from MapJSON, or Core Data SQLite's from MapSQLite).
public enum MigrationRun {
  public enum Output: Sendable {
    /// Write a new file (replacing it if it exists).
    case file(String)
    /// Replace the input store, keeping the old one at `backup` when given.
    case inPlace(backup: String?)
    /// Run everything, write nothing (`--dry-run`).
    case none
    /// Replace `target` (which need not be the input), keeping its old contents at `backup`
    /// when given (the last step of `mapc migrate`).
    case replace(target: String, backup: String?)
  }

  public struct Options: Sendable {
    public var output: Output
    /// The store's format, which the migrated store is written in too, with its own settings
    /// (JSON: indented or compact). The program that runs the plan picks it, by name or from the
    /// file's content (`StoreFormats`).
    public var storeFormat: any StoreFormat
    public var maxErrors: Int
    /// `now()`, seconds since 2001-01-01.
    public var now: Double
    public var progress: (@Sendable (MigrationManager.Pass, Int, Int) -> Void)?
    /// Called as the store is read (bytes of the file, or rows against the store's total) and
    /// written (objects against the graph's total, then the bytes of the file written): the
    /// phases around the three passes.
    public var ioProgress: (@Sendable (IOPhase, Int, Int?) -> Void)?
    /// Print the time each phase took on standard error (`MAPC_PHASES=1`).
    public var reportPhases = false
    /// See `MigrationManager.Options.parallelMinimum`.
    public var parallelMinimum = MigrationManagerOptions.defaultParallelMinimum
    /// Metadata keys to write in place of the input's (`StoreWriteMetadata.generated`).
    public var generatedMetadata: [(key: String, value: MetadataValue)] = []
    /// Objects keep the numbers (`Z_PK`, `Z_MAX`) of the source objects they are made from, as
    /// Core Data's lightweight migration keeps them: for inferred steps of `mapc migrate`.
    public var keepObjectKeys = false
    /// Called with the source graph once it is read and matches the plan, before anything runs
    /// or is written: a throw stops the run (`mapc`'s data-loss consent check).
    package var checkSource: (@Sendable (ObjectGraph) throws(MigrationFailure) -> Void)?
    /// `checkSource` for a run in chunks (`memoryLimit`): called with each chunk, it adds up
    /// what the chunks hold; `checkSourceParts`, called once every chunk is read and the store
    /// matches the plan (before anything is written, and before a chunk's failure is reported),
    /// decides on the sum, as `checkSource` does on the whole store.
    package var checkSourcePart: (@Sendable (ObjectGraph) throws(MigrationFailure) -> Void)?
    package var checkSourceParts: (@Sendable () throws(MigrationFailure) -> Void)?
    /// `--memory-limit` in bytes: a store that does not fit it in memory is read, migrated and
    /// written a chunk at a time (`StreamingRun`), or refused (`run-memory-limit`). Nil: no limit.
    public var memoryLimit: Int?
    /// Composite elements the destination does not have, removed from the migrated values
    /// after the passes (the loss checked by `checkSource`): element path, destination
    /// attribute and entity.
    package var elementDrops: [ElementRemoval] = []
    /// Whether the store written is flushed to disk (`StoreWriteOptions.durable`): false for
    /// the scratch stores between the steps of a fused chain (`ChainRun`).
    package var durable = true
    /// The layouts of the plan's source and destination models, when the caller has them (a
    /// chain's steps share each version's: `ChainRun`); nil: made from the plan. A layout of
    /// another model is not used.
    package var layouts: (source: StoreLayout?, destination: StoreLayout?) = (nil, nil)
    /// The store as the previous step of a fused chain handed it on in memory, read from no
    /// file (`ChainRun`); the store path then only names it in messages.
    package var handedIn: HandedStore?
    /// The layout the next step of a fused chain reads with: the result is handed on in memory
    /// when the format can make exactly what reading it back would give (`StoreFormat.readBack`),
    /// and written to `output` otherwise.
    package var handOffLayout: StoreLayout?

    public init(
      output: Output, storeFormat: any StoreFormat, maxErrors: Int = 50, now: Double = 0,
      progress: (@Sendable (MigrationManager.Pass, Int, Int) -> Void)? = nil
    ) {
      self.output = output
      self.storeFormat = storeFormat
      self.maxErrors = maxErrors
      self.now = now
      self.progress = progress
    }
  }

  /// The phases of a run that are not passes of the migration.
  public enum IOPhase: String, Sendable {
    /// Reading, in bytes of the file, or in rows (`readRows`) for a format that reads rows;
    /// writing, in objects (`writeObjects`) as they go, then the bytes of the file (`write`);
    /// a dry run's check that the store could be written, in objects (`checkWriteObjects`);
    /// the first pass over a JSON store read in chunks into a format that keeps a to-many's
    /// members in their own rows (`places`, in bytes of the file); a fused chain's result
    /// handed to the next step in memory (`handOn`, in objects: `StoreFormat.readBack`).
    case read, readRows, writeObjects, write, checkWriteObjects, places, handOn
  }

  public struct Summary: Sendable {
    /// Objects read, per source entity (sorted by name).
    public var read: [(entity: String, count: Int)]
    /// Objects created, per destination entity (sorted by name).
    public var created: [(entity: String, count: Int)]
    public var seconds: Double
    /// Entity mappings whose pass 1 ran on every core.
    public var parallelMappings: [String]
    /// Entities whose objects were read on two threads.
    public var splitEntities: [String]
    /// Where the store was written (nil for a dry run).
    public var writtenTo: String?
    /// Per entity mapping, in plan order: objects read and made.
    public var mappings: [MigrationManager.MappingCount] = []
    /// The chunks the store was read and migrated in (`memoryLimit`); 0: all at once.
    public var chunks = 0
  }

  package static func fileSize(_ path: String) -> Int? {
    var size = stat()
    return stat(path, &size) == 0 ? Int(size.st_size) : nil
  }

  public static func run(plan: MigrationPlan, storePath: String, options: Options) throws(MigrationFailure) -> Summary {
    try runHandingOff(plan: plan, storePath: storePath, options: options).summary
  }

  /// `run`, with the result handed on in memory when `Options.handOffLayout` asks for it and
  /// the format can (nil: it was written to `output`).
  package static func runHandingOff(
    plan: MigrationPlan, storePath: String, options: Options
  ) throws(MigrationFailure) -> (summary: Summary, handed: HandedStore?) {
    let clock = ContinuousClock()
    let start = clock.now
    let phases = PhaseTimer(enabled: options.reportPhases)
    // A store already at the plan's destination model: said so, before reading it with the
    // source model (which would report every property that changed).
    if let hashes = recordedHashes(storePath, options),
      StoreMetadataPeek.sameHashes(hashes, plan.destinationEntityHashes),
      !StoreMetadataPeek.sameHashes(hashes, plan.sourceEntityHashes)
    {
      throw MigrationFailure([
        MigrationError(
          "run-store-already-migrated",
          "the store is already at the plan's destination model (its entity version hashes are those of \(plan.destinationModel.versionName ?? "the destination model")): there is nothing to migrate",
          file: storePath)
      ])
    }
    if let limit = options.memoryLimit,
      let summary = try StreamingRun.runIfNeeded(
        plan: plan, storePath: storePath, options: options, limit: limit, phases: phases)
    {
      return (summary, nil)
    }
    let format = options.storeFormat
    // The source's objects are let go of here: the write's peak memory is the destination's.
    let migrated = try readAndMigrate(plan: plan, storePath: storePath, options: options, phases: phases)

    var target: String?
    var backup: String? = nil
    switch options.output {
    case .file(let path): target = path
    case .inPlace(let b):
      target = storePath
      backup = b
    case .none: target = nil
    case .replace(let t, let b):
      target = t
      backup = b
    }
    let writerMetadata = StoreWriteMetadata(
      modelVersionIdentifiers: plan.destinationModel.versionIdentifiers,
      entityHashes: plan.destinationEntityHashes, extra: migrated.metadata.extra, generated: options.generatedMetadata)
    // Under a memory limit, a result with more objects than the step read is written instead:
    // the graph handed on is made beside the destination, and the next step takes it in
    // memory without weighing it against the limit, so no step holds more than this one did.
    let readCount = migrated.read.reduce(0) { $0 + $1.count }
    let objects = migrated.destination.objectCount
    let handOff = objects == 0 || options.memoryLimit == nil || objects <= readCount ? options.handOffLayout : nil
    let handed = handOff.flatMap { layout in
      format.readBack(
        migrated.destination, source: migrated.source, metadata: writerMetadata, layout: layout, path: storePath,
        progress: options.ioProgress.map { report in { @Sendable done, total in report(.handOn, done, total) } })
    }.map { HandedStore(graph: $0.0, metadata: $0.1) }
    if handed != nil { target = nil }
    do throws(MigrationFailure) {
      if handed == nil {
        try StoreIO.write(
          format, migrated.destination, source: migrated.source, metadata: writerMetadata, to: target,
          backup: backup, report: options.ioProgress, durable: options.durable)
      }
    } catch {
      // A dry run's errors are about the store that would have been written from the input.
      throw writeFailure(error, storePath)
    }
    phases.mark("write store")
    phases.report()
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let summary = Summary(
      read: migrated.read, created: counts(migrated.destination), seconds: seconds,
      parallelMappings: migrated.parallelMappings, splitEntities: migrated.source.splitEntities, writtenTo: target,
      mappings: migrated.mappings)
    return (summary, handed)
  }

  /// A write's errors, those that name no file named after the store: a dry run's are about
  /// the store that would have been written from it.
  static func writeFailure(_ error: MigrationFailure, _ storePath: String) -> MigrationFailure {
    MigrationFailure(
      error.errors.map { e in
        var e = e
        if e.file == nil || e.file == "" { e.file = storePath }
        return e
      }, truncated: error.truncated)
  }

  private static func counts(_ g: ObjectGraph) -> [(entity: String, count: Int)] {
    g.tables.map { ($0.layout.name, $0.count) }.sorted { $0.0 < $1.0 }
  }

  /// A run up to its write: the destination graph, what the writer reads of the source
  /// (`ObjectGraph.withoutObjects`) and what the summary says of the rest. The source graph and
  /// the migration manager end with this function, so their memory is free before the write.
  private struct Migrated {
    var destination: ObjectGraph
    var source: ObjectGraph
    var metadata: StoreMetadata
    var read: [(entity: String, count: Int)]
    var parallelMappings: [String]
    var mappings: [MigrationManager.MappingCount]
  }

  /// Reads the store (or takes the one handed in by the previous step of a fused chain), checks
  /// it against the plan and runs the passes.
  private static func readAndMigrate(
    plan: MigrationPlan, storePath: String, options: Options, phases: PhaseTimer
  ) throws(MigrationFailure) -> Migrated {
    let handedIn = options.handedIn.map { ($0.take(), $0.metadata) }
    if let handedIn, handedIn.0 == nil {
      // A chain hands each store to one step; a second taker would read no store at all.
      throw MigrationFailure([
        MigrationError(
          "run-error", "internal error: the store handed on in memory was already taken by another step",
          file: storePath)
      ])
    }
    let (graph, metadata) =
      if let handedIn, let taken = handedIn.0 {
        (taken, handedIn.1)
      } else {
        try StoreIO.read(
          options.storeFormat, storePath, layout: .of(plan.sourceModel, reusing: options.layouts.source),
          maxErrors: options.maxErrors,
          report: options.ioProgress)
      }
    let differing = metadata.entitiesWithDifferentHashes(plan.sourceEntityHashes)
    if !differing.isEmpty {
      throw MigrationFailure([
        MigrationError(
          "run-store-model-mismatch",
          "the store does not match the plan's source model: entity version hashes differ for \(differing.joined(separator: ", ")) (Core Data: \"Mismatch between mapping and source model\")",
          file: storePath)
      ])
    }
    try options.checkSource?(graph)
    let manager = try MigrationManager(
      plan: plan, source: graph,
      options: MigrationManager.Options(
        maxErrors: options.maxErrors, now: options.now, parallelMinimum: options.parallelMinimum,
        destinationLayout: options.layouts.destination))
    manager.progress = options.progress
    phases.mark("read store")
    try manager.migrate(phases: phases)
    if options.keepObjectKeys { manager.keepSourceObjectKeys() }
    for d in options.elementDrops {
      manager.destination.removeElement(d.path, of: d.attribute, entity: d.entity, source: graph)
    }
    return Migrated(
      destination: manager.destination, source: graph.withoutObjects(), metadata: metadata,
      read: counts(graph), parallelMappings: manager.parallelMappings, mappings: manager.mappingCounts)
  }

  /// The entity version hashes the store records, without reading its objects (those of the
  /// metadata handed in, for a store handed on in memory); nil when it cannot say.
  private static func recordedHashes(_ storePath: String, _ options: Options) -> [String: String]? {
    guard let handed = options.handedIn else {
      return (try? options.storeFormat.peekMetadata(storePath))?.entityVersionHashes
    }
    guard let list = handed.metadata.entityVersionHashes else { return nil }
    var hashes: [String: String] = [:]
    for (entity, hash) in list { hashes[entity] = hash }
    return hashes
  }
}
