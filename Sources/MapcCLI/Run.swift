import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime
import MapcKit
import MapSyntax

extension MapcCommand {
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Migrate a store (JSON or Core Data SQLite) with a plan.",
      discussion: """
        Reads the store, checks it against the plan's source model, runs Core Data's three \
        passes (create instances, relationships, validation), and only then writes the new \
        store: to a temporary file in the target folder, flushed to disk and renamed over the \
        target. A failed or interrupted run leaves the input store and any existing output \
        untouched. PLAN may also be a mapping XML file, compiled in memory first. Exit status: \
        0 migrated, 1 the mapping does not compile, 2 the run failed or the plan would drop data \
        the store holds without --allow-data-loss or --allow-drop (nothing written), \
        64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Argument(help: "A plan written by `mapc compile`, a mapping XML file, or an Xcode .xcmappingmodel.")
    var plan: String

    @Option(help: "The store to migrate: a JSON store or a Core Data SQLite store, written back in its own format.")
    var store: String

    @Option(help: ArgumentHelp(StoreFormatChoice.help))
    var storeFormat: String?

    @Option(help: "Where to write the migrated store.")
    var output: String?

    @Flag(help: "Replace the input store with the migrated one.")
    var inPlace = false

    @Option(help: "With --in-place: keep the old store at this path.")
    var backup: String?

    @Flag(help: "Write the store without whitespace.")
    var compact = false

    @Flag(help: "Run every pass and validation but write nothing.")
    var dryRun = false

    @Option(help: "Stop after this many errors; 0 reports every error.")
    var maxErrors = 50

    @Option(help: "Write what the run read, made and dropped, per entity mapping, as JSON to this file.")
    var report: String?

    @OptionGroup var consentOptions: ConsentOptions

    @OptionGroup var regexBudgetOption: RegexBudgetOption

    @OptionGroup var memoryLimitOption: MemoryLimitOption

    @Flag(help: "No progress and no summary line (same as --progress none, without the summary).")
    var quiet = false

    @OptionGroup var progressOption: ProgressOption

    /// Checked when the command runs, not in `validate()`, so that a misspelt option is reported
    /// as such (argument-parser reports unknown options only after validation passes).
    func checkDestination() throws {
      let destinations = [output != nil, inPlace, dryRun].filter { $0 }.count
      if destinations != 1 {
        throw ValidationError("give exactly one of --output PATH, --in-place or --dry-run")
      }
      if backup != nil && !inPlace { throw ValidationError("--backup is only used with --in-place") }
      if maxErrors < 0 { throw ValidationError("--max-errors must be 0 (no limit) or more") }
      try files.refuseClash(notes: Self.hint)
    }

    /// What the run reads and writes (`OutputTarget`); the plan's models are added once it is read.
    var files: OutputTarget {
      var files = OutputTarget()
      files.reads(plan, as: "plan")
      files.reads(store, as: "store", kind: .store)
      files.writes(output, option: "--output", kind: StoreFormatChoice.outputKind(storeFormat, store: store))
      // The store is replaced: it (or the file its link points to) must be a regular file.
      if inPlace { files.writes(store, option: "--in-place: the store", kind: .replacedStore, replacing: "store") }
      files.writes(backup, option: "--backup", kind: .replacedFile)
      files.writes(report, option: "--report")
      return files
    }

    static func hint(_ clash: OutputTarget.Clash) -> [String] {
      clash.option == "--output" && clash.role == "store" ? ["use --in-place to replace the store"] : []
    }

    func run() throws {
      try checkDestination()
      regexBudgetOption.apply()
      memoryLimitOption.apply()
      TemporaryFiles.installSignalHandlers()
      let migrationPlan: MigrationPlan
      do {
        let loaded = try PlanSource.load(plan)
        Console.report(loaded.warnings)
        migrationPlan = loaded.plan
      } catch {
        throw Console.failure(error)
      }
      var withModels = files
      withModels.reads(migrationPlan.sourceModel.path, as: "model")
      withModels.reads(migrationPlan.destinationModel.path, as: "model")
      try withModels.refuseClash(notes: Self.hint)
      let out: MigrationRun.Output = dryRun ? .none : (inPlace ? .inPlace(backup: backup) : .file(output!))
      let bar = progressOption.reporter(quiet: quiet)
      var options = Migrator.RunOptions(plan: migrationPlan, planName: plan, store: store, output: out)
      options.storeFormat = storeFormat
      options.compact = compact
      options.maxErrors = maxErrors == 0 ? Int.max : maxErrors
      options.memoryLimit = memoryLimitOption.bytes
      options.consent = consentOptions.consent
      options.reportPhases = ProcessInfo.processInfo.environment["MAPC_PHASES"] == "1"
      options.progress = bar?.passCallback
      options.ioProgress = bar?.ioCallback
      let result: Migrator.RunReport
      do {
        result = try Migrator().run(options)
      } catch {
        bar?.finish(completed: false)
        throw Console.failure(error)
      }
      bar?.finish()
      let step = RunReport.step(result.step)
      if !quiet {
        for line in RunReport.lines(step) { Console.say(line) }
        Console.say(Self.summaryLine(result.step.summary))
      }
      for line in result.notes { Console.note(line) }
      if let report {
        try RunReport(command: "run", store: store, output: result.step.summary.writtenTo, steps: [step]).write(
          to: report)
      }
    }

    static func summaryLine(_ s: MigrationRun.Summary) -> String {
      let read = s.read.reduce(0) { $0 + $1.count }
      let created = s.created.filter { $0.count > 0 }.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
      let time = String(format: "%.2f", s.seconds)
      let target = s.writtenTo.map { "; wrote \($0)" } ?? "; dry run, nothing written"
      return
        "mapc: migrated \(read) objects\(MemoryLimitOption.chunksText(s.chunks)) in \(time) s; created \(created.isEmpty ? "nothing" : created)\(target)"
    }
  }
}
