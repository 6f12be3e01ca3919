import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime

extension MapcCommand {
  struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run the migration fixtures (fixture.json) found under the paths.",
      discussion: """
        Every fixture.json under the paths names a \
        mapping (run with `mapc run`) or a model bundle (run with `mapc migrate`) and cases: a \
        store and the expected store, or the exit status and messages of a failure. Each case \
        runs in a child process on a copy in a temporary folder; expected stores (JSON or \
        SQLite) are compared by meaning: objects by id, unordered relationships as sets, \
        doubles exactly. A chain's result must also have the schema of an empty store of its \
        version. One line per case on standard output. Exit status: 0 every case passed, \
        1 a case failed or a fixture.json is wrong, 64 usage error.
        """)

    @Argument(help: "Fixture files or folders searched for fixture.json at any depth.")
    var paths: [String]

    @Option(help: "Also write the results as JUnit XML to this file.")
    var junit: String?

    @Flag(help: "Write each missing or different expected store from today's result (review the change).")
    var update = false

    @Option(help: "Where the paths of `sharedMapping` start (cases are skipped when it is absent).")
    var shared = "../shared"

    @Flag(help: "Only the failures and the summary; no progress.")
    var quiet = false

    @OptionGroup var progressOption: ProgressOption

    func run() throws {
      guard !paths.isEmpty else { throw ValidationError("give at least one fixture file or folder") }
      let found: [String]
      do {
        found = try FixtureFile.find(paths)
      } catch {
        Console.report(error.diagnostics)
        throw ExitCode(.usage)
      }
      if found.isEmpty {
        Console.error("no fixture.json under \(paths.joined(separator: ", "))", id: "usage-no-fixtures")
        throw ExitCode(.usage)
      }
      // Every fixture file is read first, so that progress counts cases against their total, and
      // so that --junit is checked against every file a case reads (Specs/test-fixtures.md §3).
      let fixtures = found.map { path in (path, Result { () throws(DiagnosticsError) in try FixtureFile.read(path) }) }
      var files = OutputTarget()
      files.reads(found, as: "fixture")
      for case .success(let f) in fixtures.map(\.1) { Self.recordInputs(of: f, shared: shared, into: &files) }
      files.writes(junit, option: "--junit")
      try files.refuseClash()
      FixtureRunner.removeStaleWork()
      let runner = FixtureRunner(executable: FixtureRunner.currentExecutable(), shared: shared, update: update)
      var results: [FixtureResult] = []
      var broken = 0
      let started = Date()
      let total = fixtures.reduce(0) { n, f in n + ((try? f.1.get())?.cases.count ?? 0) }
      let bar = progressOption.reporter(quiet: quiet)
      bar?.update("test", "cases", 0, total)
      for (path, read) in fixtures {
        let fixture: FixtureFile
        do {
          fixture = try read.get()
        } catch {
          ProgressReporter.interject(bar) { Console.report(error.diagnostics) }
          broken += 1
          continue
        }
        let suite = Self.display((path as NSString).deletingLastPathComponent)
        for c in fixture.cases {
          let name = c.store + (c.to.map { " → \($0)" } ?? "")
          let start = Date()
          let outcome = runner.run(fixture, c)
          let result = FixtureResult(
            suite: suite, name: name, outcome: outcome, seconds: Date().timeIntervalSince(start),
            knownIssue: fixture.knownIssue)
          results.append(result)
          let text = Self.lines(result, quiet: quiet)
          // Written between two drawings of the bar (standard output may be the same terminal).
          if !text.isEmpty { ProgressReporter.interject(bar) { FileHandle.standardOutput.write(Data(text.utf8)) } }
          bar?.update("test", "cases", results.count, total)
        }
      }
      bar?.finish()
      if let junit {
        let text = JUnitReport.render(results, timestamp: Self.timestamp(started), hostname: Self.hostname())
        // The one way mapc writes a file given on the command line: replaced atomically, a link
        // kept and the file it names written, a FIFO or device written through.
        do {
          try AtomicFileWriter.replaceContents(of: junit, with: text)
        } catch {
          throw Console.writeFailure("JUnit report", path: junit, error: error)
        }
      }
      let count = { (f: (FixtureResult) -> Bool) in results.filter(f).count }
      let failed = count(\.failsTheRun)
      let known = count { if case .failed = $0.outcome { return $0.knownIssue != nil } else { return false } }
      let skipped = count { if case .skipped = $0.outcome { return true } else { return false } }
      let updated = count { if case .updated = $0.outcome { return true } else { return false } }
      var summary = "mapc: \(results.count) cases: \(results.count - failed - known - skipped) passed, \(failed) failed"
      if known > 0 { summary += ", \(known) known issues" }
      if skipped > 0 { summary += ", \(skipped) skipped" }
      if updated > 0 { summary += " (\(updated) expected stores written)" }
      if broken > 0 { summary += "; \(broken) fixture files cannot be read" }
      FileHandle.standardOutput.write(Data((summary + "\n").utf8))
      if failed > 0 || broken > 0 { throw ExitCode(.inputErrors) }
    }

    /// The files a fixture's cases read: stores (with their companions), expected stores, the
    /// mapping or model and mappings.
    static func recordInputs(of f: FixtureFile, shared: String, into files: inout OutputTarget) {
      for c in f.cases {
        files.reads(f.resolve(c.store), as: "store", kind: .store)
        if let e = c.expected { files.reads(f.resolve(e), as: "expected store", kind: .store) }
        if let s = c.coreDataStore { files.reads(f.resolve(s), as: "Core Data store", kind: .store) }
      }
      switch f.subject {
      case .mapping(let m, let isShared):
        let mapping = isShared ? shared + "/" + m : f.resolve(m)
        files.reads(mapping, as: "mapping")
        files.reads(FixtureRunner.modelPaths(ofMapping: mapping), as: "model")
      case .chain(let model, let mappings):
        files.reads(f.resolve(model), as: "model")
        files.reads(mappings.map(f.resolve), as: "mappings")
      }
    }

    /// `PASS suite: case (0.12 s)`, and for a failure its reasons indented below.
    static func lines(_ r: FixtureResult, quiet: Bool) -> String {
      let place = TerminalText.escaped("\(r.suite): \(r.name)")
      let time = String(format: "%.2f s", r.seconds)
      switch r.outcome {
      case .passed: return quiet ? "" : "PASS \(place) (\(time))\n"
      case .updated(let path): return "UPDATED \(place): wrote \(TerminalText.escaped(path))\n"
      case .skipped(let why): return quiet ? "" : "SKIP \(place): \(TerminalText.escaped(why))\n"
      case .failed(let reasons):
        let head =
          r.knownIssue.map { "KNOWN \(place) (\(time)): \(TerminalText.escaped($0))" } ?? "FAIL \(place) (\(time))"
        return ([head] + reasons.map { "  " + TerminalText.escaped($0) }).joined(separator: "\n") + "\n"
      }
    }

    /// A path relative to the current folder when it is inside it.
    static func display(_ path: String) -> String {
      let here = FileManager.default.currentDirectoryPath
      return path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
    }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC (`SOURCE_DATE_EPOCH` when set, for reproducible reports).
    static func timestamp(_ date: Date) -> String {
      var seconds = Int(date.timeIntervalSince1970)
      if let s = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let v = Int(s) { seconds = v }
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
      return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static func hostname() -> String {
      let name = ProcessInfo.processInfo.hostName
      return name.isEmpty ? "localhost" : name
    }
  }
}
