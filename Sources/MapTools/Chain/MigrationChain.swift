import Foundation
import MapCompiler
import MapRuntime
import MapSyntax

/// The steps that take a store from one version of a bundle to a later one, one version at a
/// time (`Specs/migrate.md` §3): each step uses the explicit mapping that covers it, else an
/// inferred one. Every plan is compiled before anything runs.
public struct MigrationChain: Sendable {
  public struct Step: Sendable {
    public var from: Int
    public var to: Int
    /// The mapping file, or nil for an inferred mapping.
    public var mappingPath: String?
    public var plan: MigrationPlan
    /// The inferred document (nil for an explicit mapping), for `--plan` and `mapc infer`.
    public var inferred: InferredMapping?
    /// A step to an earlier version (`from > to`): the reverse of an inferred step, or a
    /// mapping of the mappings folder written for the way back (`Specs/migrate.md` §3a).
    public var reverse = false
  }

  public var versions: ModelVersions
  public var steps: [Step]

  /// Plans `from` → `to` (with `from > to`, back: each step `planReverseStep`'s). Errors: two
  /// mappings for one step, a step neither a mapping nor inference covers (or, back, one with no
  /// reverse), a mapping that does not compile against the versions.
  ///
  /// A chain goes one version at a time, leaving out each step between two versions whose entity
  /// hashes are equal: Core Data finds such a store compatible with the later version and opens
  /// it without migrating (`Specs/migrate.md` §3). `direct` plans one step from `from` to `to`,
  /// as Core Data's automatic migration does: a mapping whose hashes fit both, else inferred.
  public static func plan(
    versions: ModelVersions, mappings: [ExplicitMapping], from: Int, to: Int, direct: Bool = false
  ) -> (MigrationChain?, [Diagnostic]) {
    var steps: [Step] = []
    var diagnostics: [Diagnostic] = []
    let pairs =
      direct
      ? [(from, to)]
      : from < to
        ? (from..<to).filter { !isCompatible(versions, $0, $0 + 1) }.map { ($0, $0 + 1) }
        : (to..<from).reversed().filter { !isCompatible(versions, $0 + 1, $0) }.map { ($0 + 1, $0) }
    // Each step is planned on its own (inferred, compiled), on every core; kept in chain order.
    let planned = Cores.map(pairs.count) { k in
      let (i, j) = pairs[k]
      return i < j
        ? planStep(versions: versions, mappings: mappings, from: i, to: j)
        : planReverseStep(versions: versions, mappings: mappings, from: i, to: j)
    }
    for (step, found) in planned {
      diagnostics += found
      if let step { steps.append(step) }
    }
    if diagnostics.hasErrors { return (nil, diagnostics) }
    return (MigrationChain(versions: versions, steps: steps), diagnostics)
  }

  /// Whether Core Data opens a store of version `i` with version `j` without migrating: their
  /// entity version hashes are equal (names and hashes).
  public static func isCompatible(_ versions: ModelVersions, _ i: Int, _ j: Int) -> Bool {
    versions.versions[i].base64Hashes == versions.versions[j].base64Hashes
  }

  /// One step `i → j` forwards (`j` is `i + 1` in a chain).
  public static func planStep(versions: ModelVersions, mappings: [ExplicitMapping], from i: Int, to j: Int? = nil)
    -> (Step?, [Diagnostic])
  {
    let j = j ?? i + 1
    let (a, b) = (versions.versions[i], versions.versions[j])
    let covering = mappings.filter { $0.covers(i, j) }
    if covering.count > 1 {
      return (
        nil,
        [
          .error(
            "chain-duplicate-mapping",
            "\(covering.count) mappings cover the step \(a.name) → \(b.name): \(covering.map(\.path).joined(separator: ", ")); keep one",
            at: covering[1].location, file: covering[1].path)
        ]
      )
    }
    if let m = covering.first { return explicitStep(versions, m, from: i, to: j) }
    let (step, diagnostics) = inferredStep(versions, from: i, to: j)
    guard step == nil else { return (step, diagnostics) }
    let note = Diagnostic.error(
      "chain-step-uncovered",
      "no mapping covers the step \(a.name) → \(b.name) and it cannot be inferred (the errors above say why); add a mapping for it to the mappings folder",
      at: nil, file: versions.bundlePath, notes: [.init(versions.orderNote)])
    return (nil, diagnostics + [note])
  }

  /// The step `i → j` with mapping `m`, compiled against the two versions.
  static func explicitStep(_ versions: ModelVersions, _ m: ExplicitMapping, from i: Int, to j: Int) -> (
    Step?, [Diagnostic]
  ) {
    let output = MappingCompilation.compile(
      mappingPath: m.path,
      source: .init(path: versions.bundlePath, version: versions.versions[i].name),
      destination: .init(path: versions.bundlePath, version: versions.versions[j].name))
    guard let plan = output.plan else { return (nil, output.diagnostics.filter { $0.severity == .error }) }
    return (Step(from: i, to: j, mappingPath: m.path, plan: plan, inferred: nil, reverse: i > j), [])
  }

  /// The inferred step `i → j` (following `matching` instead of renaming identifiers when given),
  /// or nil with the `infer-*` errors that say why not.
  static func inferredStep(_ versions: ModelVersions, from i: Int, to j: Int, matching: InferenceMatching? = nil)
    -> (Step?, [Diagnostic])
  {
    let (a, b) = (versions.versions[i], versions.versions[j])
    let label = "inferred mapping \(a.name) → \(b.name)"
    let inferred = MappingInference.infer(
      source: a.model, destination: b.model, sourceHashes: a.hashes, destinationHashes: b.hashes, path: label,
      matching: matching)
    guard let document = inferred.document else { return (nil, inferred.diagnostics) }
    let models = MappingCompiler.Models(
      source: a.model, destination: b.model, sourceHashes: a.hashes, destinationHashes: b.hashes)
    let compiled = MappingCompiler.compile(document, models: models)
    guard let plan = compiled.plan else { return (nil, inferred.diagnostics + compiled.diagnostics) }
    return (
      Step(from: i, to: j, mappingPath: nil, plan: plan, inferred: inferred, reverse: i > j), inferred.diagnostics
    )
  }
}
