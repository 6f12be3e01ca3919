import Crypto
import Foundation
import MapCompiler
import MapRuntime
import MapTools

extension Migrator {
  /// Runs the steps, fused (each step's result handed to the next in memory where the format
  /// can do it exactly, else through an unflushed scratch store) or with
  /// ``Options/checkpoints`` (intermediate stores in a work folder beside the store,
  /// `.STORE.mapc-migrate`, resumed after an interrupted run), the result replacing the
  /// store (or written to ``Options/output``) by one atomic rename; each step's losses checked
  /// before it runs. Throws ``MapcError`` (exit status 2, the store unchanged) when a step
  /// needs an unregistered policy class, would lose data without consent, or fails.
  public func migrate(
    _ steps: MigrationSteps, _ options: Options, observer: @escaping MigrationObserver = { _ in }
  ) throws(MapcError) -> Report {
    let check = try consentCheck(steps, options, observer: observer)
    let store = options.store
    var (run, results) = chainOptions(steps, options, check: check, observer: observer)
    run.checkpoints = options.checkpoints
    run.untrusted = { path in observer(.untrustedIntermediate(path: path, store: store)) }
    if ChainRun.usesWorkFolder(storePath: store, options: run) { run.chainKey = Self.chainKey(steps) }
    var notes = AncillaryTables.notes(store: store, format: steps.format, into: "the migrated store")
    if let first = steps.chain.steps.first,
      let external = ExternalDataNote.note(
        store: store, format: steps.format, model: first.plan.sourceModel, into: "the migrated store")
    {
      notes.append(external)
    }
    let reused: Int
    do {
      reused = try ChainRun.run(steps: Self.runSteps(steps), storePath: store, options: run)
    } catch {
      throw Self.failure(error, check: check, steps: steps, options)
    }
    return Report(steps: results.all, resumedSteps: reused, writtenTo: options.output ?? store, notes: notes)
  }

  /// Runs every step (policies and validation included) but writes nothing: the chain is
  /// fused, its intermediate stores unflushed scratch files in the temporary folder, removed
  /// as it goes, and the last step's result is only checked. Throws ``MapcError`` as
  /// ``migrate(_:_:observer:)`` does.
  public func dryRun(
    _ steps: MigrationSteps, _ options: Options, observer: @escaping MigrationObserver = { _ in }
  ) throws(MapcError) -> Report {
    let check = try consentCheck(steps, options, observer: observer)
    var (run, results) = chainOptions(steps, options, check: check, observer: observer)
    run.dryRun = true
    do {
      try ChainRun.run(steps: Self.runSteps(steps), storePath: options.store, options: run)
    } catch {
      throw Self.failure(error, check: check, steps: steps, options)
    }
    return Report(steps: results.all, resumedSteps: 0, writtenTo: nil, notes: [])
  }

  /// What a chain's run and dry run share: the store's format, the records, the clock, the
  /// consent check and drops, progress, and each step's events to `observer` with its result
  /// kept in the returned `StepResults`.
  private func chainOptions(
    _ steps: MigrationSteps, _ options: Options, check: DataLossCheck, observer: @escaping MigrationObserver
  ) -> (ChainRun.Options, StepResults) {
    var run = ChainRun.Options(chainKey: "", storeFormat: steps.format, backup: options.backup)
    run.output = options.output
    run.previousRecords = steps.previousRecords
    run.now = ReproducibleClock.now()
    run.checkSource = { k, graph throws(MigrationFailure) in try check.check(k, graph) }
    run.checkSourcePart = { k, graph in check.checkPart(k, graph) }
    run.checkSourceParts = { k throws(MigrationFailure) in try check.checkParts(k) }
    run.memoryLimit = options.memoryLimit
    for (k, analysis) in check.analyses.enumerated() { run.elementDrops[k] = analysis.elementRemovals }
    run.progress = options.progress
    run.ioProgress = options.ioProgress
    let results = StepResults()
    run.stepStarting = { k in observer(.stepStarting(k)) }
    run.stepFinished = { k, summary in
      let result = Self.result(k, steps, summary, check)
      results.append(result)
      observer(.stepFinished(k, result))
    }
    return (run, results)
  }

  /// Each step as the chain runs it, with what the result's `mapcMigrations` records for it.
  private static func runSteps(_ steps: MigrationSteps) -> [ChainRun.Step] {
    let names = steps.names
    return steps.chain.steps.enumerated().map { k, s in
      ChainRun.Step(
        plan: s.plan,
        record: .object(
          [
            .init("from", .string(names[s.from])), .init("to", .string(names[s.to])),
            .init("mapping", .string(steps.mappingName(k))),
          ] + (s.reverse ? [.init("direction", .string("reverse"))] : [])), keepsObjectKeys: s.inferred != nil)
    }
  }

