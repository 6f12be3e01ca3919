import Foundation

/// Runs the steps of a `mapc migrate` chain (`Specs/migrate.md` §4). Only the last step
/// replaces the store, by an atomic rename, so the store on disk is at every moment the
/// original or the final result.
///
/// Fused (the default): each step's result is handed to the next step in memory where the
/// format can make exactly what reading it back would give (`StoreFormat.readBack`), else
/// through a scratch store in a private temporary folder, written by the same writer as a
/// checkpoint but never flushed to disk (`StoreWriteOptions.durable`) and removed as soon as
/// the next step has run; nothing is hashed or recorded. The final store has the same bytes as
/// with checkpoints. A run killed part-way leaves nothing to resume from: the next run starts
/// over from the store.
///
/// With checkpoints (`Options.checkpoints`, `mapc migrate --checkpoints`): each intermediate
/// store goes to the work folder beside the store, flushed, with its SHA-256 recorded; a run
/// killed part-way is resumed by the next run from the last complete intermediate store, with
/// the same final bytes as an uninterrupted run. A run that finds such a work folder beside the
/// store resumes from it with checkpoints, whether or not it asked for them.
package enum ChainRun {
  package struct Step: Sendable {
    package var plan: MigrationPlan
    /// What the result's `mapcMigrations` records for this step.
    package var record: MetadataValue
    /// An inferred (lightweight) step: objects keep their numbers (`MigrationRun.Options`).
    package var keepsObjectKeys: Bool
    package init(plan: MigrationPlan, record: MetadataValue, keepsObjectKeys: Bool = false) {
      self.plan = plan
      self.record = record
      self.keepsObjectKeys = keepsObjectKeys
    }
  }

  package struct Options: Sendable {
    /// Where to keep the original store (made when the final result replaces it).
    package var backup: String?
    /// Where the result goes instead of replacing the store (`mapc migrate --output`).
    package var output: String?
    package var maxErrors = 50
    package var now: Double = 0
    /// Identifies the chain's plans: intermediate stores of another chain are not reused.
    package var chainKey: String
    /// Steps recorded by earlier runs (the input's `mapcMigrations`).
    package var previousRecords: [MetadataValue] = []
    /// Called after each step with its index and summary.
    package var stepFinished: (@Sendable (Int, MigrationRun.Summary) -> Void)?
    /// Called before each step with its index.
    package var stepStarting: (@Sendable (Int) -> Void)?
    package var progress: (@Sendable (MigrationManager.Pass, Int, Int) -> Void)?
    /// Each step's reading and writing (`MigrationRun.Options.ioProgress`).
    package var ioProgress: (@Sendable (MigrationRun.IOPhase, Int, Int?) -> Void)?
    /// Called with each step's index and source graph before the step runs (see
    /// `MigrationRun.Options.checkSource`).
    package var checkSource: (@Sendable (Int, ObjectGraph) throws(MigrationFailure) -> Void)?
    /// `checkSource` for a step read a chunk at a time (`MigrationRun.Options.checkSourcePart`
    /// and `checkSourceParts`), by step.
    package var checkSourcePart: (@Sendable (Int, ObjectGraph) throws(MigrationFailure) -> Void)?
    package var checkSourceParts: (@Sendable (Int) throws(MigrationFailure) -> Void)?
    /// `--memory-limit` (`MigrationRun.Options.memoryLimit`): each step goes a chunk at a time
    /// where it can, writing its result for the next step rather than handing it on; nil: in
    /// memory.
    package var memoryLimit: Int?
    /// Each step's composite elements to remove (`MigrationRun.Options.elementDrops`), by step.
    package var elementDrops: [Int: [ElementRemoval]] = [:]
    /// The store's format, the result's too; intermediate stores are in its
    /// `forIntermediateStores`.
    package var storeFormat: any StoreFormat
    /// Called with the path of an intermediate store of a killed run whose bytes differ from
    /// the digest recorded when it was written, before the chain starts over from the store.
    package var untrusted: (@Sendable (String) -> Void)?
    /// Keep every intermediate store in the work folder beside the store, flushed and with its
    /// digest, so that a killed run resumes from it; otherwise the chain is fused (see the
    /// type's description).
    package var checkpoints = false
    /// Write nothing (`mapc migrate --dry-run`): the chain is fused and its last step checks
    /// that the result could be written (`MigrationRun.Output.none`).
    package var dryRun = false

    package init(chainKey: String, storeFormat: any StoreFormat, backup: String? = nil) {
      self.chainKey = chainKey
      self.storeFormat = storeFormat
      self.backup = backup
    }
  }

  /// Returns how many steps were reused from a killed run.
  @discardableResult
  package static func run(steps: [Step], storePath: String, options: Options) throws(MigrationFailure) -> Int {
    precondition(!steps.isEmpty)
    guard usesWorkFolder(storePath: storePath, options: options) else {
      try runFused(steps, storePath: storePath, options: options)
      return 0
    }
    let work = try ChainWorkFolder(storePath: storePath, chainKey: options.chainKey)
    let resume = try work.prepare(stepCount: steps.count)
    if let untrusted = resume.untrusted { options.untrusted?(untrusted) }
    let done = resume.done
    do throws(MigrationFailure) {
      try runSteps(steps, from: done, storePath: storePath, work: work, options: options)
    } catch {
      work.remove()  // a failed step would fail again: nothing is kept
      throw error
    }
    work.remove()
    return done
  }

  /// Whether a run keeps its intermediate stores in the work folder (checkpoints asked for, or
  /// a killed run's work folder to resume from; never for a dry run): only then does it need
  /// `Options.chainKey`.
  package static func usesWorkFolder(storePath: String, options: Options) -> Bool {
    !options.dryRun && (options.checkpoints || ChainWorkFolder.exists(storePath: storePath))
  }

  private static func runSteps(
    _ steps: [Step], from done: Int, storePath: String, work: ChainWorkFolder, options: Options
  ) throws(MigrationFailure) {
    var layouts = StepLayouts(steps: steps, from: done, formats: formats(steps, options))
    defer { layouts.finish() }
    for k in done..<steps.count {
      let last = k == steps.count - 1
      let input = k == 0 ? storePath : work.stepPath(k)
      let output: MigrationRun.Output =
        last ? .replace(target: options.output ?? storePath, backup: options.backup) : .file(work.stepPath(k + 1))
      let (summary, _) = try runStep(
        k, steps, input: input, output: output, durable: true, layouts: layouts.next(k, steps[k]), options: options)
      if !last { try work.recordDigest(step: k + 1) }
      options.stepFinished?(k, summary)
    }
  }

  /// The fused chain: each step's result handed to the next in memory where the format can make
  /// exactly what reading it back would give (`StoreFormat.readBack`), else through a scratch
  /// store in a private temporary folder (one subfolder per step, so that whatever files the
  /// format keeps beside a store go with it), none flushed, each removed once the step that
  /// reads it has run.
  private static func runFused(_ steps: [Step], storePath: String, options: Options) throws(MigrationFailure) {
    // A one-step chain has nothing to hand on.
    let scratch = steps.count > 1 ? try ScratchFolder() : nil
    defer { scratch?.remove() }
    var layouts = StepLayouts(steps: steps, formats: formats(steps, options))
    defer { layouts.finish() }
    var handed: HandedStore?
    for k in steps.indices {
      let last = k == steps.count - 1
      // Only the step that reads it holds the store handed on (memory stays one step's).
      let handedIn = handed
      handed = nil
      let input = k == 0 || handedIn != nil ? storePath : try scratch!.storePath(k)
      let output: MigrationRun.Output =
        !last
        ? .file(try scratch!.storePath(k + 1))
        : options.dryRun ? .none : .replace(target: options.output ?? storePath, backup: options.backup)
      let summary: MigrationRun.Summary
      (summary, handed) = try runStep(
        k, steps, input: input, output: output, durable: last, layouts: layouts.next(k, steps[k]),
        handing: (handedIn, !last), options: options)
      if k > 0 { scratch?.removeStore(k) }
      options.stepFinished?(k, summary)
    }
  }

  /// The format each step writes its result with: the store's for the last, the one for
  /// intermediate stores before it.
  private static func formats(_ steps: [Step], _ options: Options) -> [any StoreFormat] {
    steps.indices.map { format(step: $0, of: steps.count, options) }
  }

  private static func format(step k: Int, of count: Int, _ options: Options) -> any StoreFormat {
    k == count - 1 ? options.storeFormat : options.storeFormat.forIntermediateStores
  }

  /// Step `k`, from `input` (or the store handed in) to `output` (or handed on, when `handing`
  /// asks for it, the next step reads the destination's model and the format can), with its
  /// checks, drops, record and progress.
  private static func runStep(
    _ k: Int, _ steps: [Step], input: String, output: MigrationRun.Output, durable: Bool,
    layouts: (source: StoreLayout?, destination: StoreLayout), handing: (HandedStore?, onward: Bool) = (nil, false),
    options: Options
  ) throws(MigrationFailure) -> (MigrationRun.Summary, HandedStore?) {
    options.stepStarting?(k)
    var runOptions = MigrationRun.Options(
      output: output, storeFormat: format(step: k, of: steps.count, options),
      maxErrors: options.maxErrors, now: options.now, progress: options.progress)
    runOptions.keepObjectKeys = steps[k].keepsObjectKeys
    runOptions.ioProgress = options.ioProgress
    runOptions.elementDrops = options.elementDrops[k] ?? []
    runOptions.durable = durable
    runOptions.layouts = (layouts.source, layouts.destination)
    runOptions.handedIn = handing.0
    if handing.onward, steps[k + 1].plan.sourceModel == layouts.destination.model {
      runOptions.handOffLayout = layouts.destination
    }
    if let check = options.checkSource {
      runOptions.checkSource = { graph throws(MigrationFailure) in try check(k, graph) }
    }
    if let check = options.checkSourcePart {
      runOptions.checkSourcePart = { graph throws(MigrationFailure) in try check(k, graph) }
    }
    if let check = options.checkSourceParts {
      runOptions.checkSourceParts = { () throws(MigrationFailure) in try check(k) }
    }
    runOptions.memoryLimit = options.memoryLimit
    runOptions.generatedMetadata = [
      (StoreMetadataPeek.migrationsKey, .array(options.previousRecords + steps[...k].map(\.record)))
    ]
    let result = try MigrationRun.runHandingOff(plan: steps[k].plan, storePath: input, options: runOptions)
    return (result.summary, result.handed)
  }

  /// Removes what a killed `mapc migrate` left beside a store that is already at its target
  /// (the work folder, temporary files of the final write).
  package static func cleanUp(storePath: String) {
    let (folder, name) = splitPath(storePath)
    ChainWorkFolder.removeTemporaryFiles(in: folder, prefix: ".\(name).mapc-")
    let work = "\(folder)/.\(name).mapc-migrate"
    if (try? FileManager.default.contentsOfDirectory(atPath: work)) != nil {
      try? FileManager.default.removeItem(atPath: work)
    }
  }
}
