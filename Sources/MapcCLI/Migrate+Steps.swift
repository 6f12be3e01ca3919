import ArgumentParser
import Crypto
import Foundation
import MapCompiler
import MapRuntime

extension MapcCommand.Migrate {
  /// Runs the chain: intermediate stores in the work folder, the result replacing the store
  /// (or written to `--output`); each step's losses checked before it runs.
  func runChain(
    _ chain: MigrationChain, names: [String], previous: [MetadataValue], format: any StoreFormat,
    check: DataLossCheck
  ) throws {
    let steps = chain.steps.map { s in
      ChainRun.Step(
        plan: s.plan,
        record: .object(
          [
            .init("from", .string(names[s.from])), .init("to", .string(names[s.to])),
            .init("mapping", .string(Self.mappingName(s))),
          ] + (s.reverse ? [.init("direction", .string("reverse"))] : [])), keepsObjectKeys: s.inferred != nil)
    }
    var key = SHA256()
    for s in chain.steps { key.update(data: PlanWriter.encode(s.plan, sourcePositions: false)) }
    var options = ChainRun.Options(
      chainKey: key.finalize().map { String(format: "%02x", $0) }.joined(), storeFormat: format, backup: backup)
    options.output = output
    options.previousRecords = previous
    options.now = MapcCommand.Run.fixedNow()
    options.checkSource = { k, graph throws(MigrationFailure) in try check.check(k, graph) }
    for (k, analysis) in check.analyses.enumerated() { options.elementDrops[k] = analysis.elementRemovals }
    let original = store
    options.untrusted = { path in
      Console.say(
        DiagnosticLine.render(
          .warning,
          "this intermediate store of an interrupted run differs from the SHA-256 recorded when it was written (damaged or replaced); not trusted: starting again from \(original)",
          id: "migrate-resume-untrusted", place: path))
    }
    let log = StepLog(chain: chain, names: names, quiet: quiet, check: check)
    let bar = progressOption.reporter(quiet: quiet)
    options.progress = bar?.passCallback
    options.ioProgress = bar?.ioCallback
    let labels = chain.steps.indices.map { Self.stepLabel($0, chain, names) }
    options.stepStarting = { k in bar?.setPrefix(labels[k]) }
    options.stepFinished = { k, summary in
      bar?.setPrefix("")
      log.finished(k, summary)
    }
    let storePath = store
    let result = Result { () throws(MigrationFailure) -> Int in
      try ChainRun.run(steps: steps, storePath: storePath, options: options)
    }
    if case .success = result { bar?.finish() } else { bar?.finish(completed: false) }
    switch result {
    case .success(let reused):
      let total = steps.count
      if !quiet {
        let resumed =
          reused > 0 ? " (resumed after \(reused) step\(reused == 1 ? "" : "s") of an interrupted run)" : ""
        let written = output.map { "; wrote \($0), \(store) is unchanged" } ?? ""
        Console.say(
          "mapc: migrated \(store) from '\(names[chain.steps.first!.from])' to '\(names[chain.steps.last!.to])' in \(total) step\(total == 1 ? "" : "s")\(resumed)\(written)"
        )
      }
      try writeReport(log, writtenTo: output ?? store)
    case .failure(let failure):
      throw storeFailure(failure, check: check, chain: chain)
    }
  }

