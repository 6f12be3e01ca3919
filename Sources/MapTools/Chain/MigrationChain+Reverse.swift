import MapRuntime
import MapSyntax

/// Steps back to an earlier version (`Specs/migrate.md` §3a): the reverse of the forward step
/// `j → i` (`j < i`), inferred from the forward inferred mapping's matching turned around, or a
/// mapping of the mappings folder written for the way back.
extension MigrationChain {
  /// The step `i → j` with `i > j`. A mapping whose source side fits `i` and destination side
  /// `j` (and not the other way round) is used as written; a forward step covered by a mapping,
  /// or one that cannot be inferred, has no automatic reverse (`chain-step-irreversible`);
  /// otherwise the reverse is inferred with Core Data's rules, each element of the older
  /// version matched to the one the forward step matched it to (renames undone).
  public static func planReverseStep(versions: ModelVersions, mappings: [ExplicitMapping], from i: Int, to j: Int)
    -> (Step?, [Diagnostic])
  {
    let (newer, older) = (versions.versions[i].name, versions.versions[j].name)
    let back = mappings.filter { $0.covers(i, j) && !$0.covers(j, i) }
    if back.count > 1 {
      return (
        nil,
        [
          .error(
            "chain-duplicate-mapping",
            "\(back.count) mappings cover the step \(newer) → \(older): \(back.map(\.path).joined(separator: ", ")); keep one",
            at: back[1].location, file: back[1].path)
        ]
      )
    }
    if let m = back.first { return explicitStep(versions, m, from: i, to: j) }
    let way = "write a reverse mapping ('\(newer)' → '\(older)': its source the newer version) into the mappings folder"
    if let forward = mappings.first(where: { $0.covers(j, i) }) {
      return (
        nil,
        [
          irreversible(
            "the step '\(older)' → '\(newer)' is covered by the mapping \(forward.path), not inferred, so mapc cannot reverse it; \(way)",
            versions)
        ]
      )
    }
    let (forward, problems) = inferredStep(versions, from: j, to: i)
    guard let matching = forward?.inferred?.matching else {
      return (
        nil,
        problems.filter { $0.severity == .error }
          + [
            irreversible(
              "the step '\(older)' → '\(newer)' cannot be inferred (the errors above say why), so it has no inferred reverse; \(way)",
              versions)
          ]
      )
    }
    guard let reversed = matching.reversed() else {
      return (
        nil,
        [
          irreversible(
            "the step '\(older)' → '\(newer)' reads one property into several, so its reverse would have to pick one; \(way)",
            versions)
        ]
      )
    }
    let (step, found) = inferredStep(versions, from: i, to: j, matching: reversed)
    guard step == nil else { return (step, found) }
    return (
      nil,
      found
        + [
          irreversible(
            "the reverse of the step '\(older)' → '\(newer)' cannot be inferred (the errors above say why); \(way)",
            versions)
        ]
    )
  }

  static func irreversible(_ message: String, _ versions: ModelVersions) -> Diagnostic {
    .error(
      "chain-step-irreversible", message, at: nil, file: versions.bundlePath,
      notes: [.init(versions.orderNote)])
  }

  /// What reversing the forward step `j → i` (`j < i`, inferred) drops of a store at `i`, named
  /// as `--allow-drop` names it (an entity, `Entity.property`), or nil with the reason it cannot
  /// be reversed automatically, for `mapc lint --reverse` and `mapc diff --reverse`.
  public static func reverseDrops(_ versions: ModelVersions, mappings: [ExplicitMapping] = [], from i: Int, to j: Int)
    -> Result<[String], ReverseRefusal>
  {
    let (step, diagnostics) = planReverseStep(versions: versions, mappings: mappings, from: i, to: j)
    guard let step else {
      let reasons = diagnostics.filter { $0.severity == .error }.map(\.message)
      return .failure(ReverseRefusal(reasons: reasons))
    }
    return .success(ChainCheck.dropped(StepAnalysis.analyze(step.plan), model: step.plan.sourceModel))
  }

  /// Why a step has no automatic reverse: the errors' messages, the last one saying the way out.
  public struct ReverseRefusal: Error, Sendable {
    public var reasons: [String]
  }
}
