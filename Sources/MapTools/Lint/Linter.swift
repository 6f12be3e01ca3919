import Foundation
import MapCompiler
import MapRuntime
import MapSyntax

/// Lints one mapping file: every compiler diagnostic, then every lint rule, then the file's
/// suppression comments.
public enum Linter {
  public static func lint(path: String) -> [LintFinding] { lintReadingModels(path: path).findings }

  /// `lint(path:)`, and the model files the mapping names (what it read besides itself).
  public static func lintReadingModels(path: String) -> (findings: [LintFinding], models: [String]) {
    let compiled = MappingCompilation.compile(mappingPath: path)
    let modelPaths = compiled.modelPaths(mapping: path, source: nil, destination: nil)
    var diagnostics = compiled.diagnostics
    if let document = compiled.document, let models = compiled.models {
      let context = LintContext(document: document, models: models)
      for check in LintRules.checks { diagnostics += check.findings(in: context) }
    }
    let lines = SourceLines()
    func finding(_ d: Diagnostic) -> LintFinding {
      LintFinding(diagnostic: d, sourceLine: d.location.flatMap { lines.line($0.line, of: $0.file) })
    }
    var findings = diagnostics.map(finding)
    if let document = compiled.document {
      let extra = SuppressionRules.apply(document.suppressions, to: &findings, file: document.path)
      findings += extra.map(finding)
    }
    return (sorted(findings), modelPaths)
  }

  /// By file, line, column, then rule id and message, so output never depends on rule order.
  static func sorted(_ findings: [LintFinding]) -> [LintFinding] {
    findings.sortedByPlace(
      { DiagnosticPlace(file: $0.file, $0.diagnostic.location) },
      tie: { ($0.ruleId, $0.diagnostic.message) < ($1.ruleId, $1.diagnostic.message) })
  }
}