  /// `--dry-run`: every step runs, each result kept only as a temporary file for the next step
  /// (in the system's temporary folder, removed after); nothing is written beside the store.
  func dryRunChain(_ chain: MigrationChain, names: [String], format: any StoreFormat, check: DataLossCheck) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapc-dry-run-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw Console.writeFailure("temporary folder", path: folder.path, error: error)
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = StepLog(chain: chain, names: names, quiet: quiet, check: check)
    let bar = progressOption.reporter(quiet: quiet)
    var input = store
    for k in chain.steps.indices {
      let last = k == chain.steps.count - 1
      let next = folder.appendingPathComponent("step-\(k + 1)").path
      var options = MigrationRun.Options(
        output: last ? .none : .file(next), storeFormat: last ? format : format.forIntermediateStores,
        now: MapcCommand.Run.fixedNow())
      options.checkSource = { graph throws(MigrationFailure) in try check.check(k, graph) }
      options.elementDrops = check.analyses[k].elementRemovals
      options.progress = bar?.passCallback
      options.ioProgress = bar?.ioCallback
      bar?.setPrefix(Self.stepLabel(k, chain, names))
      let from = input
      let result = Result { () throws(MigrationFailure) -> MigrationRun.Summary in
        try MigrationRun.run(plan: chain.steps[k].plan, storePath: from, options: options)
      }
      switch result {
      case .success(let summary):
        bar?.setPrefix("")
        log.finished(k, summary)
      case .failure(let failure):
        bar?.finish(completed: false)
        throw storeFailure(failure, check: check, chain: chain)
      }
      input = next
    }
    if !quiet {
      Console.say(
        "mapc: dry run of \(chain.steps.count) step\(chain.steps.count == 1 ? "" : "s") from '\(names[chain.steps.first!.from])' to '\(names[chain.steps.last!.to])' succeeded; nothing was written"
      )
    }
    try writeReport(log, writtenTo: nil)
  }

  /// What progress lines put before the phases of step `k`: `step 2/4 V2→V3: `.
  static func stepLabel(_ k: Int, _ chain: MigrationChain, _ names: [String]) -> String {
    let step = chain.steps[k]
    return TerminalText.escaped("step \(k + 1)/\(chain.steps.count) \(names[step.from])→\(names[step.to]): ")
  }

  private func writeReport(_ log: StepLog, writtenTo: String?) throws {
    guard let report else { return }
    try RunReport(command: "migrate", store: store, output: writtenTo, steps: log.steps).write(to: report)
  }

  /// `--plan`: the steps and, per step, the table of `StepTable`, with the store's counts for
  /// the first step. A step needing a policy class this mapc lacks is shown and marked, with a
  /// warning each on standard error (`chain-step-unknown-policy`): a run would refuse it.
  func printPlan(_ chain: MigrationChain, analyses: [StepAnalysis], names: [String], format: any StoreFormat) throws {
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
      throw storeFailure(error)
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
      out += "  \(k + 1). \(escaped(Self.describe(step, names)))\n"
      for name in missing[k] {
        out += "     \(escaped("needs policy class \(name), not registered in this mapc: a run refuses this step"))\n"
      }
      for line in tables[k].lines { out += "     \(escaped(line))\n" }
    }
    FileHandle.standardOutput.write(Data(out.utf8))
  }
}

/// Collects each step's summary for the per-step lines and the report.
final class StepLog: @unchecked Sendable {
  let chain: MigrationChain
  let names: [String]
  let quiet: Bool
  let check: DataLossCheck
  private let lock = NSLock()
  private var done: [RunReport.Step] = []

  init(chain: MigrationChain, names: [String], quiet: Bool, check: DataLossCheck) {
    self.chain = chain
    self.names = names
    self.quiet = quiet
    self.check = check
  }

  var steps: [RunReport.Step] { lock.withLock { done } }

  func finished(_ k: Int, _ summary: MigrationRun.Summary) {
    let step = chain.steps[k]
    let entry = RunReport.step(
      summary, mapping: step.mappingPath ?? "inferred", from: names[step.from], to: names[step.to],
      dropped: check.accepted(k))
    lock.withLock { done.append(entry) }
    guard !quiet else { return }
    let total = chain.steps.count
    Console.say(
      "mapc: step \(k + 1)/\(total) \(MapcCommand.Migrate.describe(step, names)): \(entry.objectsRead) objects in \(String(format: "%.2f", summary.seconds)) s"
    )
    for line in RunReport.lines(entry) { Console.say(line) }
  }
}
