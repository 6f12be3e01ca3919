import Foundation
import MapRuntime
import MapTools
import Testing

/// Every rule's bad example gives exactly the findings its markers show (rule id, file, line
/// and column) and nothing else; every good example gives none.
@Suite struct LintRuleExampleTests {
  @Test(arguments: LintRules.all.map(\.id))
  func badExampleTriggersExactlyTheMarkedFindings(_ id: String) throws {
    let rule = try #require(LintRules.rule(id))
    let (folder, findings) = try lintExample(rule.bad)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let active = findings.filter(\.isActive)
    var expected: [String] = []
    for p in rule.bad.expectedMappingPositions { expected.append("\(id) \(rule.bad.fileName):\(p.line):\(p.column)") }
    for p in rule.bad.expectedBaselinePositions {
      expected.append("\(id) \(LintExample.baselineFileName):\(p.line):\(p.column)")
    }
    #expect(!expected.isEmpty, "the bad example of \(id) marks no finding")
    let actual = active.map { f in
      "\(f.ruleId) \(((f.file ?? "") as NSString).lastPathComponent):\(f.diagnostic.location?.line ?? 0):\(f.diagnostic.location?.column ?? 0)"
    }
    #expect(actual == expected, "\(active.map(\.diagnostic.description))")
    for f in active { #expect(f.severity == rule.severity) }
  }

  @Test(arguments: LintRules.all.map(\.id))
  func goodExampleIsClean(_ id: String) throws {
    let rule = try #require(LintRules.rule(id))
    let (folder, findings) = try lintExample(rule.good)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(findings.filter(\.isActive).isEmpty, "\(findings.filter(\.isActive).map(\.diagnostic.description))")
    #expect(rule.good.expectedMappingPositions.isEmpty && rule.good.expectedBaselinePositions.isEmpty)
  }

  @Test func catalogueIdsAreUniqueStableAndComplete() {
    let ids = LintRules.ids
    #expect(Set(ids).count == ids.count)
    // The pitfalls the linter promises (issue 5), by id.
    for id in [
      "lint-mandatory-attribute-unmapped", "lint-optional-into-mandatory", "lint-inverse-unmapped",
      "lint-destination-entity-unproduced", "lint-source-entity-unread", "map-copy-hash-mismatch",
      "lint-policy-without-module", "lint-unknown-policy-selector", "map-pinned-hash-mismatch",
      "lint-narrowing-conversion", "map-to-many-into-to-one", "lint-implicit-to-many-into-to-one",
      "lint-unused-entity-mapping", "lint-unused-suppression", "lint-suppression-without-reason",
      "lint-unused-baseline-entry", "xcmap-model-drift",
    ] {
      #expect(ids.contains(id), "\(id) is missing from the catalogue")
    }
    for rule in LintRules.all {
      #expect(
        rule.origin == .lint ? rule.id.hasPrefix("lint-") : (rule.id.hasPrefix("map-") || rule.id.hasPrefix("xcmap-")))
      #expect(!rule.title.isEmpty && rule.explanation.count > 200 && !rule.explanation.contains("\n"))
    }
  }
}
