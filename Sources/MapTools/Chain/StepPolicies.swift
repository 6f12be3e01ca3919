import MapRuntime
import MapSyntax

/// The steps of a chain that name a custom policy class (an `NSEntityMigrationPolicy`
/// subclass) this executable does not have registered (`Specs/migrate.md` §3, §7). A run of
/// such a step stops with `run-unknown-policy` before anything is written; a plan (`mapc migrate
/// --plan`) and `mapc lint` of a bundle show every step and mark these with a warning each,
/// `chain-step-unknown-policy`.
public enum StepPolicies {
  /// The classes step `step` needs and this executable lacks, each once, in plan order.
  public static func missing(_ step: MigrationChain.Step) -> [String] {
    PolicyRegistry.missingClasses(step.plan).map(\.name)
  }

  /// One warning per missing class of each step, at the first entity mapping naming it.
  public static func warnings(_ steps: [MigrationChain.Step], names: [String]) -> [Diagnostic] {
    steps.flatMap { step in
      PolicyRegistry.missingClasses(step.plan).map { missing in
        let mappings = missing.mappings.joined(separator: ", ")
        let how = step.mappingPath.map { "mapping \($0)" } ?? "inferred"
        return Diagnostic.warning(
          "chain-step-unknown-policy",
          "the step '\(names[step.from])' → '\(names[step.to])' (\(how)) needs policy class \(missing.name) (entity mapping\(missing.mappings.count == 1 ? "" : "s") \(mappings)), which is not registered in this mapc: mapc migrate refuses to run the step, before anything is written (run-unknown-policy); run it with your app's executable, which registers its policies (PolicyRegistry.register)",
          at: missing.location, file: step.mappingPath)
      }
    }
  }
}
