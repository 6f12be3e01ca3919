import Foundation
import MapTestSupport
import MapTools
import Testing

/// `Specs/lint-rules.md` holds every rule of the catalogue exactly as the catalogue says it
/// (`--explain` and SARIF help use the same text).
@Suite struct LintSpecTests {
  static let specPath = SharedPaths.packageRoot.appendingPathComponent("Specs/lint-rules.md").path
  static var generated: String { LintRules.all.map(LintRuleDocs.markdown).joined() }

  @Test func specListsEveryRuleAsTheCatalogueDoes() throws {
    let stale = try GeneratedSections.stale("Specs/lint-rules.md", [("LintRules.all", Self.generated)])
    #expect(stale.isEmpty, "\(GeneratedSections.advice("Specs/lint-rules.md", stale))")
    let text = try String(contentsOfFile: Self.specPath, encoding: .utf8)
    let section = try #require(GeneratedSections.section("LintRules.all", in: text))
    for rule in LintRules.all {
      #expect(section.contains("### `\(rule.id)`"))
      #expect(section.contains("- Severity: **\(rule.severity.rawValue)**"))
    }
  }
}
