import ArgumentParser
import Foundation
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

  /// `--plan`: MapcKit's preview of the steps, printed: per step its table, with the store's
  /// counts for the first step. A step needing a policy class this mapc lacks is shown and
  /// marked, with a warning each on standard error (`chain-step-unknown-policy`): a run would
  /// refuse it.
  func printPlan(_ steps: MigrationSteps, _ options: Migrator.Options) throws {
    let bar = progressOption.reporter(quiet: quiet)
    var options = options
    options.ioProgress = bar?.ioCallback
    let preview: MigrationPreview
    do {
      preview = try Migrator().preview(steps, options, observer: Self.print)
    } catch {
      bar?.finish(completed: false)
      throw Console.failure(error)
    }
    bar?.finish()
    if format == .json {
      FileHandle.standardOutput.write(Data(preview.json.utf8))
      return
    }
    let escaped = TerminalText.escaped
    let count = steps.chain.steps.count
    var out =
      escaped("\(store): version '\(steps.from)' → '\(steps.to)', \(count) step\(count == 1 ? "" : "s"):") + "\n"
    for k in steps.chain.steps.indices {
      out += "  \(k + 1). \(escaped(steps.describe(k)))\n"
      for name in preview.missingPolicyClasses[k] {
        out += "     \(escaped("needs policy class \(name), not registered in this mapc: a run refuses this step"))\n"
      }
      for line in preview.tables[k] { out += "     \(escaped(line))\n" }
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
    let chunks = MemoryLimitOption.chunksText(result.summary.chunks)
    Console.say(
      "mapc: step \(k + 1)/\(migration.chain.steps.count) \(migration.describe(k)): \(entry.objectsRead) objects\(chunks) in \(String(format: "%.2f", result.summary.seconds)) s"
    )
    for line in RunReport.lines(entry) { Console.say(line) }
  }
}
