import Foundation
import MapRuntime
import MapTools

extension Migrator {
  /// One plan run over a store (what `mapc run` does).
  public struct RunOptions: Sendable {
    /// The plan (read by `PlanReader`, or a mapping compiled by `MappingCompilation`).
    public var plan: MigrationPlan
    /// How messages name the plan (its file).
    public var planName: String
    /// The store to migrate.
    public var store: String
    /// The store format's name (`sqlite`, `json`); nil: the one of the store's content.
    public var storeFormat: String?
    /// Whether a JSON store is written without whitespace.
    public var compact = false
    /// Where the result goes: a file, the store itself, or nowhere (a dry run).
    public var output: MigrationRun.Output
    /// How many errors a failed run collects before it stops (`Int.max`: all of them).
    public var maxErrors = 50
    /// `--memory-limit`, in bytes (`MigrationRun.Options.memoryLimit`); nil: none.
    public var memoryLimit: Int?
    /// The losses accepted beforehand (`--allow-data-loss`, `--allow-drop`).
    public var consent = DropConsent()
    /// Whether the run reports the time of each phase on standard error (`MAPC_PHASES=1`).
    public var reportPhases = false
    /// Called as the passes advance.
    public var progress: (@Sendable (MigrationManager.Pass, Int, Int) -> Void)?
    /// Called as the read and write phases advance.
    public var ioProgress: (@Sendable (MigrationRun.IOPhase, Int, Int?) -> Void)?

    /// Whether the run writes a store (it is no dry run).
    var writes: Bool {
      if case .none = output { return false }
      return true
    }

    /// Options to run `plan` (named `planName`) over `store`, writing to `output`.
    public init(plan: MigrationPlan, planName: String, store: String, output: MigrationRun.Output) {
      self.plan = plan
      self.planName = planName
      self.store = store
      self.output = output
    }
  }

  /// What one plan's run did.
  public struct RunReport: Sendable {
    /// What it read, made and dropped.
    public var step: MigrationStepResult
    /// Notes on what the new store leaves out or keeps as it is, in the order `mapc` prints them.
    public var notes: [String]
  }

  /// Reads the store, checks what the plan would lose of it against the consent, runs Core
  /// Data's three passes and only then writes the new store atomically. Throws ``MapcError``
  /// (exit status 2, nothing written) when the run fails or would lose data without consent.
  public func run(_ options: RunOptions) throws(MapcError) -> RunReport {
    let store = options.store
    let resolved = try? StoreFormatChoice.resolve(options.storeFormat, path: store, compact: options.compact)
    let check = DataLossCheck(
      analyses: [StepAnalysis.analyze(options.plan, into: resolved)], consent: options.consent, store: store
    ) { [planName = options.planName] _ in "the plan \(planName)" }
    var notes: [String] = []
    if options.writes {
      notes = AncillaryTables.notes(store: store, format: resolved, into: "the migrated store")
      if let external = ExternalDataNote.note(
        store: store, format: resolved, model: options.plan.sourceModel, into: "the migrated store")
      {
        notes.append(external)
      }
    }
    let summary: MigrationRun.Summary
    do {
      var run = MigrationRun.Options(
        output: options.output,
        storeFormat: try StoreFormatChoice.resolve(options.storeFormat, path: store, compact: options.compact),
        maxErrors: options.maxErrors, now: ReproducibleClock.now())
      run.checkSource = { graph throws(MigrationFailure) in try check.check(0, graph) }
      run.checkSourcePart = { graph in check.checkPart(0, graph) }
      run.checkSourceParts = { () throws(MigrationFailure) in try check.checkParts(0) }
      run.elementDrops = check.analyses[0].elementRemovals
      run.memoryLimit = options.memoryLimit
      run.reportPhases = options.reportPhases
      run.progress = options.progress
      run.ioProgress = options.ioProgress
      summary = try MigrationRun.run(plan: options.plan, storePath: store, options: run)
    } catch {
      var notes = check.notes(
        keep:
          "to keep the data, map it in \(options.planName) (an entity mapping of type remove says that an entity's objects are meant to go)"
      )
      if error.truncated {
        let limit = options.maxErrors
        notes.append(
          "stopped after \(limit) errors (--max-errors \(limit)); there may be more: --max-errors 0 reports them all")
      }
      notes.append("nothing was written; \(store) is unchanged")
      throw .run(error, notes: notes)
    }
    return RunReport(
      step: MigrationStepResult(mapping: options.planName, summary: summary, dropped: check.accepted(0)), notes: notes)
  }
}
