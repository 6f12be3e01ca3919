import Foundation

/// Runs the steps of a `mapc migrate` chain (`Specs/migrate.md` §4): each intermediate store
/// goes to the work folder beside the store, and only the last step replaces the store, by an
/// atomic rename. The store on disk is therefore at every moment the original or the final
/// result. A run killed part-way is resumed by the next run from the last complete
/// intermediate store, with the same final bytes as an uninterrupted run.
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
    /// Each step's composite elements to remove (`MigrationRun.Options.elementDrops`), by step.
    package var elementDrops: [Int: [ElementRemoval]] = [:]
    /// The store's format, the result's too; intermediate stores are in its
    /// `forIntermediateStores`.
    package var storeFormat: any StoreFormat
    /// Called with the path of an intermediate store of a killed run whose bytes differ from
    /// the digest recorded when it was written, before the chain starts over from the store.
    package var untrusted: (@Sendable (String) -> Void)?

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

  private static func runSteps(
    _ steps: [Step], from done: Int, storePath: String, work: ChainWorkFolder, options: Options
  ) throws(MigrationFailure) {
    for k in done..<steps.count {
      options.stepStarting?(k)
      let last = k == steps.count - 1
      let input = k == 0 ? storePath : work.stepPath(k)
      var runOptions = MigrationRun.Options(
        output: last
          ? .replace(target: options.output ?? storePath, backup: options.backup) : .file(work.stepPath(k + 1)),
        storeFormat: last ? options.storeFormat : options.storeFormat.forIntermediateStores,
        maxErrors: options.maxErrors, now: options.now, progress: options.progress)
      runOptions.keepObjectKeys = steps[k].keepsObjectKeys
      runOptions.ioProgress = options.ioProgress
      runOptions.elementDrops = options.elementDrops[k] ?? []
      if let check = options.checkSource {
        runOptions.checkSource = { graph throws(MigrationFailure) in try check(k, graph) }
      }
      runOptions.generatedMetadata = [
        (StoreMetadataPeek.migrationsKey, .array(options.previousRecords + steps[...k].map(\.record)))
      ]
      let summary = try MigrationRun.run(plan: steps[k].plan, storePath: input, options: runOptions)
      if !last { try work.recordDigest(step: k + 1) }
      options.stepFinished?(k, summary)
    }
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
