import ArgumentParser
import MapRuntime

/// `--regex-budget SECONDS`: how long all `MATCHES` and validation patterns of one command may
/// take together (`mapc run`, `mapc migrate`, `mapc eval`; `Specs/limits.md`). Past it the
/// command stops with `run-regex-budget`, naming the pattern.
struct RegexBudgetOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Seconds all regular-expression matches may take together (default \(Int(RegexCache.defaultBudget))).",
      valueName: "SECONDS"))
  var regexBudget: Double?

  func validate() throws {
    if let regexBudget, !(regexBudget.isFinite && regexBudget > 0) {
      throw ValidationError("--regex-budget must be a number of seconds above 0")
    }
  }

  /// Sets the budget of this process.
  func apply() {
    if let regexBudget { RegexCache.shared.budget = regexBudget }
  }
}
