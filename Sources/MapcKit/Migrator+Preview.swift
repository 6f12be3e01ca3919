import Foundation
import MapRuntime
import MapTools

/// What a migration along the chain would do, run nothing (`mapc migrate --plan`): per step,
/// what it does to every entity and property, with the store's counts for the first step.
public struct MigrationPreview: Sendable {
  /// The steps.
  public var steps: MigrationSteps
  /// Per step, the lines of its table: each source entity with its objects and what happens to
  /// it and its properties, each destination entity with where its objects come from, and what
  /// the step would drop (accepted or without consent).
  public var tables: [[String]]
  /// Per step, the policy classes it needs that are not registered in this program: a run
  /// refuses such a step.
  public var missingPolicyClasses: [[String]]
  /// The preview as the JSON `mapc migrate --plan --format json` writes.
  public var json: String
}

extension Migrator {
  /// Reads the store and says what each step would do to it; nothing runs and nothing is
  /// written. Warnings for steps that need unregistered policy classes go to `observer`
  /// (`chain-step-unknown-policy`); a store that cannot be read is thrown (exit status 2).
  public func preview(
    _ steps: MigrationSteps, _ options: Options, observer: MigrationObserver = { _ in }
  ) throws(MapcError) -> MigrationPreview {
    let (chain, names) = (steps.chain, steps.names)
    observer(.diagnostics(StepPolicies.warnings(chain.steps, names: names)))
    let missing = chain.steps.map(StepPolicies.missing)
    let counts: StoreCounts
    do {
      let (graph, _) = try StoreIO.read(
        steps.format, options.store, layout: StoreLayout(model: chain.steps[0].plan.sourceModel),
        report: options.ioProgress)
      counts = steps.analyses[0].counts(graph, consent: options.consent)
    } catch {
      throw .run(error, notes: ["nothing was written; \(options.store) is unchanged"])
    }
    let tables = steps.analyses.enumerated().map { k, a in
      StepTable(analysis: a, counts: k == 0 ? counts : nil, consent: options.consent)
    }
    let json = zip(chain.steps, tables).enumerated().map { k, pair in
      var step = pair.1.json(from: names[pair.0.from], to: names[pair.0.to], mapping: pair.0.mappingPath ?? "inferred")
      step.missingPolicyClasses = missing[k].isEmpty ? nil : missing[k]
      step.reverse = pair.0.reverse ? true : nil
      return step
    }
    return MigrationPreview(
      steps: steps, tables: tables.map(\.lines), missingPolicyClasses: missing,
      json: StepTable.encode(StepTable.Plan(store: options.store, from: steps.from, to: steps.to, steps: json)))
  }
}
