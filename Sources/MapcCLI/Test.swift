import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapSyntax
import MapTools

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

    @Option(help: "How many cases run at the same time (default: the machine's cores).")
    var jobs: Int?

    @Option(
      help: ArgumentHelp(
        "Run part K of N of the cases (balanced, by a stable hash of each case); auto or auto/N: from GitLab's, Slurm's or a Kubernetes Indexed Job's variables.",
        valueName: "K/N|auto[/N]"))
    var shard: String?

    @Option(
      name: .customLong("merge-junit"),
      help: ArgumentHelp(
        "Merge the JUnit reports given as the paths (of the shards of one run) into this file, in the run's order, and run nothing.",
        valueName: "file"))
    var mergeJUnit: String?

    @Flag(help: "Write each missing or different expected store from today's result (review the change).")
    var update = false

    @Option(help: "Where the paths of `sharedMapping` start (cases are skipped when it is absent).")
    var shared = "../shared"

    @Flag(help: "Only the failures and the summary; no progress.")
    var quiet = false

    @OptionGroup var progressOption: ProgressOption

    @OptionGroup var memoryLimitOption: MemoryLimitOption

    func run() throws {
      memoryLimitOption.apply()
      guard !paths.isEmpty else { throw ValidationError("give at least one fixture file or folder") }
      if let mergeJUnit {
        if junit != nil || jobs != nil || shard != nil || update {
          throw ValidationError("--merge-junit runs nothing: it goes without --junit, --jobs, --shard and --update")
        }
        return try Self.merge(paths, into: mergeJUnit)
      }
      if let jobs, jobs < 1 { throw ValidationError("--jobs is at least 1") }
      let part = try Shard.option(shard)
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
      var broken = 0
      var planned: [FixtureSchedule.Planned] = []
      for (index, (path, read)) in fixtures.enumerated() {
        let fixture: FixtureFile
        do {
          fixture = try read.get()
        } catch {
          Console.report(error.diagnostics)
          broken += 1
          continue
        }
        let suite = Self.display(PathText.folder(of: path))
        for i in fixture.cases.indices {
          planned.append(
            .init(fixture: fixture, fixtureIndex: index, caseIndex: i, suite: suite, key: "\(path)#\(i)"))
        }
      }
      let selected = part?.select(planned, key: \.key) ?? planned
      let started = Date()
      let bar = progressOption.reporter(quiet: quiet)
      let total = selected.count
      bar?.update("test", "cases", 0, total)
      let quiet = quiet
      // --update writes expected stores, which two cases may share: one case at a time.
      let lanes = update ? 1 : jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
      let results = try FixtureRunner.withWorkRoot { root in
        let runner = FixtureRunner(
          executable: FixtureRunner.currentExecutable(), shared: shared, update: update, workRoot: root,
          // Each lane's case, its run and then its comparison, takes an equal share.
          memoryLimit: memoryLimitOption.bytes / lanes, modelMessages: ModelInput.print)
        return FixtureSchedule.run(selected, jobs: lanes, runner: runner) { done, result in
          let text = Self.lines(result, quiet: quiet)
          // Written between two drawings of the bar (standard output may be the same terminal).
          if !text.isEmpty { ProgressReporter.interject(bar) { FileHandle.standardOutput.write(Data(text.utf8)) } }
          bar?.update("test", "cases", done + 1, total)
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
      if let part { summary += " (shard \(part.index + 1) of \(part.count): \(total) of \(planned.count) cases)" }
      FileHandle.standardOutput.write(Data((summary + "\n").utf8))
      if failed > 0 || broken > 0 { throw ExitCode(.inputErrors) }
    }

    /// `--merge-junit OUT IN…`: the shards' reports as one (JUnitMerge), written by the output rule.
    static func merge(_ reports: [String], into output: String) throws {
      var files = OutputTarget()
      files.reads(reports, as: "JUnit report")
      files.writes(output, option: "--merge-junit")
      try files.refuseClash()
      let text: String
      do {
        text = try JUnitMerge.merge(reports)
      } catch {
        Console.report(error.diagnostics)
        throw ExitCode(.inputErrors)
      }
      do {
        try AtomicFileWriter.replaceContents(of: output, with: text)
      } catch {
        throw Console.writeFailure("JUnit report", path: output, error: error)
      }
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
