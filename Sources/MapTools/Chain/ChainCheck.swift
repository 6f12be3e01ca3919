import MapRuntime
import MapSyntax

/// `mapc lint BUNDLE.xcdatamodeld MAPPINGS…`: checks the chain `mapc migrate` would take
/// through every version of the bundle (`Specs/migrate.md` §6).
public enum ChainCheck {
  public static func check(bundle: String, mappingPaths: [String], direct: Bool = false) -> [Diagnostic] {
    let versions: ModelVersions
    do {
      versions = try ModelVersions.load(bundle: bundle)
    } catch {
      return error.diagnostics
    }
    if direct { return checkDirect(versions, mappingPaths: mappingPaths) }
    let (mappings, found) = mappingPaths.isEmpty ? ([], []) : ExplicitMapping.find(in: mappingPaths, versions: versions)
    var diagnostics = found
    let names = versions.names
    // Every finding that depends on the order of the versions says which order was assumed.
    let order = [Diagnostic.Note(versions.orderNote)]
    for m in mappings {
      let at = m.location
      if m.sourceVersions.isEmpty || m.destinationVersions.isEmpty {
        let side = m.sourceVersions.isEmpty ? "source" : "destination"
        diagnostics.append(
          .error(
            "chain-mapping-unmatched",
            "the mapping's \(side) entity version hashes match no version of \(bundle) (Core Data would never use it); refresh it against the models or remove it",
            at: at, file: m.path))
      } else if m.steps.isEmpty && !m.isReverse {
        let backwards = m.sourceVersions.allSatisfy { s in m.destinationVersions.allSatisfy { $0 <= s } }
        let pairs = m.sourceVersions.flatMap { s in m.destinationVersions.map { "\(names[s]) → \(names[$0])" } }
        diagnostics.append(
          backwards
            ? .error(
              "chain-mapping-cycle",
              "the mapping goes backwards (\(pairs.joined(separator: ", "))) and would make a cycle; mapc migrate steps back one version at a time, with a mapping from a version to the one just before it",
              at: at, file: m.path, notes: order)
            : .warning(
              "chain-mapping-skips",
              "the mapping goes from \(pairs.joined(separator: ", ")), skipping versions; mapc migrate goes one version at a time and never uses it",
              at: at, file: m.path, notes: order))
      }
    }
    var uncovered: [Int] = []
    var steps: [MigrationChain.Step?] = []
    for i in versions.versions.indices.dropLast() {
      // A step between versions of equal hashes never runs, on a device or in mapc migrate.
      if MigrationChain.isCompatible(versions, i, i + 1) {
        steps.append(nil)
        for m in mappings where m.covers(i, i + 1) {
          diagnostics.append(
            .warning(
              "chain-mapping-never-runs",
              "the mapping is for the step '\(names[i])' → '\(names[i + 1])', whose versions have the same entity version hashes: Core Data opens a store of '\(names[i])' with '\(names[i + 1])' without migrating, so it never runs on a device (nor in mapc migrate); to make it run, set a Hash Modifier (versionHashModifier) on each entity that changed",
              at: m.location, file: m.path, notes: order))
        }
        continue
      }
      let (step, problems) = MigrationChain.planStep(versions: versions, mappings: mappings, from: i)
      steps.append(step)
      if step == nil {
        uncovered.append(i)
        diagnostics += problems
      }
    }
    // A version is unreachable from… rather: the target cannot be reached from it when a step
    // at or after it (and before the current version) fails.
    if let last = uncovered.filter({ $0 < versions.current }).max() {
      let stranded = names[...last].map { "'\($0)'" }.joined(separator: ", ")
      diagnostics.append(
        .error(
          "chain-unreachable-version",
          "stores at \(stranded) cannot be migrated to the current version '\(names[versions.current])': the step '\(names[last])' → '\(names[last + 1])' is neither covered by a mapping nor inferable",
          at: nil, file: bundle, notes: order))
    }
    return diagnostics + history(versions, steps: steps) + StepPolicies.warnings(steps.compactMap { $0 }, names: names)
  }
}

extension ChainCheck {
  /// `mapc lint --direct`: the one step `mapc migrate --direct` (and Core Data's automatic
  /// migration) takes from every version to the current one, each a mapping whose hashes fit
  /// both or inferred: `chain-step-uncovered` with its `infer-*` errors for one neither covers,
  /// `chain-step-drops-data` for an inferred one that drops data. A version whose hashes are the
  /// current one's needs no step.
  static func checkDirect(_ versions: ModelVersions, mappingPaths: [String]) -> [Diagnostic] {
    let (mappings, found) = mappingPaths.isEmpty ? ([], []) : ExplicitMapping.find(in: mappingPaths, versions: versions)
    var diagnostics = found
    let names = versions.names
    let target = versions.current
    let bundle = versions.bundlePath
    for i in 0..<target where !MigrationChain.isCompatible(versions, i, target) {
      let (step, problems) = MigrationChain.planStep(versions: versions, mappings: mappings, from: i, to: target)
      guard let step else {
        diagnostics += problems
        continue
      }
      guard step.mappingPath == nil else { continue }
      let lost = dropped(StepAnalysis.analyze(step.plan), model: step.plan.sourceModel)
      if lost.isEmpty { continue }
      diagnostics.append(
        .warning(
          "chain-step-drops-data",
          "the direct step '\(names[i])' → '\(names[target])' (inferred, as Core Data's automatic migration) drops \(lost.joined(separator: ", ")): a store at '\(names[i])' loses them; if they were renamed, give the new ones renaming identifiers, else add a mapping for the pair to the mappings, or accept the loss when migrating (--allow-drop)",
          at: nil, file: bundle))
    }
    return diagnostics
  }

  /// True for a path `mapc lint` treats as a model bundle to check chains of.
  public static func isBundle(_ path: String) -> Bool {
    path.hasSuffix(".xcdatamodeld") || path.hasSuffix(".xcdatamodeld/")
  }

  /// The chain checks of each bundle as lint findings, added to `report` and sorted with it.
  /// With `reverse`, each step's reversal too (`reverseNotes`).
  public static func add(
    bundles: [String], mappingPaths: [String], direct: Bool = false, reverse: Bool = false, to report: inout LintReport
  ) {
    let lines = SourceLines()
    for bundle in bundles {
      let reversal = reverse ? reverseNotes(bundle: bundle, mappingPaths: mappingPaths) : []
      report.findings += (check(bundle: bundle, mappingPaths: mappingPaths, direct: direct) + reversal).map { d in
        LintFinding(diagnostic: d, sourceLine: d.location.flatMap { lines.line($0.line, of: $0.file) })
      }
    }
    report.findings = Linter.sorted(report.findings)
  }
}
