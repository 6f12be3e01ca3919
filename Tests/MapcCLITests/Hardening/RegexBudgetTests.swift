import Foundation
import MapTestSupport
import Testing

/// A pattern that stays under the per-match limit (0.25 s) on every object still cannot make a
/// run last hours: all matches of a command share a budget (`--regex-budget`, default 60 s).
/// `".*.*.*x"` against 250 `a`s backtracks about 0.03–0.1 s (cubic in the length) and never
/// matches; 200 such objects would take 6–20 s, 10,000 of them 5–15 minutes.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct RegexBudgetTests {
  static let pattern = ".*.*.*x"
  static let slow = String(repeating: "a", count: 250)

  @Test func runStopsAtTheBudget() throws {
    let people = (1...200).map { #"{"id": "p\#($0)", "name": "\#(Self.slow)"}"# }.joined(separator: ", ")
    let dir = try Hardening.folder(
      "regex-budget",
      mapping: Hardening.mapping(label: #"TERNARY($source.name MATCHES "\#(Self.pattern)", "yes", "no")"#),
      store: #"{"objects": {"Person": [\#(people)], "Pet": []}}"#)
    defer { try? FileManager.default.removeItem(at: dir) }
    let plan = dir.appendingPathComponent("m.cdm").path
    let compiled = runMapc(["compile", dir.appendingPathComponent("m.xml").path, "-o", plan])
    try #require(compiled.exitCode == 0, "\(compiled.stderr)")
    let out = dir.appendingPathComponent("out.json").path
    let start = Date()
    let r = runMapc([
      "run", plan, "--store", dir.appendingPathComponent("s.json").path, "--output", out, "--regex-budget", "1",
    ])
    let seconds = Date().timeIntervalSince(start)
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("regular expressions have taken more than the run's budget of 1.0 s"), "\(r.stderr)")
    #expect(r.stderr.contains("the last pattern was \"\(Self.pattern)\""), "\(r.stderr)")
    #expect(r.stderr.contains("[run-regex-budget]"), "\(r.stderr)")
    #expect(seconds < 10, "took \(seconds) s")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func evalStopsAtTheBudget() throws {
    let strings = "[" + Array(repeating: "\"\(Self.slow)\"", count: 200).joined(separator: ",") + "]"
    let start = Date()
    let r = runMapc([
      "eval", "--predicate", "SELF MATCHES \"\(Self.pattern)\"", "--filter", "--object", strings,
      "--regex-budget", "0.5",
    ])
    let seconds = Date().timeIntervalSince(start)
    #expect(r.exitCode == 1, "\(r.stderr)")
    #expect(r.stderr.contains("[run-regex-budget]") && r.stderr.contains(Self.pattern), "\(r.stderr)")
    #expect(seconds < 10, "took \(seconds) s")
    // Under the budget the same patterns run to the end.
    let few = runMapc([
      "eval", "--predicate", "SELF MATCHES \"\(Self.pattern)\"", "--filter", "--object", "[\"\(Self.slow)\"]",
      "--regex-budget", "30",
    ])
    #expect(few.exitCode == 0 && few.stdout == "[]\n", "\(few.stdout) \(few.stderr)")
  }

  @Test func budgetMustBePositive() {
    for bad in ["0", "-1", "nan", "inf"] {
      let r = runMapc(["eval", "--expression", "1", "--regex-budget", bad])
      #expect(r.exitCode == 64, "\(bad): \(r.stderr)")
      #expect(r.stderr.contains("--regex-budget"), "\(bad): \(r.stderr)")
    }
  }
}
