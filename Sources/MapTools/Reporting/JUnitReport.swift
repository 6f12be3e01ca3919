import MapRuntime
import MapSyntax

/// `mapc test --junit FILE`: the results as JUnit XML, in the strictest common form (the Apache
/// Ant schema, `Tests/TestData/junit/JUnit.xsd`), so Jenkins, GitLab and GitHub's reporters all
/// read it: one `testsuite` per fixture, one `testcase` per case.
public enum JUnitReport {
  /// The document. `timestamp` is `YYYY-MM-DDTHH:MM:SS` (UTC, no zone, as the schema wants).
  public static func render(_ results: [FixtureResult], timestamp: String, hostname: String) -> String {
    var suites: [(String, [FixtureResult])] = []
    for r in results {
      if let last = suites.last, last.1[0].fixtureIndex == r.fixtureIndex {
        suites[suites.count - 1].1.append(r)
      } else {
        suites.append((r.suite, [r]))
      }
    }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
    for (id, (suite, cases)) in suites.enumerated() {
      let failures = cases.filter { if case .failed = $0.outcome { return true } else { return false } }.count
      let skipped = cases.filter { if case .skipped = $0.outcome { return true } else { return false } }.count
      let time = cases.reduce(0) { $0 + $1.seconds }
      out +=
        "  <testsuite name=\(attribute(suite)) package=\(attribute(suite)) id=\"\(id)\" timestamp=\"\(timestamp)\""
        + " hostname=\(attribute(hostname)) tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\""
        + " skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
      // Where the fixture and its cases are in the whole run: what `--merge-junit` puts the
      // reports of shards back in order by (JUnitMerge).
      out += "    <properties>\n"
      out += "      <property name=\"\(fixtureProperty)\" value=\"\(cases[0].fixtureIndex)\"/>\n"
      let indices = cases.map { String($0.caseIndex) }.joined(separator: ",")
      out += "      <property name=\"\(casesProperty)\" value=\"\(indices)\"/>\n"
      if let known = cases[0].knownIssue {
        out += "      <property name=\"\(knownIssueProperty)\" value=\(attribute(known))/>\n"
      }
      out += "    </properties>\n"
      for c in cases {
        out += "    <testcase name=\(attribute(c.name)) classname=\(attribute(suite)) time=\"\(seconds(c.seconds))\""
        switch c.outcome {
        case .passed, .updated:
          out += "/>\n"
        case .skipped(let why):
          out += ">\n      <skipped message=\(attribute(why))/>\n    </testcase>\n"
        case .failed(let reasons):
          let message = (c.knownIssue.map { "known issue: \($0); " } ?? "") + (reasons.first ?? "failed")
          out += ">\n      <failure message=\(attribute(message)) type=\"mapc-test\">"
          out += text(reasons.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
        }
      }
      out += "    <system-out></system-out>\n    <system-err></system-err>\n  </testsuite>\n"
    }
    return out + "</testsuites>\n"
  }

  static let fixtureProperty = "mapc.fixture"
  static let casesProperty = "mapc.cases"
  static let knownIssueProperty = "mapc.knownIssue"

  static func seconds(_ s: Double) -> String {
    let ms = Int((s * 1000).rounded())
    let frac = String(ms % 1000)
    return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
  }

  /// Text content (XMLEscaping, with what XML 1.0 cannot hold shown as `\u{…}`).
  static func text(_ s: String) -> String { XMLEscaping.content(s, unholdable: .shown) }

  /// A quoted attribute value; new lines and tabs as character references, so they survive
  /// attribute normalisation.
  static func attribute(_ s: String) -> String { "\"" + XMLEscaping.attribute(s, unholdable: .shown) + "\"" }
}
