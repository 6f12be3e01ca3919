import MapRuntime
import MapSyntax

/// The stages of an `NSStagedMigrationManager` for a bundle's history (`mapc export --stages`,
/// `Specs/staged-migration.md`): runs of inferable steps as lightweight stages, the steps a team
/// marks as needing code as custom stages. A staged migration never runs mapping models or
/// migration policies (a custom stage wraps a lightweight migration in handlers), so a step that
/// a mapping covers or that Core Data cannot infer is refused by name, with the way out.
public struct StagedMigration: Sendable {
  public enum Stage: Sendable, Equatable {
    /// A lightweight stage listing these versions (indices, each checksum once).
    case lightweight([Int])
    /// A custom stage from one version to the next; `handlers`: the team marked it as needing
    /// code (`--custom`), else it only makes Core Data stop at `to` (see `splitReason`).
    case custom(from: Int, to: Int, handlers: Bool)
  }

  public var versions: ModelVersions
  /// `NSManagedObjectModel.versionChecksum` of each version.
  public var checksums: [String]
  public var stages: [Stage]
  /// The first version and the target (indices).
  public var first: Int
  public var target: Int

  /// Plans the stages from the bundle's first version to `target` (default: its current one).
  /// `custom`: names of the versions whose step into them needs code. Errors: a step a mapping
  /// covers (`stages-mapping-step`), a step inference cannot take (`stages-step-not-inferable`),
  /// an unknown version (`stages-unknown-version`); notes: runs split (`stages-direct-inference`).
  public static func plan(
    bundle: String, mappingPaths: [String], custom: [String], target targetName: String?, order: [String]? = nil
  ) -> (StagedMigration?, [Diagnostic]) {
    let versions: ModelVersions
    do {
      versions = try ModelVersions.load(bundle: bundle, order: order)
    } catch {
      return (nil, error.diagnostics)
    }
    let names = versions.names
    var diagnostics: [Diagnostic] = []
    func unknown(_ name: String, _ what: String) {
      diagnostics.append(
        .error(
          "stages-unknown-version",
          "\(what) '\(name)' is not a version of the bundle (versions: \(names.joined(separator: ", ")))",
          at: nil, file: bundle))
    }
    var target = versions.current
    if let targetName {
      if let i = versions.index(named: targetName) { target = i } else { unknown(targetName, "--to") }
    }
    var customSteps = Set<Int>()
    for name in custom {
      guard let i = versions.index(named: name) else {
        unknown(name, "--custom")
        continue
      }
      if i == 0 || i > target {
        diagnostics.append(
          .error(
            "stages-unknown-version",
            "--custom '\(name)' names no step of the history up to '\(names[target])' (it names the step into that version)",
            at: nil, file: bundle))
      } else {
        customSteps.insert(i - 1)
      }
    }
    if diagnostics.hasErrors { return (nil, diagnostics) }
    let (mappings, found) = mappingPaths.isEmpty ? ([], []) : ExplicitMapping.find(in: mappingPaths, versions: versions)
    diagnostics += found.filter { $0.severity == .error }
    let order = [Diagnostic.Note(versions.orderNote)]
    // Each step i → i + 1: nil between versions of equal hashes (no migration), else its plan.
    var steps: [MigrationChain.Step?] = []
    for i in 0..<target {
      if MigrationChain.isCompatible(versions, i, i + 1) {
        steps.append(nil)
        continue
      }
      let step = "'\(names[i])' → '\(names[i + 1])'"
      if let m = mappings.first(where: { $0.covers(i, i + 1) }), !customSteps.contains(i) {
        diagnostics.append(
          .error(
            "stages-mapping-step",
            "the step \(step) is covered by the mapping \(m.path), and a staged migration never runs mapping models or migration policies: split the change over an intermediate model version that holds both the old and the new properties (a lightweight step into it, then a custom stage whose didMigrateHandler moves the data, then a lightweight step that removes the old properties), or, if inference does what the mapping does, mark the step with --custom '\(names[i + 1])'",
            at: m.location, file: m.path, notes: order))
        steps.append(nil)
        continue
      }
      let (planned, problems) = MigrationChain.planStep(versions: versions, mappings: [], from: i)
      guard let planned else {
        diagnostics += problems.filter { $0.id != "chain-step-uncovered" }
        diagnostics.append(
          .error(
            "stages-step-not-inferable",
            "Core Data cannot infer the step \(step) (the errors above say why), and a staged migration runs no mapping model: add an intermediate model version that holds both the old and the new properties, so that each step is inferable, and mark the step into it with --custom to move the data in its didMigrateHandler",
            at: nil, file: bundle, notes: order))
        steps.append(nil)
        continue
      }
      steps.append(planned)
    }
    if diagnostics.hasErrors { return (nil, diagnostics) }
    var stages: [Stage] = []
    var runStart = 0
    var i = 0
    while i <= target {
      // A run of lightweight steps ends at the target or where a custom step starts.
      if i == target || customSteps.contains(i) {
        let (run, notes) = lightweightRun(versions, steps: steps, from: runStart, to: i, custom: customSteps)
        stages += run
        diagnostics += notes
        if i < target { stages.append(.custom(from: i, to: i + 1, handlers: true)) }
        runStart = i + 1
      }
      i += 1
    }
    let checksums = versions.versions.map { ModelLock.checksum($0.hashes) }
    return (
      StagedMigration(
        versions: versions, checksums: checksums, stages: dedupe(stages, checksums), first: 0, target: target),
      diagnostics
    )
  }

