// The diagnostic ids of the command line: pictures drawn with Graphviz and command lines that cannot be run.
// Each id with what it reports, listed here only; `Specs/diagnostics.md` §3 is generated from
// every module's (MapcCatalogue, in MapcCLI).
import MapRuntime

/// The diagnostic families the command line reports (ids are stable: once published, an id keeps
/// its meaning).
public enum CommandCatalogue {
  public static let diagram = DiagnosticCatalogue.Family(
    "`diagram-*`: pictures (`mapc diff`, `mapc dump` with `--format svg` or `html`)",
    [
      ("diagram-dot-missing", "Graphviz's `dot`, which lays out SVG and HTML pictures, is not installed"),
      ("diagram-dot-failed", "`dot` could not be run or failed (its message)"),
    ])

  public static let usage = DiagnosticCatalogue.Family(
    "`usage-*`: command lines that cannot be run (exit 64)",
    [
      (
        "usage-path-not-found",
        "a mapping file or folder given to `lint` or `migrate --mappings`, or a path given to `test`, does not exist"
      ),
      ("usage-no-fixtures", "`test` was given paths that hold no `fixture.json`"),
      ("usage-lock-without-bundle", "`lint --lock` without a model bundle among the paths"),
      ("usage-no-mapping-files", "`lint` was given folders that hold no mapping file"),
      ("usage-unknown-rule", "`lint --explain` of a rule id that does not exist (the nearest ids are named)"),
      ("usage-baseline", "a `lint --baseline` file that cannot be read or is not a baseline"),
      ("usage-model-output", "`model -o X.xcdatamodel` of a Swift schema with more than one version"),
      (
        "usage-output-outside",
        "`migrate --stores GLOB`: a store whose path has `..`, so that its output would leave the output folder"
      ),
    ])
}
