import ArgumentParser
import Crypto
import Foundation
import MapCompiler
import MapRuntime
import MapSQLite

extension MapcCommand {
  struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Migrate a store from whatever version of a model bundle it is at to the current one (or back to an earlier one).",
      discussion: """
        Identifies the store's version from its entityVersionHashes, then migrates one \
        model version at a time: with the mapping of the --mappings folder that fits a step \
        by entity version hashes (text or .xcmappingmodel), else with the inferred \
        (lightweight) mapping. Every step is compiled before anything runs. Intermediate \
        stores live in .STORE.mapc-migrate beside the store; the store itself is replaced \
        only by the last step's atomic rename, so it is always the original or the result, \
        and a run that was killed is resumed by the next one. --to an earlier version steps \
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
      if let stores {
        guard storeOption == nil else { throw ValidationError("give either --store or --stores") }
        return try runStores(stores)
      }
      guard storeOption != nil else { throw ValidationError("give the store with --store (or many with --stores)") }
      if jobs != nil || shard != nil { throw ValidationError("--jobs and --shard go with --stores") }
      try checkOptions()
      regexBudgetOption.apply()
      var versions: ModelVersions
      do {
        versions = try ModelInput.versions(
          ModelArgument(models, swift: swiftSources),
          order: versionOrder.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
      } catch {
        throw Console.failure(error)
      }
      var target = versions.current
      if let to {
        guard let i = versions.index(named: to) else {
          Console.error(
            "the bundle has no version '\(to)' (versions: \(versions.names.map { "'\($0)'" }.joined(separator: ", ")))",
            id: "model-version-not-found")
          throw ExitCode(.inputErrors)
        }
        target = i
      }
      let peek: StoreMetadataPeek
      let format: any StoreFormat
      do {
        format = try StoreFormatChoice.resolve(storeFormat, path: store)
        peek = try format.peekMetadata(store)
      } catch {
        throw storeFailure(error)
      }
      guard let hashes = peek.entityVersionHashes else {
        throw storeFailure(
          "the store records no metadata.entityVersionHashes, so its model version is unknown",
          id: "migrate-unknown-version")
      }
      var from: Int
      var identified = StoreVersion.identify(hashes, in: versions)
      if case .unknown = identified, format is SQLiteStoreFormat,
        let own = ownModelStep(hashes: hashes, target: versions.versions[target])
      {
        // The store's own model (Z_MODELCACHE) as the source of one step to the target.
        versions = own
        target = 1
        identified = .version(0)
      }
      switch identified {
      case .unknown(let closest, let differing):
        throw storeFailure(
          "the store's entity version hashes match no version of \(model); the closest is '\(versions.versions[closest].name)', which differs in \(differing.joined(separator: ", "))",
          id: "migrate-unknown-version")
      case .version(let i):
        from = i
      }
      let names = versions.names
      if from == target {
        ChainRun.cleanUp(storePath: store)
        Console.say("mapc: \(store) is already at version '\(names[target])', the target; nothing to do")
        return
      }
      if from > target {
        Console.note(
          "migrate: the store is at version '\(names[from])', after the target '\(names[target])': stepping back, each step the reverse of the step forward (\(versions.orderNote))"
        )
      }
      var explicit: [ExplicitMapping] = []
      if let mappings {
        let (found, diagnostics) = ExplicitMapping.find(in: [mappings], versions: versions)
        Console.report(diagnostics)
        if diagnostics.hasErrors { throw ExitCode(.inputErrors) }
        explicit = found
      }
      if direct
        ? MigrationChain.isCompatible(versions, from, target)
        : (min(from, target)..<max(from, target)).allSatisfy({ MigrationChain.isCompatible(versions, $0, $0 + 1) })
      {
        ChainRun.cleanUp(storePath: store)
        Console.say(
          "mapc: \(store) is at version '\(names[from])', whose entity hashes are those of the target '\(names[target])': Core Data opens it without migrating; nothing to do"
        )
        return
      }
      let (chain, diagnostics) = MigrationChain.plan(
        versions: versions, mappings: explicit, from: from, to: target, direct: direct)
      // A step that cannot be inferred is reported after the errors that say why.
      let last: Set<String> = ["chain-step-uncovered", "chain-step-irreversible"]
      let uncovered = diagnostics.filter { last.contains($0.id) }
      Console.report(diagnostics.filter { !last.contains($0.id) })
      Console.report(uncovered)
      guard let chain else { throw ExitCode(.inputErrors) }
      let analyses = chain.steps.map { StepAnalysis.analyze($0.plan) }
      // Every policy class a step names must be registered here: checked before anything
      // runs (--plan shows every step and marks those needing a class this mapc lacks).
      let unregistered = chain.steps.flatMap { PolicyRegistry.problems($0.plan) }
      if !unregistered.isEmpty && !plan {
        throw Console.failure(MigrationFailure(unregistered), notes: ["nothing was run; \(store) is unchanged"])
      }
      if plan {
        try printPlan(chain, analyses: analyses, names: names, format: format)
        return
      }
      let steps = chain.steps
      let shipped = try lockedConsents(chain, versions: versions)
      let check = DataLossCheck(
        analyses: analyses, consent: consentOptions.consent, stepConsents: shipped,
        reverseSteps: Set(steps.indices.filter { steps[$0].reverse }), store: store
      ) { k in
        "step \(k + 1) \(Self.describe(steps[k], names))"
      }
      if dryRun {
        try dryRunChain(chain, names: names, format: format, check: check)
      } else {
        let ancillary = AncillaryTables.notes(store: store, format: format, into: "the migrated store")
        let external = steps.first.flatMap {
          ExternalDataNote.note(store: store, format: format, model: $0.plan.sourceModel, into: "the migrated store")
        }
        try runChain(chain, names: names, previous: peek.migrations, format: format, check: check)
        for line in ancillary { Console.note(line) }
        if let external { Console.note(external) }
      }
    }

    /// The consent `--lock` gives: for each step of the chain between two versions the lock holds
    /// unchanged (same checksum as the bundle's), the drops it records (`Specs/model-lock.md` §4).
    func lockedConsents(_ chain: MigrationChain, versions: ModelVersions) throws -> [Int: DropConsent] {
      guard let lock else { return [:] }
      let locked: ModelLock
      do {
        locked = try ModelLock.read(lock)
      } catch {
        throw Console.failure(error)
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
          Console.note(
            "\(lock) records the step '\(from)' → '\(to)', but the bundle's versions differ from it: its drops are not accepted"
          )
          continue
        }
        result[k] = DropConsent(names: recorded.drops)
      }
      return result
    }

    /// A store at no version of the bundle that carries the model that wrote it, its hashes
    /// those of the store's metadata: that model and the target as a chain of one step (inferred,
    /// or a mapping of --mappings whose hashes fit), said on standard error. Nil otherwise.
    func ownModelStep(hashes: [String: String], target: ModelVersion) -> ModelVersions? {
      // A cache that cannot be read leaves the store at no version (the error that follows).
      guard let cached = (try? CoreDataModelCacheReader.read(storeAt: store)) ?? nil else { return nil }
      let own = ModelVersion(name: "the store's own model", model: cached.model)
      guard own.base64Hashes == hashes else { return nil }
      Console.note(
        "migrate: the store is at no version of \(model); it carries the model that wrote it (Z_MODELCACHE), which is the source of one step to '\(target.name)'"
      )
      for line in cached.omitted { Console.note("the store's model cache holds \(line), which mapc leaves out") }
      return ModelVersions(bundlePath: model, chain: [own, target])
    }

    static func mappingName(_ step: MigrationChain.Step) -> String {
      guard let path = step.mappingPath else { return "inferred" }
      let url = URL(fileURLWithPath: path)
      return url.lastPathComponent == "xcmapping.xml"
        ? url.deletingLastPathComponent().lastPathComponent : url.lastPathComponent
    }

    static func describe(_ step: MigrationChain.Step, _ names: [String]) -> String {
      let how = (step.mappingPath.map { "mapping \($0)" } ?? "inferred") + (step.reverse ? ", reverse" : "")
      return "'\(names[step.from])' → '\(names[step.to])' (\(how))"
    }

    /// A store problem: exit 2, the store unchanged; after a refused loss, the ways forward.
    func storeFailure(_ failure: MigrationFailure, check: DataLossCheck? = nil, chain: MigrationChain? = nil)
      -> ExitCode
    {
      var notes: [String] = []
      if let check, let k = check.refusedStep, let step = chain?.steps[k] {
        let names = chain!.versions.names
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
      return Console.failure(failure, notes: notes + ["nothing was written; \(store) is unchanged"])
    }

    /// A store problem found by the command itself: exit 2, the store unchanged.
    func storeFailure(_ message: String, id: String) -> ExitCode {
      Console.error(message, id: id, place: store)
      Console.note("nothing was written; \(store) is unchanged")
      return ExitCode(.runFailed)
    }
  }
}
