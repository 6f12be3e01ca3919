import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapSyntax

extension MapcCommand.Migrate {
  /// `--stores MANIFEST|GLOB`: every store on its own, by `mapc migrate` in a child process,
  /// `--jobs` at a time, `--shard` for a part; one JSON Lines line per store on standard output,
  /// in the stores' order; exit 0 when every store migrated (or was at its target already), 2
  /// when one did not (Specs/migrate.md §8).
  func runStores(_ stores: String) throws {
    if plan || dryRun || backup != nil || report != nil {
      throw ValidationError("--stores goes without --plan, --dry-run, --backup and --report (each store is reported)")
    }
    let part = try Shard.option(shard)
    if let jobs, jobs < 1 { throw ValidationError("--jobs is at least 1") }
    let isManifest = stores.hasSuffix(".jsonl") || stores.hasSuffix(".ndjson")
    var entries: [StoreBatch.Entry]
    do {
      if isManifest {
        if !models.isEmpty || to != nil || mappings != nil || output != nil {
          throw ValidationError("with a manifest, --model, --to, --mappings and --output come from its lines")
        }
        entries = try StoreBatch.manifest(stores)
      } else {
        guard !models.isEmpty else { throw ValidationError("--stores GLOB needs --model") }
        guard let output else {
          throw ValidationError("--stores GLOB needs --output FOLDER (the stores' outputs go there)")
        }
        entries = try StoreBatch.matching(stores, models: models, to: to, mappings: mappings, folder: output)
      }
    } catch let error as DiagnosticsError {
      Console.report(error.diagnostics)
      throw ExitCode(isManifest ? .inputErrors : .usage)
    }
    // Every output and input of every store, checked together before anything runs: no output
    // onto any store, model or other output (by device and inode), no two outputs the same.
    var files = OutputTarget()
    if isManifest { files.reads(stores, as: "manifest") }
    for e in entries {
      files.reads(e.store, as: "store", kind: .store)
      files.reads(e.models, as: "model")
      files.reads(e.mappings, as: "mappings")
    }
    var seen = Set<String>()
    for e in entries {
      let normal = (e.output as NSString).standardizingPath
      guard seen.insert(normal).inserted else {
        Console.error("two stores would be written to \(TerminalText.escaped(e.output))", id: "io-output-is-input")
        throw ExitCode(.usage)
      }
      files.writes(e.output, option: "an output", kind: .replacedStore)
    }
    try files.refuseClash()
    let selected = part?.select(entries, key: { "\($0.store)#\($0.line ?? 0)" }) ?? entries
    for e in selected {
      try? FileManager.default.createDirectory(
        atPath: PathText.folder(of: e.output), withIntermediateDirectories: true)
    }
    let passed = passThrough()
    let executable = FixtureRunner.currentExecutable()
    let lanes = jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    let results = try FixtureRunner.withWorkRoot { root in
      ParallelLanes.run(
        count: selected.count, jobs: lanes,
        { i in StoreBatchRun.migrate(selected[i], index: i, executable: executable, extra: passed, work: root) },
        inOrder: { _, line in FileHandle.standardOutput.write(Data((line.json.line() + "\n").utf8)) })
    }
    let failed = results.filter { !$0.succeeded }.count
    if !quiet {
      var summary = "mapc: \(results.count) stores: \(results.count - failed) migrated, \(failed) failed"
      if let part { summary += " (shard \(part.index + 1) of \(part.count): \(selected.count) of \(entries.count))" }
      Console.say(summary)
    }
    if failed > 0 { throw ExitCode(.runFailed) }
  }

  /// The options every store's run gets as they were given.
  func passThrough() -> [String] {
    var arguments: [String] = []
    if direct { arguments.append("--direct") }
    if checkpoints { arguments.append("--checkpoints") }
    if let lock { arguments += ["--lock", lock] }
    if let versionOrder { arguments += ["--version-order", versionOrder] }
    if let storeFormat { arguments += ["--store-format", storeFormat] }
    if consentOptions.allowDataLoss { arguments.append("--allow-data-loss") }
    for name in consentOptions.allowDrop { arguments += ["--allow-drop", name] }
    if let budget = regexBudgetOption.regexBudget { arguments += ["--regex-budget", String(budget)] }
    if let limit = memoryLimitOption.memoryLimit { arguments += ["--memory-limit", limit] }
    for c in swiftSources.define { arguments += ["--define", c] }
    for c in swiftSources.undefine { arguments += ["--undefine", c] }
    for g in swiftSources.exclude { arguments += ["--exclude", g] }
    if let target = swiftSources.xcodeTarget { arguments += ["--xcode-target", target] }
    return arguments
  }
}
