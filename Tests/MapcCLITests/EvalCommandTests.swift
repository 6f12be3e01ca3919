import Foundation
import MapTestSupport
import Testing

/// `mapc eval`: output, exit codes, and hostile input answered within a second.
@Suite(.enabled(if: mapcExecutableProblem == nil)) struct EvalCommandTests {
  @Test func printsValuesAndPredicates() {
    #expect(runMapc(["eval", "--expression", "7 / 2"]).stdout == "3\n")
    #expect(
      runMapc(["eval", "--expression", "uppercase:(name)", "--object", #"{"name": "straße"}"#]).stdout
        == "\"STRASSE\"\n")
    #expect(runMapc(["eval", "--predicate", "$x > 1", "--variables", #"{"x": 2}"#]).stdout == "true\n")
    #expect(
      runMapc(["eval", "--predicate", "age > 30", "--filter", "--object", #"[{"age": 20}, {"age": 40}]"#]).stdout
        == "[{\"age\":40}]\n")
  }

  /// The issue's example: Apple's predicateFormat of `SELF like[c] 'a*'`.
  @Test func canonicalPrintsAppleFormat() {
    #expect(
      runMapc(["eval", "--predicate", "SELF like[c] 'a*'", "--canonical"]).stdout == "\"SELF LIKE[c] \\\"a*\\\"\"\n")
  }

  /// Dates and sets in --object (issue 30): {"$date": ISO 8601 text or seconds since 2001} and
  /// {"$set": […]}, so `now()` and `CAST(…, "NSDate")` comparisons can be tried. Expected values
  /// by hand: CAST(-1, "NSDate") is one second before 2001-01-01T00:00:00Z.
  @Test func datesAndSetsInObjects() {
    let old = #"{"created": {"$date": "2000-12-31T23:59:59Z"}}"#
    #expect(runMapc(["eval", "--predicate", "created < now()", "--object", old]).stdout == "true\n")
    #expect(runMapc(["eval", "--predicate", #"created < CAST(0, "NSDate")"#, "--object", old]).stdout == "true\n")
    #expect(runMapc(["eval", "--predicate", #"created == CAST(-1, "NSDate")"#, "--object", old]).stdout == "true\n")
    #expect(
      runMapc(["eval", "--expression", "created", "--object", #"{"created": {"$date": 0}}"#]).stdout
        == "\"2001-01-01T00:00:00Z\"\n")
    let bad = runMapc(["eval", "--expression", "1", "--object", #"{"$date": "2001-02-30T00:00:00Z"}"#])
    #expect(bad.exitCode == 64 && bad.stderr.contains("February 2001 has 28 days"))
    #expect(runMapc(["eval", "--expression", "s.@count", "--object", #"{"s": {"$set": [1, 1, 2]}}"#]).stdout == "2\n")
  }

  @Test func errorsAndExitCodes() {
    let syntax = runMapc(["eval", "--expression", "1 +"])
    #expect(syntax.exitCode == 1)
    #expect(syntax.stderr.contains("<format>:1:4: error:") && syntax.stderr.contains("[expr-syntax]"))
    let runtime = runMapc(["eval", "--predicate", "name BEGINSWITH 1", "--object", #"{"name": "a"}"#])
    #expect(runtime.exitCode == 1)
    #expect(runtime.stderr.contains("[run-type-mismatch]"))
    #expect(runMapc(["eval", "--predicate", "--expression", "1"]).exitCode == 64)
    #expect(runMapc(["eval", "--expression", "1", "--object", "{"]).exitCode == 64)
    #expect(runMapc(["eval", "--expression", "1", "--filter"]).exitCode == 64)
  }

  struct Outcome {
    var exitCode: Int32
    var stdout: String
    var stderr: String
  }

  static func timed(_ arguments: [String], stdin: String? = nil) -> (Outcome, Double) {
    let start = Date()
    var args = arguments
    if let stdin {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("eval-\(UUID().uuidString).txt")
      try? stdin.write(to: file, atomically: false, encoding: .utf8)
      args = ["-c", "exec \"$0\" \"$@\" < '\(file.path)'"] + arguments
      let result = runShell(args)
      try? FileManager.default.removeItem(at: file)
      return (result, Date().timeIntervalSince(start))
    }
    let result = runMapc(args)
    return (
      Outcome(exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr), Date().timeIntervalSince(start)
    )
  }

  /// Runs `sh -c script mapc args…` (for standard input from a file).
  static func runShell(_ arguments: [String]) -> Outcome {
    guard let mapc = mapcExecutable else { return Outcome(exitCode: 127, stdout: "", stderr: "") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [arguments[0], arguments[1], mapc.path] + arguments.dropFirst(2)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try? process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      exitCode: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  @Test func tenThousandNestedParenthesesFailFast() {
    let (r, seconds) = Self.timed([
      "eval", "--expression", String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000),
    ])
    #expect(r.exitCode == 1 && r.stderr.contains("[expr-too-deep]"))
    #expect(seconds < 1)
  }

  @Test func catastrophicMatchesStopsFast() {
    let (r, seconds) = Self.timed([
      "eval", "--predicate", "SELF MATCHES '(a+)+b'", "--object", "\"" + String(repeating: "a", count: 10_000) + "\"",
    ])
    #expect(r.exitCode == 1 && r.stderr.contains("[run-regex-timeout]"))
    #expect(seconds < 1)
  }

  @Test func functionWithFiveHundredArgumentsIsFast() {
    let selector = String(repeating: "a:", count: 500)
    let args = (0..<500).map(String.init).joined(separator: ", ")
    let (r, seconds) = Self.timed(["eval", "--expression", "FUNCTION(SELF, '\(selector)', \(args))"])
    // A message to nil is nil, as in Objective-C.
    #expect(r.exitCode == 0 && r.stdout == "null\n", "\(r.stderr)")
    #expect(seconds < 1)
  }

  @Test func oneMegabyteLiteralIsAnErrorFast() {
    let (r, seconds) = Self.timed(
      ["eval", "--expression", "-"], stdin: "\"" + String(repeating: "x", count: 1 << 20) + "\"")
    #expect(r.exitCode == 1 && r.stderr.contains("[expr-too-long]"), "\(r.stderr.prefix(300))")
    #expect(seconds < 1)
  }
}
