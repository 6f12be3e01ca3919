#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One `mapc run`: read the store, check it matches the plan, migrate, validate, and only then
/// write the new store atomically (temporary file in the target folder, fsync, rename). When
/// anything fails nothing is written and the input is untouched.
///
/// Apps that link MapRuntime can call this directly with a plan read by `PlanReader`.
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
    public var style: JSONOutput.Style
    public var maxErrors: Int
    /// `now()`, seconds since 2001-01-01.
    public var now: Double
    public var progress: (@Sendable (MigrationManager.Pass, Int, Int) -> Void)?
    /// Called as the store is read (bytes of the file) and written (bytes so far, no total):
    /// the phases around the three passes.
    public var ioProgress: (@Sendable (IOPhase, Int, Int?) -> Void)?
    /// Print the time each phase took on standard error (`MAPC_PHASES=1`).
    public var reportPhases = false
    /// See `MigrationManager.Options.parallelMinimum`.
    public var parallelMinimum = ParallelCreation.defaultMinimum
    /// See `StoreReader.read`.
    public var splitMinimum = StoreReader.defaultSplitMinimum
    /// Metadata keys to write in place of the input's (`StoreWriter.Metadata.generated`).
    public var generatedMetadata: [(key: String, value: MetadataValue)] = []

    public init(
      output: Output, style: JSONOutput.Style = .indented, maxErrors: Int = 50, now: Double = 0,
      progress: (@Sendable (MigrationManager.Pass, Int, Int) -> Void)? = nil
    ) {
      self.output = output
      self.style = style
      self.maxErrors = maxErrors
      self.now = now
      self.progress = progress
    }
  }

  /// The phases of a run that are not passes of the migration.
  public enum IOPhase: String, Sendable {
    case read, write
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
  }

  /// Reads and checks the store. The file's bytes are freed on return: the graph keeps only
  /// the strings it needs (see `StringCompaction`).
  static func readStore(_ storePath: String, plan: MigrationPlan, maxErrors: Int, splitMinimum: Int) throws(MigrationFailure)
    -> (ObjectGraph, StoreMetadata)
  {
    let input: InputBytes
    do {
      input = try InputBytes(contentsOf: storePath)
    } catch {
      throw MigrationFailure([MigrationError(error.code.rawValue, error.description, file: storePath)])
    }
    return try StoreReader.read(
      input, layout: StoreLayout(model: plan.sourceModel), maxErrors: maxErrors, splitMinimum: splitMinimum)
  }

  public static func run(plan: MigrationPlan, storePath: String, options: Options) throws(MigrationFailure) -> Summary {
    let clock = ContinuousClock()
    let start = clock.now
    let phases = PhaseTimer(enabled: options.reportPhases)
    var size = stat()
    let storeBytes = stat(storePath, &size) == 0 ? Int(size.st_size) : 0
    options.ioProgress?(.read, 0, storeBytes)
    let (graph, metadata) = try readStore(
      storePath, plan: plan, maxErrors: options.maxErrors, splitMinimum: options.splitMinimum)
    options.ioProgress?(.read, storeBytes, storeBytes)
    let differing = metadata.entitiesWithDifferentHashes(plan.sourceEntityHashes)
    if !differing.isEmpty {
      throw MigrationFailure([
        MigrationError(
          "run-store-model-mismatch",
          "the store does not match the plan's source model: entity version hashes differ for \(differing.joined(separator: ", ")) (Core Data: \"Mismatch between mapping and source model\")",
          file: storePath)
      ])
    }
    let manager = try MigrationManager(
      plan: plan, source: graph, options: MigrationManager.Options(
        maxErrors: options.maxErrors, now: options.now, parallelMinimum: options.parallelMinimum))
    manager.progress = options.progress
    phases.mark("read store")
    try manager.migrate(phases: phases)

    let target: String?
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
    let writerMetadata = StoreWriter.Metadata(
      modelVersionIdentifiers: plan.destinationModel.versionIdentifiers,
      entityHashes: plan.destinationEntityHashes, extra: metadata.extra, generated: options.generatedMetadata)
    var writer = StoreWriter(graph: manager.destination, input: graph.input)
    do {
      if let target {
        let file = try AtomicFileWriter(target: target)
        var out = JSONOutput(
          fileDescriptor: file.fileDescriptor, path: target, style: options.style, startsWriteback: true)
        if let report = options.ioProgress {
          report(.write, 0, nil)
          out.onFlush = { report(.write, $0, nil) }
        }
        try writer.write(metadata: writerMetadata, to: &out)
        try file.commit(backupPath: backup)
        options.ioProgress?(.write, out.bytesFlushed, out.bytesFlushed)
      } else {
        let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if fd >= 0 { _ = close(fd) } }
        var out = JSONOutput(fileDescriptor: fd, path: "/dev/null", style: options.style)
        try writer.write(metadata: writerMetadata, to: &out)
      }
    } catch let e as StoreWriteError {
      throw MigrationFailure([MigrationError("run-write", "cannot write the migrated store: \(e)", file: target ?? storePath)])
    } catch let e as StoreIOError {
      throw MigrationFailure([MigrationError(e.code.rawValue, e.description, file: target ?? storePath)])
    } catch {
      throw MigrationFailure([MigrationError("run-write", "\(error)", file: target ?? storePath)])
    }
    phases.mark("write store")
    phases.report()
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    func counts(_ g: ObjectGraph) -> [(entity: String, count: Int)] {
      g.tables.map { ($0.layout.name, $0.count) }.sorted { $0.0 < $1.0 }
    }
    return Summary(read: counts(graph), created: counts(manager.destination), seconds: seconds,
      parallelMappings: manager.parallelMappings, splitEntities: graph.splitEntities, writtenTo: target)
  }
}
