import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapcKit

extension MapcCommand.Migrate {
  /// Runs the steps with MapcKit's `Migrator`: intermediate stores in the work folder, the result
  /// replacing the store (or written to `--output`); each step's losses checked before it runs.
  func runChain(_ steps: MigrationSteps, _ options: Migrator.Options) throws {
    let (log, bar, observer) = watch(steps)
    var options = options
    options.progress = bar?.passCallback
    options.ioProgress = bar?.ioCallback
    let report: Migrator.Report
    do {
      report = try Migrator().migrate(steps, options, observer: observer)
    } catch {
      bar?.finish(completed: false)
      throw Console.failure(error)
    }
    bar?.finish()
    if !quiet {
      let total = steps.chain.steps.count
      let reused = report.resumedSteps
      let resumed =
        reused > 0 ? " (resumed after \(reused) step\(reused == 1 ? "" : "s") of an interrupted run)" : ""
      let written = output.map { "; wrote \($0), \(store) is unchanged" } ?? ""
      Console.say(
        "mapc: migrated \(store) from '\(steps.from)' to '\(steps.to)' in \(total) step\(total == 1 ? "" : "s")\(resumed)\(written)"
      )
    }
    try writeReport(log, writtenTo: output ?? store)
    for line in report.notes { Console.note(line) }
  }

  /// `--dry-run`: every step runs, each result kept only as a temporary file for the next step
  /// (in the system's temporary folder, removed after); nothing is written beside the store.
  func dryRunChain(_ steps: MigrationSteps, _ options: Migrator.Options) throws {
    let (log, bar, observer) = watch(steps)
    var options = options
    options.progress = bar?.passCallback
    options.ioProgress = bar?.ioCallback
    do {
      _ = try Migrator().dryRun(steps, options, observer: observer)
    } catch {
      bar?.finish(completed: false)
      throw Console.failure(error)
    }
    if !quiet {
      let total = steps.chain.steps.count
      Console.say(
        "mapc: dry run of \(total) step\(total == 1 ? "" : "s") from '\(steps.from)' to '\(steps.to)' succeeded; nothing was written"
      )
    }
    try writeReport(log, writtenTo: nil)
  }

  /// The step log, the progress bar and what shows the `Migrator`'s events: each step's label
  /// before the bar's phases, its lines once it finishes.
  private func watch(_ steps: MigrationSteps) -> (StepLog, ProgressReporter?, MigrationObserver) {
    let log = StepLog(steps: steps, quiet: quiet)
    let bar = progressOption.reporter(quiet: quiet)
    let labels = steps.chain.steps.indices.map { Self.stepLabel($0, steps) }
    return (
      log, bar,
      { event in
        switch event {
        case .stepStarting(let k): bar?.setPrefix(labels[k])
        case .stepFinished(let k, let result):
          bar?.setPrefix("")
          log.finished(k, result)
        default: Self.print(event)
        }
      }
    )
  }

  /// What progress lines put before the phases of step `k`: `step 2/4 V2→V3: `.
  static func stepLabel(_ k: Int, _ steps: MigrationSteps) -> String {
    let step = steps.chain.steps[k]
    return TerminalText.escaped(
      "step \(k + 1)/\(steps.chain.steps.count) \(steps.names[step.from])→\(steps.names[step.to]): ")
  }

  private func writeReport(_ log: StepLog, writtenTo: String?) throws {
    guard let report else { return }
    try RunReport(command: "migrate", store: store, output: writtenTo, steps: log.steps).write(to: report)
  }

  /// `--plan`: the steps and, per step, the table of `StepTable`, with the store's counts for
  /// the first step. A step needing a policy class this mapc lacks is shown and marked, with a
  /// warning each on standard error (`chain-step-unknown-policy`): a run would refuse it.
  func printPlan(_ steps: MigrationSteps) throws {
    let (chain, analyses, names, format) = (steps.chain, steps.analyses, steps.names, steps.format)
    Console.report(StepPolicies.warnings(chain.steps, names: names))
    let missing = chain.steps.map(StepPolicies.missing)
    let first = chain.steps[0].plan
    let counts: StoreCounts
    let bar = progressOption.reporter(quiet: quiet)
    do {
      let (graph, _) = try StoreIO.read(
        format, store, layout: StoreLayout(model: first.sourceModel), report: bar?.ioCallback)
      bar?.finish()
      counts = analyses[0].counts(graph, consent: consentOptions.consent)
    } catch {
      bar?.finish(completed: false)
      throw Console.failure(MapcError.run(error, notes: ["nothing was written; \(store) is unchanged"]))
    }
    let tables = analyses.enumerated().map { k, a in
      StepTable(analysis: a, counts: k == 0 ? counts : nil, consent: consentOptions.consent)
    }
    let (from, to) = (names[chain.steps.first!.from], names[chain.steps.last!.to])
    if self.format == .json {
      let steps = zip(chain.steps, tables).enumerated().map { k, pair in
        var step = pair.1.json(
          from: names[pair.0.from], to: names[pair.0.to], mapping: pair.0.mappingPath ?? "inferred")
        step.missingPolicyClasses = missing[k].isEmpty ? nil : missing[k]
        step.reverse = pair.0.reverse ? true : nil
        return step
      }
      FileHandle.standardOutput.write(
        Data(StepTable.encode(StepTable.Plan(store: store, from: from, to: to, steps: steps)).utf8))
      return
    }
    let escaped = TerminalText.escaped
    var out =
      escaped("\(store): version '\(from)' → '\(to)', \(chain.steps.count) step\(chain.steps.count == 1 ? "" : "s"):")
      + "\n"
    for (k, step) in chain.steps.enumerated() {
      out += "  \(k + 1). \(escaped(steps.describe(k)))\n"
      for name in missing[k] {
        out += "     \(escaped("needs policy class \(name), not registered in this mapc: a run refuses this step"))\n"
      }
      for line in tables[k].lines { out += "     \(escaped(line))\n" }
    }
    FileHandle.standardOutput.write(Data(out.utf8))
  }
}

/// Collects each step's result for the report, and prints its lines.
final class StepLog: @unchecked Sendable {
  let migration: MigrationSteps
  let quiet: Bool
  private let lock = NSLock()
  private var done: [RunReport.Step] = []

  init(steps: MigrationSteps, quiet: Bool) {
    self.migration = steps
    self.quiet = quiet
  }

  var steps: [RunReport.Step] { lock.withLock { done } }

  func finished(_ k: Int, _ result: MigrationStepResult) {
    let entry = RunReport.step(result)
    lock.withLock { done.append(entry) }
    guard !quiet else { return }
    Console.say(
      "mapc: step \(k + 1)/\(migration.chain.steps.count) \(migration.describe(k)): \(entry.objectsRead) objects in \(String(format: "%.2f", result.summary.seconds)) s"
    )
    for line in RunReport.lines(entry) { Console.say(line) }
  }
}
