import Foundation
import MapRuntime
import MapTools

/// The consent check of `mapc run` and `mapc migrate` (`Specs/migrate.md` §6): before a step
/// runs, what it would lose of the store just read, refused unless `--allow-data-loss` or
/// `--allow-drop` accepts it. Records what was accepted, for the summary and the report.
package final class DataLossCheck: @unchecked Sendable {
  package let analyses: [StepAnalysis]
  package let consent: DropConsent
  /// How the message names step `k` (`step 1 'A' → 'B' (inferred)`).
  let describe: @Sendable (Int) -> String
  let store: String
  private let lock = NSLock()
  private var acceptedLosses: [Int: [DataLoss]] = [:]
  private var refusedLosses: [DataLoss] = []
  private var refusedAt: Int?
  /// What the chunks checked so far hold, per step (`checkPart`).
  private var partCounts: [Int: StoreCounts] = [:]
  /// The values of the chunks checked so far that a step back's types cannot hold, per step.
  private var partUnfit: [Int: [DataLoss]] = [:]

  /// Consent for single steps besides `consent`: a lock's record of a shipped step's drops.
  let stepConsents: [Int: DropConsent]
  /// The steps back (`Specs/migrate.md` §3a), whose converted values are checked too.
  let reverseSteps: Set<Int>

  package init(
    analyses: [StepAnalysis], consent: DropConsent, stepConsents: [Int: DropConsent] = [:],
    reverseSteps: Set<Int> = [], store: String, describe: @escaping @Sendable (Int) -> String
  ) {
    self.analyses = analyses
    self.reverseSteps = reverseSteps
    self.consent = consent
    self.stepConsents = stepConsents
    self.store = store
    self.describe = describe
  }

  /// The losses of step `k` the run accepted.
  package func accepted(_ k: Int) -> [DataLoss] { lock.withLock { acceptedLosses[k] ?? [] } }
  /// The losses that stopped the run (empty when none did).
  package var refused: [DataLoss] { lock.withLock { refusedLosses } }
  /// The step whose losses stopped the run.
  package var refusedStep: Int? { lock.withLock { refusedAt } }

  /// Checks step `k` against its source graph; throws `migrate-data-loss` for losses without
  /// consent.
  package func check(_ k: Int, _ graph: ObjectGraph) throws(MigrationFailure) {
    let analysis = analyses[k]
    let consent = self.consent.adding(stepConsents[k])
    var losses = analysis.losses(analysis.counts(graph, consent: consent))
    // A step back undoes widening conversions: values the older type cannot hold are losses too.
    if reverseSteps.contains(k) { losses += analysis.unfitValues(graph) }
    try decide(k, losses, consent)
  }

  /// `check` for a store read a chunk at a time (`MigrationRun.Options.checkSourcePart`): adds
  /// up what each chunk holds; `checkParts` decides once every chunk is counted, so that a
  /// refusal names what the whole store would lose, as `check` does.
  package func checkPart(_ k: Int, _ graph: ObjectGraph) {
    let analysis = analyses[k]
    let consent = self.consent.adding(stepConsents[k])
    let part = analysis.counts(graph, consent: consent)
    let unfit = reverseSteps.contains(k) ? analysis.unfitValues(graph) : []
    lock.withLock {
      partCounts[k] = (partCounts[k] ?? StoreCounts()).adding(part)
      if !unfit.isEmpty { partUnfit[k] = analysis.addingUnfitValues(partUnfit[k] ?? [], unfit) }
    }
  }

  /// Decides step `k` on what `checkPart` added up (`MigrationRun.Options.checkSourceParts`).
  package func checkParts(_ k: Int) throws(MigrationFailure) {
    let analysis = analyses[k]
    let consent = self.consent.adding(stepConsents[k])
    let (counts, unfit) = lock.withLock { (partCounts[k] ?? StoreCounts(), partUnfit[k] ?? []) }
    try decide(k, analysis.losses(counts) + unfit, consent)
  }

  private func decide(_ k: Int, _ losses: [DataLoss], _ consent: DropConsent) throws(MigrationFailure) {
    let refused = consent.refused(losses)
    lock.withLock {
      acceptedLosses[k] = losses.filter(consent.covers)
      refusedLosses = refused
      if !refused.isEmpty { refusedAt = k }
    }
    guard !refused.isEmpty else { return }
    throw MigrationFailure([
      MigrationError(
        "migrate-data-loss",
        "\(describe(k)) would drop data the store holds: \(DataLoss.describe(refused))", file: store)
    ])
  }

  /// The two ways forward after a refusal: `keep` says how to keep the data.
  package func notes(keep: String) -> [String] {
    let refused = self.refused
    guard !refused.isEmpty else { return [] }
    return [
      keep,
      "or accept the loss: --allow-data-loss (everything), or \(DataLoss.allowDropOptions(refused))",
    ]
  }
}
