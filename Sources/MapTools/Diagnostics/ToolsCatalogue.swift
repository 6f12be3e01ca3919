// The diagnostic ids of MapTools: locks, fixtures, inference and chains, stages.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families MapTools reports (ids are stable: once published, an id keeps
/// its meaning).
public enum ToolsCatalogue {
  public static let lock = DiagnosticCatalogue.Family(
    "`lock-*`: model locks (`mapc lock`, `mapc lint --lock`; `Specs/model-lock.md`)",
    [
      ("lock-invalid", "a lock file that cannot be read or is not a mapc model lock"),
      (
        "lock-version-changed",
        "a locked (shipped) version hashes differently now: names the entity and the properties added, removed or changed"
      ),
      ("lock-version-removed", "a locked (shipped) version is no longer in the bundle"),
      ("lock-version-not-shipped", "note: a version of the bundle that the lock does not hold yet"),
    ])

  public static let test = DiagnosticCatalogue.Family(
    "`test-*`: fixture files of `mapc test` (`Specs/test-fixtures.md`)",
    [
      (
        "test-fixture-invalid",
        "a `fixture.json` that is not JSON or not in the format (unknown key, no cases, a case with both or neither of `expected` and `exitCode`)"
      ),
      (
        "test-junit-invalid",
        "`--merge-junit`: a report that is not one `mapc test` wrote, or a case two reports hold (overlapping shards)"
      ),
    ])

  public static let infer = DiagnosticCatalogue.Family(
    "`infer-*`, `chain-*`, `migrate-*`: inferred mappings and `mapc migrate` (`Specs/migrate.md`)",
    [
      ("infer-type-change", "an attribute changes type other than between numbers and Booleans"),
      (
        "infer-mandatory-without-default",
        "a value becomes (or is new and) mandatory with no default; a new mandatory to-one, or to-many with a minimum"
      ),
      ("infer-to-many-into-to-one", "a to-many relationship becomes to-one"),
      ("infer-relationship", "a relationship's destination entity has no or another counterpart"),
      ("infer-duplicate-renaming-id", "two destination entities share a renaming identifier"),
      (
        "infer-ambiguous-match",
        "a renaming identifier designates several source elements, or two entities take one source entity"
      ),
      ("infer-merged-hierarchy", "entities without a common parent in the source share one in the destination"),
      ("infer-abstract-destination", "a concrete source entity's counterpart is abstract"),
      ("chain-duplicate-mapping", "two mappings cover the same step"),
      ("chain-step-uncovered", "a step no mapping covers and inference cannot"),
      (
        "chain-step-irreversible",
        "a step back that has no reverse mapping and cannot be inferred (its forward step is a mapping's, or not inferable)"
      ),
      ("chain-step-reversible", "a step mapc migrate can take back without loss (lint --reverse, a note)"),
      ("chain-reverse-drops-data", "what taking a step back drops, named (lint --reverse, a note)"),
      ("chain-unreachable-version", "versions whose stores cannot reach the current version (lint)"),
      ("chain-mapping-cycle", "a mapping from a later version to an earlier one other than the one before it (lint)"),
      ("chain-mapping-skips", "a mapping that skips versions (lint, warning)"),
      ("chain-mapping-unmatched", "a mapping whose hashes match no version of the bundle (lint)"),
      (
        "chain-mapping-never-runs",
        "a mapping for a step between versions of equal hashes, which Core Data never runs (lint, warning)"
      ),
      (
        "chain-renaming-identifier-unmatched",
        "a renaming identifier that names nothing in the version before (lint, warning)"
      ),
      (
        "infer-renaming-identifier-unmatched",
        "a renaming identifier naming nothing in the source; matched by name instead (warning)"
      ),
      ("chain-mappings", "the mappings folder cannot be searched"),
      (
        "chain-step-drops-data",
        "an inferred step that drops entities, attributes or relationships (no store needed: from the plan; lint, warning)"
      ),
      (
        "chain-version-unchanged",
        "a version with the same entity version hashes as the one before it: Core Data does not see it as new, a forgotten versionHashModifier (lint, warning)"
      ),
      (
        "chain-identical-versions",
        "two versions, not consecutive, with the same entity version hashes: their stores cannot be told apart (lint, warning)"
      ),
      (
        "chain-step-unknown-policy",
        "a step whose mapping names a policy class this executable does not have registered: shown by `mapc migrate --plan` and `mapc lint` of a bundle, which go on (a warning); a run refuses the step with the error `run-unknown-policy`"
      ),
      (
        "migrate-unknown-version",
        "the store records no hashes, or they match no version (names the closest and the differing entities)"
      ),
      (
        "migrate-resume-untrusted",
        "an intermediate store of an interrupted run whose bytes differ from the digest recorded when it was written (warning; the chain starts over from the store)"
      ),
      (
        "migrate-data-loss",
        "a step (`mapc migrate`) or plan (`mapc run`) would drop objects, values or links the store holds, without `--allow-data-loss`, `--allow-drop` or a `remove` entity mapping"
      ),
      (
        "migrate-manifest-invalid",
        "`migrate --stores`: a manifest line that is not JSON or not in the format, or whose output resolves outside the manifest's folder (names the line and column)"
      ),
    ])

  public static let stages = DiagnosticCatalogue.Family(
    "`stages-*`: `mapc export --stages`, staged migrations for the device (`Specs/staged-migration.md`)",
    [
      (
        "stages-mapping-step",
        "a step a mapping model covers: a staged migration never runs mapping models or migration policies (names the step and the way out)"
      ),
      (
        "stages-step-not-inferable",
        "a step Core Data cannot infer (the `infer-*` errors say why): no stage can take it (names the step and the way out)"
      ),
      (
        "stages-unknown-version",
        "`--custom` or `--to` names no version of the bundle, or a version no step leads to"
      ),
      (
        "stages-direct-inference",
        "a version Core Data could not infer straight to the end of its lightweight stage without losing what the steps keep: a custom stage without handlers makes the store stop after it (note)"
      ),
    ])
}
