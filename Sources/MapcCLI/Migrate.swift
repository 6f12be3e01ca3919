import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapSQLite
import MapTools

extension MapcCommand {
  struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Migrate a store from whatever version of a model bundle it is at to the current one (or back to an earlier one).",
      discussion: """
        Identifies the store's version from its entityVersionHashes, then migrates one \
        model version at a time: with the mapping of the --mappings folder that fits a step \
        by entity version hashes (text or .xcmappingmodel), else with the inferred \
        (lightweight) mapping. Every step is compiled before anything runs. The steps are \
        fused: each hands its result to the next in memory where that is exact, else through \
        a scratch store in the temporary folder that is never flushed to disk, and a run \
        that was killed starts over; with \
        --checkpoints intermediate stores live in .STORE.mapc-migrate beside the store and a \
        run that was killed is resumed by the next one. Either way the result is the same \
        bytes, and the store itself is replaced only by the last step's atomic rename, so it \
        is always the original or the result. --to an earlier version steps \
        back: each step the reverse of the inferred step forward (renames undone), or a \
        mapping of --mappings from a version to the one before it. Applied steps are recorded in \
        metadata.mapcMigrations. Exit status: 0 migrated or already at \
        the target, 1 a model or mapping is wrong or a step cannot be inferred (or, going \
        back, reversed), 2 the store \
        cannot be migrated (unknown version, run or validation errors, or a step would drop \
        objects or values the store holds without --allow-data-loss or --allow-drop; it is \
        unchanged), 64 usage error or an output that \
        would write over an input (nothing read or written).
        """)

    @Option(
      name: .customLong("model"),
      help:
        "The model bundle (.xcdatamodeld) or SwiftData schema (.swift, a folder, an .xcodeproj) the store goes through. Repeated, the Swift files of all its paths are read together."
    )
    var models: [String] = []

    @OptionGroup var swiftSources: SwiftSourceOptions

    /// The model as messages name it.
    var model: String { models.joined(separator: ", ") }

    @Option(
      name: .customLong("store"), help: "The store to migrate in place: a JSON store or a Core Data SQLite store.")
    var storeOption: String?

    /// The store (`--store`; empty with `--stores`, whose stores each run on their own).
    var store: String { storeOption ?? "" }

    @Option(
      help: ArgumentHelp(
        "Migrate many stores, each on its own: a JSON Lines manifest (.jsonl: store, model, output, to, mappings a line) or a glob with --model and --output FOLDER; one JSON line per store on standard output.",
        valueName: "manifest.jsonl|glob"))
    var stores: String?

    @Option(help: "With --stores: how many stores migrate at the same time (default: the machine's cores).")
    var jobs: Int?

    @Option(
      help: ArgumentHelp(
        "With --stores: migrate part K of N of the stores (as mapc test --shard).", valueName: "K/N|auto[/N]"))
    var shard: String?

    @Option(help: ArgumentHelp(StoreFormatChoice.help))
    var storeFormat: String?

    @Option(help: "A folder of mappings (mapping XML files, .xcmappingmodel) for steps that are not inferred.")
    var mappings: String?

    @Option(
      help:
        "The version to migrate to (default: the bundle's current version); an earlier one than the store's steps back."
    )
    var to: String?

    @Option(
      help: ArgumentHelp(
        "The bundle's versions in chain order, comma-separated (default: the bundle's .mapc-version-order file, else the order of their names).",
        valueName: "a,b,c"))
    var versionOrder: String?

    @Flag(
      help: ArgumentHelp(
        "One step from the store's version to the target, as Core Data's automatic migration takes it: a mapping of --mappings whose hashes fit both versions, else one inferred mapping (default: one version at a time)."
      ))
    var direct = false

    @Flag(
      help: "Print the steps, what each does to every entity and property with the store's counts, and run nothing.")
    var plan = false

    @Option(help: "With --plan: text (default) or json.")
    var format: PlanFormat = .text

    @Flag(help: "Run every step (policies and validation included) but write nothing.")
    var dryRun = false

    @Option(help: "Write the result here and leave the store as it is.")
    var output: String?

    @Option(help: "Keep the original store at this path.")
    var backup: String?

    @Flag(
      help:
        "Keep each intermediate store in .STORE.mapc-migrate beside the store (flushed, its SHA-256 recorded), so that a killed run is resumed from the last complete step (for long chains over large stores)."
    )
    var checkpoints = false

    @Option(
      help:
        "A lock file written by `mapc lock`: what it records as dropped by a shipped step (both versions locked and unchanged) is accepted for that step."
    )
    var lock: String?

    @Option(help: "Write what each step read, made and dropped, per entity mapping, as JSON to this file.")
    var report: String?

    @OptionGroup var consentOptions: ConsentOptions

    @OptionGroup var regexBudgetOption: RegexBudgetOption

    @Flag(help: "No progress, no per-step lines and no summary.")
    var quiet = false

    @OptionGroup var progressOption: ProgressOption

    @OptionGroup var memoryLimitOption: MemoryLimitOption

    enum PlanFormat: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    func checkOptions() throws {
      guard !models.isEmpty else { throw ValidationError("give the model with --model") }
      try ModelArgument(models, swift: swiftSources).validate(option: "--model")
      if [plan, dryRun, output != nil].filter({ $0 }).count > 1 {
        throw ValidationError("give at most one of --plan, --dry-run and --output PATH")
      }
      if format != .text && !plan { throw ValidationError("--format is only used with --plan") }
      if checkpoints && (plan || dryRun) {
        throw ValidationError("--checkpoints is only used when the chain runs (not with --plan or --dry-run)")
      }
      if backup != nil && (plan || dryRun || output != nil) {
        throw ValidationError(
          "--backup is only used when the store is replaced (not with --plan, --dry-run or --output)")
      }
      try files().refuseClash { clash in
        clash.option == "--output" && clash.role == "store" ? ["leave --output out to replace the store"] : []
      }
    }

    /// What the run reads (the bundle, the store, every file of `--mappings`) and writes (the
    /// store or `--output`, `--backup`, `--report`, and the work folder beside the store).
    func files() throws -> OutputTarget {
      var files = OutputTarget()
      files.reads(models, as: "model")
      files.reads(store, as: "store", kind: .store)
      if let mappings {
        do {
          files.reads(try MappingFileFinder.find([mappings], everyXML: true), as: "mapping")
        } catch {
          Console.error(error.description, id: "usage-path-not-found")
          throw ExitCode(.usage)
        }
      }
      if !plan && !dryRun {
        if output == nil {
          files.writes(store, option: "--store", kind: .replacedStore, replacing: "store")
        }
        files.writes(output, option: "--output", kind: StoreFormatChoice.outputKind(storeFormat, store: store))
        files.writes(backup, option: "--backup", kind: .replacedFile)
      }
      // The work folder is mapc's (a run removes it, leftovers included): no output goes inside
      // it, with --plan and --dry-run too (exit 64, not a failed write later).
      let (folder, name) = (PathText.folder(of: store), (store as NSString).lastPathComponent)
      files.writes(
        (folder.isEmpty ? "." : folder) + "/.\(name).mapc-migrate", option: "the work folder", kind: .removedFolder)
      files.reads(lock, as: "lock")
      files.writes(report, option: "--report")
      return files
    }

    func run() throws {
      memoryLimitOption.apply()
      if let stores {
        guard storeOption == nil else { throw ValidationError("give either --store or --stores") }
        return try runStores(stores)
      }
      guard storeOption != nil else { throw ValidationError("give the store with --store (or many with --stores)") }
      if jobs != nil || shard != nil { throw ValidationError("--jobs and --shard go with --stores") }
      try checkOptions()
      regexBudgetOption.apply()
      let versions: ModelVersions
      do {
        versions = try ModelInput.versions(
          ModelArgument(models, swift: swiftSources),
          order: versionOrder.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
      } catch {
        throw Console.failure(error)
      }
      var options = Migrator.Options(store: store, versions: versions, modelName: model)
      options.storeFormat = storeFormat
      options.mappings = mappings
      options.target = to
      options.direct = direct
      options.consent = consentOptions.consent
      options.lock = lock
      options.output = output
      options.backup = backup
      options.checkpoints = checkpoints
      options.memoryLimit = memoryLimitOption.bytes
      let steps: MigrationSteps
      do {
        switch try Migrator().prepare(options, observer: Self.print) {
        case .atTarget(let version):
          Console.say("mapc: \(store) is already at version '\(version)', the target; nothing to do")
          return
        case .compatible(let from, let target):
          Console.say(
            "mapc: \(store) is at version '\(from)', whose entity hashes are those of the target '\(target)': Core Data opens it without migrating; nothing to do"
          )
          return
        case .steps(let found):
          steps = found
        }
      } catch {
        throw Console.failure(error)
      }
      if plan {
        try printPlan(steps, options)
        return
      }
      if dryRun {
        try dryRunChain(steps, options)
      } else {
        try runChain(steps, options)
      }
    }

    /// Prints what MapcKit's `Migrator` says while it prepares and runs (notes, warnings, an
    /// untrusted intermediate store); the CLI shows the steps' progress itself.
    @Sendable static func print(_ event: MigrationEvent) {
      switch event {
      case .note(let message): Console.note(message)
      case .diagnostics(let diagnostics): Console.report(diagnostics)
      case .untrustedIntermediate(let path, let store):
        Console.say(
          DiagnosticLine.render(
            .warning,
            "this intermediate store of an interrupted run differs from the SHA-256 recorded when it was written (damaged or replaced); not trusted: starting again from \(store)",
            id: "migrate-resume-untrusted", place: path))
      case .stepStarting, .stepFinished: break
      }
    }
  }
}
