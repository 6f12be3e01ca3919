import Foundation
import MapCompiler
import MapTestSupport
import Testing

/// `Specs/lint-rules.md` holds every rule of the catalogue exactly as the catalogue says it
/// (`--explain` and SARIF help use the same text).
@Suite struct LintSpecTests {
  static let specPath = SharedPaths.packageRoot.appendingPathComponent("Specs/lint-rules.md").path
  static let begin = "<!-- BEGIN RULES"
  static let end = "<!-- END RULES -->"

  static var generated: String { LintRules.all.map(LintRuleDocs.markdown).joined() }

  @Test func specListsEveryRuleAsTheCatalogueDoes() throws {
    var text = try String(contentsOfFile: Self.specPath, encoding: .utf8)
    let start = try #require(text.range(of: Self.begin))
    let stop = try #require(text.range(of: Self.end))
    let lineEnd = try #require(text[start.upperBound...].firstIndex(of: "\n"))
    let section = String(text[text.index(after: lineEnd)..<stop.lowerBound])
    if ProcessInfo.processInfo.environment["MAPC_WRITE_LINT_SPEC"] == "1" {
      text.replaceSubrange(text.index(after: lineEnd)..<stop.lowerBound, with: Self.generated)
      try text.write(toFile: Self.specPath, atomically: false, encoding: .utf8)
      return
    }
    #expect(
      section == Self.generated,
      "Specs/lint-rules.md is out of date: run MAPC_WRITE_LINT_SPEC=1 swift test --filter LintSpecTests")
    for rule in LintRules.all {
      #expect(section.contains("### `\(rule.id)`"))
      #expect(section.contains("- Severity: **\(rule.severity.rawValue)**"))
    }
  }
}
