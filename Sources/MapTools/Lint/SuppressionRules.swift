import MapCompiler
import MapRuntime
import MapSyntax

/// `<!-- mapc-lint-disable RULE[, RULE…]: reason -->` comments: applying them, and the two rules
/// about the comments themselves.
enum SuppressionRules {
  static let person = DestinationEntityUnproduced.person
  static let mandatoryName = OptionalIntoMandatory.mandatoryName

  static let unused = LintRule(
    id: "lint-unused-suppression", severity: .warning,
    title: "A suppression comment that suppresses nothing",
    explanation: """
      A mapc-lint-disable comment whose rule reports nothing on the element it is attached to \
      is stale (the problem was fixed, or the comment sits on the wrong element) or misspelt. \
      Left in place, it would silently hide the problem if it came back. Remove the comment, \
      or move it to the element the finding points at. Compiler errors cannot be suppressed, \
      so a comment naming one is reported here too.
      """,
    suppression: "remove or move the comment",
    bad: LintExample(
      source: person, destination: person,
      mapping: exampleMapping(
        """
          ‸<!-- mapc-lint-disable lint-optional-into-mandatory: every person has a name -->
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="name">$source.name</attribute>
          </entityMapping>
        """)),
    good: LintExample(
      source: person, destination: mandatoryName,
      mapping: exampleMapping(
        """
          <!-- mapc-lint-disable lint-optional-into-mandatory: every person has a name -->
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="name">$source.name</attribute>
          </entityMapping>
        """)))

  static let reason = LintRule(
    id: "lint-suppression-without-reason", severity: .warning,
    title: "A suppression comment without a reason",
    explanation: """
      A suppression is a decision that a finding is safe here; the next reader needs to know \
      why. Write the reason after a colon: <!-- mapc-lint-disable RULE: why this is safe -->. \
      The suppression still works without one.
      """,
    suppression: "give the reason",
    bad: LintExample(
      source: person, destination: mandatoryName,
      mapping: exampleMapping(
        """
          ‸<!-- mapc-lint-disable lint-optional-into-mandatory -->
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="name">$source.name</attribute>
          </entityMapping>
        """)),
    good: LintExample(
      source: person, destination: mandatoryName,
      mapping: exampleMapping(
        """
          <!-- mapc-lint-disable lint-optional-into-mandatory: version 1 required a name in the UI -->
          <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
            <attribute name="name">$source.name</attribute>
          </entityMapping>
        """)))

  /// Marks the findings that comments suppress, and reports comments that suppress nothing or
  /// give no reason.
  static func apply(_ suppressions: [Suppression], to findings: inout [LintFinding], file: String) -> [Diagnostic] {
    var used = Set<[Int]>()
    var onlyErrors = Set<[Int]>()
    for i in findings.indices {
      let d = findings[i].diagnostic
      let line: Int
      if let l = d.location, l.file == file {
        line = l.line
      } else if d.location == nil, d.file == file {
        line = Int.max  // file-level: only a comment before the root element covers it
      } else {
        continue
      }
      for (si, s) in suppressions.enumerated() where s.scope.contains(line) {
        for (ri, rule) in s.rules.enumerated() where rule == d.id {
          if findings[i].isCompileError {
            onlyErrors.insert([si, ri])
            continue
          }
          used.insert([si, ri])
          if findings[i].status == .active { findings[i].status = .suppressed(reason: s.reason) }
        }
      }
    }
    var result: [Diagnostic] = []
    for (si, s) in suppressions.enumerated() {
      if s.rules.isEmpty {
        result.append(
          unused.finding(
            "this mapc-lint-disable comment names no rule; write <!-- mapc-lint-disable RULE: reason -->",
            at: s.location))
        continue
      }
      for (ri, rule) in s.rules.enumerated() where !used.contains([si, ri]) {
        let message: String
        if onlyErrors.contains([si, ri]) {
          message =
            "\(rule) is a compiler error here, and compiler errors cannot be suppressed (mapc compile would still fail); fix the mapping and remove the comment"
        } else if rule.hasPrefix("lint-"), LintRules.rule(rule) == nil {
          message =
            "suppression names no known rule \(rule)\(suggestion(rule, LintRules.ids)); mapc lint --list-rules lists them"
        } else {
          message =
            "suppression of \(rule) suppresses nothing on the element it is attached to; remove it, or move it before the element the finding points at"
        }
        result.append(unused.finding(message, at: s.location))
      }
      if s.reason.isEmpty {
        result.append(
          reason.finding(
            "suppression of \(s.rules.joined(separator: ", ")) gives no reason; write <!-- mapc-lint-disable \(s.rules.joined(separator: ", ")): why this is safe -->",
            at: s.location))
      }
    }
    return result
  }
}
