import MapRuntime
import MapSyntax

/// `mapc test --merge-junit OUT IN…`: the JUnit reports of the shards of one run (`--shard K/N`)
/// merged into the report an unsharded run writes, times apart: suites and cases back in the
/// run's order by the `mapc.fixture` and `mapc.cases` properties each suite carries
/// (`JUnitReport`), the timestamp and host of the first report. A report mapc did not write, or
/// two that hold one case, is an error naming the file.
public enum JUnitMerge {
  public static func merge(_ paths: [String]) throws(DiagnosticsError) -> String {
    var results: [FixtureResult] = []
    var seen = Set<[Int]>()
    var stamp: (String, String)? = nil
    for path in paths {
      let document = try XMLReader.parse(contentsOf: path)
      func invalid(_ message: String, _ at: SourceLocation?) -> DiagnosticsError {
        DiagnosticsError([.error("test-junit-invalid", message, at: at, file: path)])
      }
      guard document.root.name == "testsuites" else {
        throw invalid("not a JUnit report of mapc test (its root is <\(document.root.name)>)", document.root.location)
      }
      for suite in document.root.elements(named: "testsuite") {
        if stamp == nil { stamp = (suite[attribute: "timestamp"] ?? "", suite[attribute: "hostname"] ?? "") }
        var properties: [String: String] = [:]
        for p in suite.firstElement(named: "properties")?.elements(named: "property") ?? [] {
          if let name = p[attribute: "name"] { properties[name] = p[attribute: "value"] ?? "" }
        }
        let cases = suite.elements(named: "testcase")
        guard let fixture = properties[JUnitReport.fixtureProperty].flatMap(Int.init),
          let indices = properties[JUnitReport.casesProperty].map({ $0.split(separator: ",").compactMap { Int($0) } }),
          indices.count == cases.count
        else {
          throw invalid(
            "a test suite without the mapc.fixture and mapc.cases properties mapc test writes (not its report, or an older one)",
            suite.location)
        }
        for (c, index) in zip(cases, indices) {
          guard seen.insert([fixture, index]).inserted else {
            throw invalid(
              "the case \(c[attribute: "name"] ?? "") is in two of the reports (overlapping shards)", c.location)
          }
          results.append(
            result(
              c, suite: suite[attribute: "name"] ?? "", fixture: fixture, index: index,
              knownIssue: properties[JUnitReport.knownIssueProperty]))
        }
      }
    }
    results.sort { ($0.fixtureIndex, $0.caseIndex) < ($1.fixtureIndex, $1.caseIndex) }
    return JUnitReport.render(results, timestamp: stamp?.0 ?? "", hostname: stamp?.1 ?? "localhost")
  }

  static func result(_ c: XML.Element, suite: String, fixture: Int, index: Int, knownIssue: String?) -> FixtureResult {
    let outcome: FixtureResult.Outcome
    if let skipped = c.firstElement(named: "skipped") {
      outcome = .skipped(skipped[attribute: "message"] ?? "")
    } else if let failure = c.firstElement(named: "failure") {
      outcome = .failed(failure.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    } else {
      outcome = .passed
    }
    return FixtureResult(
      suite: suite, name: c[attribute: "name"] ?? "", outcome: outcome,
      seconds: Double(c[attribute: "time"] ?? "") ?? 0,
      knownIssue: knownIssue, fixtureIndex: fixture, caseIndex: index)
  }
}
