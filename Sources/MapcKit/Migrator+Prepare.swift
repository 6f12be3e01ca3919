import Foundation
import MapRuntime
import MapTools

extension Migrator {
  /// Identifies the store's version from its entity version hashes and compiles every step to
  /// the target (a mapping of ``Options/mappings`` that fits a step, else the inferred one);
  /// nothing runs. Throws ``MapcError`` for an unknown target or store version, a store that
  /// cannot be read (exit status 2) or a step that cannot be compiled or inferred (1).
  public func prepare(_ options: Options, observer: MigrationObserver = { _ in }) throws(MapcError) -> Preparation {
    let store = options.store
    var versions = options.versions
    let unchanged = "nothing was written; \(store) is unchanged"
    var target = versions.current
    if let to = options.target {
      guard let i = versions.index(named: to) else {
        throw .stopped(
          message:
            "the bundle has no version '\(to)' (versions: \(versions.names.map { "'\($0)'" }.joined(separator: ", ")))",
          id: "model-version-not-found", place: nil, notes: [], status: .inputErrors)
      }
      target = i
    }
    let peek: StoreMetadataPeek
    let format: any StoreFormat
    do {
      format = try StoreFormatChoice.resolve(options.storeFormat, path: store)
      peek = try format.peekMetadata(store)
    } catch {
      throw .run(error, notes: [unchanged])
    }
    guard let hashes = peek.entityVersionHashes else {
      throw .stopped(
        message: "the store records no metadata.entityVersionHashes, so its model version is unknown",
        id: "migrate-unknown-version", place: store, notes: [unchanged], status: .runFailed)
    }
    let match = versions.matchingConfiguration(of: hashes)
    versions = match.versions
    if let configuration = match.configuration {
      let alike =
        match.alike.isEmpty
        ? ""
        : "; configurations \(match.alike.map { "'\($0)'" }.joined(separator: ", ")) have the same entities, and the first declared is taken"
      let whole =
        match.whole.isEmpty
        ? ""
        : "; \(match.whole.map { "'\($0)'" }.joined(separator: ", ")) \(match.whole.count == 1 ? "has" : "have") no such configuration that stands alone and \(match.whole.count == 1 ? "is" : "are") taken whole"
      observer(
        .note(
          "migrate: the store is one of configuration '\(configuration)': each version is taken with that configuration's entities\(alike)\(whole)"
        ))
    }
    var identified = StoreVersion.identify(hashes, in: versions)
    if case .unknown = identified, format.carriesModels,
      let own = Self.ownModelStep(
        options, format: format, hashes: hashes, target: versions.versions[target], observer: observer)
    {
      // The store's own model (Z_MODELCACHE) as the source of one step to the target.
      versions = own
      target = 1
      identified = .version(0)
    }
    let from: Int
    switch identified {
    case .unknown(let closest, let differing):
      throw .stopped(
        message:
          "the store's entity version hashes match no version of \(options.modelName); the closest is '\(versions.versions[closest].name)', which differs in \(differing.joined(separator: ", "))",
        id: "migrate-unknown-version", place: store, notes: [unchanged], status: .runFailed)
    case .version(let i):
      from = i
    }
    let names = versions.names
    if from == target {
      ChainRun.cleanUp(storePath: store)
      return .atTarget(version: names[target])
    }
    if from > target {
      observer(
        .note(
          "migrate: the store is at version '\(names[from])', after the target '\(names[target])': stepping back, each step the reverse of the step forward (\(versions.orderNote))"
        ))
    }
    var explicit: [ExplicitMapping] = []
    if let mappings = options.mappings {
      let (found, diagnostics) = ExplicitMapping.find(in: [mappings], versions: versions)
      if diagnostics.hasErrors { throw .input([diagnostics]) }
      observer(.diagnostics(diagnostics))
      explicit = found
    }
    if options.direct
      ? MigrationChain.isCompatible(versions, from, target)
      : (min(from, target)..<max(from, target)).allSatisfy({ MigrationChain.isCompatible(versions, $0, $0 + 1) })
    {
      ChainRun.cleanUp(storePath: store)
      return .compatible(from: names[from], target: names[target])
    }
    let (chain, diagnostics) = MigrationChain.plan(
      versions: versions, mappings: explicit, from: from, to: target, direct: options.direct)
    // A step that cannot be inferred is reported after the errors that say why.
    let last: Set<String> = ["chain-step-uncovered", "chain-step-irreversible"]
    let groups = [diagnostics.filter { !last.contains($0.id) }, diagnostics.filter { last.contains($0.id) }]
    guard let chain else { throw .input(groups) }
    for group in groups { observer(.diagnostics(group)) }
    return .steps(
      MigrationSteps(
        chain: chain,
        analyses: Cores.map(chain.steps.count) { StepAnalysis.analyze(chain.steps[$0].plan, into: format) },
        format: format,
        previousRecords: peek.migrations, unregisteredPolicies: chain.steps.flatMap { PolicyRegistry.problems($0.plan) }
      ))
  }

  /// A store at no version of the bundle that carries the model that wrote it, its hashes
  /// those of the store's metadata: that model and the target as a chain of one step (inferred,
  /// or a mapping whose hashes fit), with a note. Nil otherwise.
  static func ownModelStep(
    _ options: Options, format: any StoreFormat, hashes: [String: String], target: ModelVersion,
    observer: MigrationObserver
  ) -> ModelVersions? {
    // A cache that cannot be read leaves the store at no version (the error that follows).
    guard let cached = (try? format.carriedModel(options.store)) ?? nil else { return nil }
    let own = ModelVersion(name: "the store's own model", model: cached.model)
    guard own.base64Hashes == hashes else { return nil }
    observer(
      .note(
        "migrate: the store is at no version of \(options.modelName); it carries the model that wrote it (Z_MODELCACHE), which is the source of one step to '\(target.name)'"
      ))
    for line in cached.omitted { observer(.note("the store's model cache holds \(line), which mapc leaves out")) }
    return ModelVersions(bundlePath: options.modelName, chain: [own, target])
  }
}
