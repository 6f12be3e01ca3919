import ArgumentParser
import Crypto
import Foundation
import MapCompiler
import MapRuntime

extension MapcCommand {
  struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Migrate a store from whatever version of a model bundle it is at to the current one.",
      discussion: """
        Identifies the store's version from its entityVersionHashes, then migrates one \
        model version at a time: with the mapping of the --mappings folder that fits a step \
        by entity version hashes (text or .xcmappingmodel), else with the inferred \
        (lightweight) mapping. Every step is compiled before anything runs. Intermediate \
        stores live in .STORE.mapc-migrate beside the store; the store itself is replaced \
        only by the last step's atomic rename, so it is always the original or the result, \
        and a run that was killed is resumed by the next one. Applied steps are recorded in \
        metadata.mapcMigrations (mapc repository: Specs/migrate.md). Exit status: 0 migrated or already at \
        the target, 1 a model or mapping is wrong or a step cannot be inferred, 2 the store \
        cannot be migrated (unknown version, run or validation errors; it is unchanged), \
        64 usage error.
        """)

    @Option(help: "The model bundle (.xcdatamodeld) whose versions the store goes through.")
    var model: String

    @Option(help: "The store to migrate in place: a JSON store or a Core Data SQLite store.")
    var store: String

    @Option(help: ArgumentHelp(StoreFormatChoice.help))
    var storeFormat: String?

    @Option(help: "A folder of mappings (mapping XML files, .xcmappingmodel) for steps that are not inferred.")
    var mappings: String?

    @Option(help: "The version to migrate to (default: the bundle's current version).")
    var to: String?

    @Flag(help: "Print the steps and run nothing.")
    var plan = false

    @Option(help: "Keep the original store at this path.")
    var backup: String?

    @Flag(help: "No per-step lines and no summary.")
    var quiet = false

    func run() throws {
      try checkOutput(store, option: "--store", inputs: [model])
      if let backup { try checkOutput(backup, option: "--backup", inputs: [store, model]) }
      let versions: ModelVersions
      do {
        versions = try ModelVersions.load(bundle: model)
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
      let from: Int
      switch StoreVersion.identify(hashes, in: versions) {
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
        throw storeFailure(
          "the store is at version '\(names[from])', after the target '\(names[target])'; mapc does not migrate backwards",
          id: "migrate-backwards")
      }
      var explicit: [ExplicitMapping] = []
      if let mappings {
        let (found, diagnostics) = ExplicitMapping.find(in: [mappings], versions: versions)
        Console.report(diagnostics)
        if diagnostics.hasErrors { throw ExitCode(.inputErrors) }
        explicit = found
      }
      let (chain, diagnostics) = MigrationChain.plan(versions: versions, mappings: explicit, from: from, to: target)
      Console.report(diagnostics)
      guard let chain else { throw ExitCode(.inputErrors) }
      if plan {
        print(
          "\(store): version '\(names[from])' → '\(names[target])', \(chain.steps.count) step\(chain.steps.count == 1 ? "" : "s"):"
        )
        for (k, step) in chain.steps.enumerated() { print("  \(k + 1). \(Self.describe(step, names))") }
        return
      }
      try runChain(chain, names: names, previous: peek.migrations, format: format)
    }

    private func runChain(
      _ chain: MigrationChain, names: [String], previous: [MetadataValue], format: any StoreFormat
    ) throws {
      let steps = chain.steps.map { s in
        ChainRun.Step(
          plan: s.plan,
          record: .object([
            .init("from", .string(names[s.from])), .init("to", .string(names[s.to])),
            .init("mapping", .string(Self.mappingName(s))),
          ]), keepsObjectKeys: s.inferred != nil)
      }
      var key = SHA256()
      for s in chain.steps { key.update(data: PlanWriter.encode(s.plan, sourcePositions: false)) }
      var options = ChainRun.Options(
        chainKey: key.finalize().map { String(format: "%02x", $0) }.joined(), storeFormat: format, backup: backup)
      options.previousRecords = previous
      options.now = Run.fixedNow()
      let total = steps.count
      let quiet = self.quiet
      options.stepFinished = { k, summary in
        guard !quiet else { return }
        let step = chain.steps[k]
        let objects = summary.read.reduce(0) { $0 + $1.count }
        Console.say(
          "mapc: step \(k + 1)/\(total) \(Self.describe(step, names)): \(objects) objects in \(String(format: "%.2f", summary.seconds)) s"
        )
      }
      let storePath = store
      let result = Result { () throws(MigrationFailure) -> Int in
        try ChainRun.run(steps: steps, storePath: storePath, options: options)
      }
      switch result {
      case .success(let reused):
        if !quiet {
          let resumed =
            reused > 0 ? " (resumed after \(reused) step\(reused == 1 ? "" : "s") of an interrupted run)" : ""
          Console.say(
            "mapc: migrated \(store) from '\(names[chain.steps.first!.from])' to '\(names[chain.steps.last!.to])' in \(total) step\(total == 1 ? "" : "s")\(resumed)"
          )
        }
      case .failure(let failure):
        throw storeFailure(failure)
      }
    }

    static func mappingName(_ step: MigrationChain.Step) -> String {
      guard let path = step.mappingPath else { return "inferred" }
      let url = URL(fileURLWithPath: path)
      return url.lastPathComponent == "xcmapping.xml"
        ? url.deletingLastPathComponent().lastPathComponent : url.lastPathComponent
    }

    static func describe(_ step: MigrationChain.Step, _ names: [String]) -> String {
      let how = step.mappingPath.map { "mapping \($0)" } ?? "inferred"
      return "'\(names[step.from])' → '\(names[step.to])' (\(how))"
    }

    /// A store problem: exit 2, the store unchanged.
    private func storeFailure(_ failure: MigrationFailure) -> ExitCode {
      Console.failure(failure, notes: ["nothing was written; \(store) is unchanged"])
    }

    /// A store problem found by the command itself: exit 2, the store unchanged.
    private func storeFailure(_ message: String, id: String) -> ExitCode {
      Console.error(message, id: id, place: store)
      Console.note("nothing was written; \(store) is unchanged")
      return ExitCode(.runFailed)
    }
  }
}