  /// Identifies the chain's plans, so that a work folder of another chain is not resumed.
  private static func chainKey(_ steps: MigrationSteps) -> String {
    var key = SHA256()
    for s in steps.chain.steps { key.update(data: PlanWriter.encode(s.plan, sourcePositions: false)) }
    return key.finalize().map { String(format: "%02x", $0) }.joined()
  }

  /// The consent check of a run: refuses steps that need unregistered policy classes, reads
  /// the lock's consents.
  func consentCheck(
    _ steps: MigrationSteps, _ options: Options, observer: MigrationObserver
  ) throws(MapcError) -> DataLossCheck {
    if !steps.unregisteredPolicies.isEmpty {
      throw .run(
        MigrationFailure(steps.unregisteredPolicies), notes: ["nothing was run; \(options.store) is unchanged"])
    }
    let shipped = try Self.lockedConsents(steps.chain, options, observer: observer)
    let chainSteps = steps.chain.steps
    return DataLossCheck(
      analyses: steps.analyses, consent: options.consent, stepConsents: shipped,
      reverseSteps: Set(chainSteps.indices.filter { chainSteps[$0].reverse }), store: options.store
    ) { k in
      "step \(k + 1) \(steps.describe(k))"
    }
  }

  static func result(
    _ k: Int, _ steps: MigrationSteps, _ summary: MigrationRun.Summary, _ check: DataLossCheck
  ) -> MigrationStepResult {
    let step = steps.chain.steps[k]
    return MigrationStepResult(
      from: steps.names[step.from], to: steps.names[step.to], mapping: step.mappingPath ?? "inferred",
      summary: summary, dropped: check.accepted(k))
  }

  /// A failed step: the store unchanged; after a refused loss, the ways forward.
  static func failure(
    _ failure: MigrationFailure, check: DataLossCheck, steps: MigrationSteps, _ options: Options
  ) -> MapcError {
    var notes: [String] = []
    if let k = check.refusedStep {
      let step = steps.chain.steps[k]
      let names = steps.names
      let model = options.modelName
      let infer =
        "mapc infer \(model) \(model) --source-version '\(names[step.from])' --destination-version '\(names[step.to])' -o MAPPING.xml"
      let keep =
        step.reverse && step.mappingPath == nil
        ? "'\(names[step.to])' cannot hold it (what '\(names[step.from])' added, or values its types do not fit): a reverse mapping in the --mappings folder can put it elsewhere"
        : step.mappingPath == nil
          ? "to keep the data, write a mapping for this step into the --mappings folder (`\(infer)` writes the inferred one to start from)"
          : "to keep the data, map it in \(step.mappingPath!) (an entity mapping of type remove says that an entity's objects are meant to go)"
      notes = check.notes(keep: keep)
    }
    return .run(failure, notes: notes + ["nothing was written; \(options.store) is unchanged"])
  }

  /// The consent a lock gives: for each step of the chain between two versions the lock holds
  /// unchanged (same checksum as the bundle's), the drops it records (`Specs/model-lock.md` §4).
  static func lockedConsents(
    _ chain: MigrationChain, _ options: Options, observer: MigrationObserver
  ) throws(MapcError) -> [Int: DropConsent] {
    guard let lock = options.lock else { return [:] }
    let versions = chain.versions
    let locked: ModelLock
    do {
      locked = try ModelLock.read(lock)
    } catch {
      throw MapcError(error)
    }
    let checksums = Dictionary(locked.versions.map { ($0.name, $0.checksum) }, uniquingKeysWith: { a, _ in a })
    var result: [Int: DropConsent] = [:]
    for (k, step) in chain.steps.enumerated() {
      let (from, to) = (versions.names[step.from], versions.names[step.to])
      guard let recorded = locked.steps.first(where: { $0.from == from && $0.to == to }) else { continue }
      let unchanged = [step.from, step.to].allSatisfy {
        checksums[versions.names[$0]] == ModelLock.checksum(versions.versions[$0].hashes)
      }
      guard unchanged else {
        observer(
          .note(
            "\(lock) records the step '\(from)' → '\(to)', but the bundle's versions differ from it: its drops are not accepted"
          ))
        continue
      }
      result[k] = DropConsent(names: recorded.drops)
    }
    return result
  }
}

/// The results of a chain's steps, as they finish (the chain reports them from its own thread).
final class StepResults: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [MigrationStepResult] = []

  func append(_ result: MigrationStepResult) { lock.withLock { results.append(result) } }
  var all: [MigrationStepResult] { lock.withLock { results } }
}
