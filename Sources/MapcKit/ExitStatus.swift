/// The exit codes of every `mapc` command (`Specs/diagnostics.md` §2 is generated from this).
public enum ExitStatus: Int32, CaseIterable, Sendable {
  case success = 0
  case inputErrors = 1
  case runFailed = 2
  case usage = 64

  /// When a command exits with this code.
  public var meaning: String {
    switch self {
    case .success: "success (warnings may have been printed)"
    case .inputErrors:
      "errors in the user's input: mapping, models, an expression, or a plan `mapc dump` cannot read; a file mapc was asked to write could not be written; a `mapc store check` finding at error or warning level, or one `mapc store repair` has no repair for"
    case .runFailed:
      "a run failed: store errors, plan errors in `mapc run`, migration or validation errors, a step or a store repair that would lose data without consent (`migrate-data-loss`, `check-repair-refused`); nothing was written and the input store is untouched"
    case .usage:
      "usage error (unknown option, missing argument, an output path that would write over an input or another output, or that is the wrong kind of file: `io-output-is-input`, §4)"
    }
  }

  /// The Markdown table of `Specs/diagnostics.md` §2.
  public static var specTable: String {
    "| exit code | when |\n|---|---|\n" + allCases.map { "| \($0.rawValue) | \($0.meaning) |\n" }.joined()
  }
}