  /// The stages for versions `a…b` joined by inferable steps. Core Data infers from a store's
  /// version straight to the end of its lightweight stage (not step by step), so a lightweight
  /// stage `s…e` is right only when each of its versions infers straight to `e` and keeps what
  /// the steps keep. Walking back from `b`, the stage grows while that holds; where it does not,
  /// a custom stage without handlers makes the store stop at the stage's first version.
  static func lightweightRun(
    _ versions: ModelVersions, steps: [MigrationChain.Step?], from a: Int, to b: Int, custom: Set<Int>
  ) -> ([Stage], [Diagnostic]) {
    guard a <= b else { return ([], []) }
    let names = versions.names
    var stages: [Stage] = []
    var notes: [Diagnostic] = []
    var end = b
    var start = b
    // What the steps from `start` to `end` drop, by name.
    var stepwise = Set<String>()
    while start > a {
      let v = start - 1
      if let step = steps[v] {
        stepwise.formUnion(ChainCheck.dropped(StepAnalysis.analyze(step.plan), model: step.plan.sourceModel))
      }
      if v + 1 == end || MigrationChain.isCompatible(versions, v, end) {
        start = v
        continue
      }
      var why: String? = nil
      if let direct = MigrationChain.planStep(versions: versions, mappings: [], from: v, to: end).0 {
        let lost = Set(ChainCheck.dropped(StepAnalysis.analyze(direct.plan), model: direct.plan.sourceModel))
          .subtracting(stepwise)
        if !lost.isEmpty { why = "it would drop \(lost.sorted().joined(separator: ", ")), which the steps keep" }
      } else {
        why = "it cannot be inferred"
      }
      guard let why else {
        start = v
        continue
      }
      notes.append(
        Diagnostic(
          .note, id: "stages-direct-inference",
          "a store at '\(names[v])' in a lightweight stage ending at '\(names[end])' would be migrated straight to it, and \(why): a custom stage without handlers '\(names[v])' → '\(names[start])' makes it stop at '\(names[start])'",
          at: nil, file: versions.bundlePath))
      stages.insert(
        contentsOf: [.custom(from: v, to: start, handlers: false), .lightweight(Array(start...end))], at: 0)
      end = v
      start = v
      stepwise = []
    }
    stages.insert(.lightweight(Array(a...end)), at: 0)
    return (stages, notes.reversed())
  }

  /// Core Data refuses a checksum that appears in two stages ("Duplicate version checksums across
  /// stages"): a lightweight stage keeps only the versions no custom stage names, and each
  /// checksum once (versions of equal hashes have one checksum); an empty one is left out.
  static func dedupe(_ stages: [Stage], _ checksums: [String]) -> [Stage] {
    var inCustom = Set<String>()
    for case .custom(let from, let to, _) in stages {
      inCustom.insert(checksums[from])
      inCustom.insert(checksums[to])
    }
    var seen = Set<String>()
    return stages.compactMap { stage in
      guard case .lightweight(let members) = stage else { return stage }
      let kept = members.filter { !inCustom.contains(checksums[$0]) && seen.insert(checksums[$0]).inserted }
      return kept.isEmpty ? nil : .lightweight(kept)
    }
  }
}
