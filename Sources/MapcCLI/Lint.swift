import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapSyntax
import MapTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension MapcCommand {
  struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check mapping files for Core Data migration pitfalls before they ship.",
      discussion: """
        Reports every compiler diagnostic and every lint rule finding of each mapping file \
        (mapc lint --list-rules lists them, mapc lint --explain RULE explains one). PATH may be a mapping XML file, an \
        Xcode .xcmappingmodel, a folder (searched recursively for both), or a .xcdatamodeld \
        bundle: then the migration chain through its versions is checked too, with the \
        mappings given beside it, as mapc migrate would take it (steps that cannot be made, \
        inferred steps that would drop data, versions Core Data would not see as new or cannot \
        tell apart). Files are linted in parallel and reported together, sorted by file, line and column. Text goes \
        to standard error, with the source line and a caret (coloured on a terminal unless \
        NO_COLOR is set); json, sarif and github go to standard output. Silence a finding \
        with <!-- mapc-lint-disable RULE: reason --> before the element it points at, or \
        accept today's findings with --write-baseline FILE and --baseline FILE. Exit status: \
        0 clean, 1 a finding at error level (or at warning level with --strict), 64 usage \
        error or --write-baseline naming a file it lints.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, json, sarif, github
    }

    @Argument(help: "Mapping files, or folders to search for them.")
    var paths: [String] = []

    @Option(
      help:
        "Name files relative to this folder (the repository's root) in every format, and make it SARIF's SRCROOT, so code scanning maps results to the repository's files."
    )
    var basePath: String?

    @Option(help: "Output format: text, json, sarif or github.")
    var format: Format = .text

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Option(help: "Accept the findings recorded in this baseline file.")
    var baseline: String?

    @Option(
      name: .customLong("write-baseline"),
      help: "Write a baseline accepting every current finding (compiler errors excepted).")
    var writeBaseline: String?

    @Flag(
      name: .customLong("update-pins"),
      help: "Record the models' current version hashes in each mapping file, then lint.")
    var updatePins = false

    @Option(name: .customLong("explain"), help: "Print a rule's explanation and examples.")
    var explain: String?

    @Flag(name: .customLong("list-rules"), help: "List every rule with its severity.")
    var listRules = false

    @Option(
      help:
        "A lock file written by `mapc lock`: the model bundles among the paths must hash as it recorded (a folder's *.lock files are used for the bundles beside them)."
    )
    var lock: String?

    @Flag(
      help:
        "Check model bundles as Core Data's automatic migration takes them: one direct step from every version to the current one (default: one version at a time, as mapc migrate)."
    )
    var direct = false

    @Flag(
      help:
        "Also say, as notes, for each step of a model bundle's history whether mapc migrate --to an earlier version can reverse it and what the reverse loses."
    )
    var reverse = false

    @Option(help: "Files linted at once; 0 means one per processor.")
    var jobs: Int = 0

    func validate() throws {
      if explain == nil && !listRules && paths.isEmpty {
        throw ValidationError("give at least one mapping file or folder")
      }
      if jobs < 0 { throw ValidationError("--jobs must be 0 or more") }
    }

    func run() throws {
      if let id = explain {
        guard let rule = LintRules.rule(id) else {
          let close = LintRules.ids.filter { $0.contains(id) || id.contains($0) }
          fail(
            "unknown rule \(id)\(close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"); mapc lint --list-rules lists them",
            id: "usage-unknown-rule")
        }
        print(LintRuleDocs.text(rule), terminator: "")
        return
      }
      if listRules {
        let width = LintRules.ids.map(\.count).max() ?? 0
        for r in LintRules.all {
          print(
            r.id.padding(toLength: width + 2, withPad: " ", startingAt: 0)
              + r.severity.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + r.title)
        }
        return
      }

      // MapcKit's MappingLinter: the mapping files, the bundles (the chains mapc migrate would take
      // through them) and the locks the paths name, then the lint.
      var options = MappingLinter.Options(paths: paths)
      options.baseline = baseline
      options.lock = lock
      options.direct = direct
      options.reverse = reverse
      options.jobs = jobs
      options.updatePins = updatePins
      let linter = MappingLinter()
      let found: MappingLinter.Inputs
      do {
        found = try linter.inputs(options)
      } catch {
        throw Console.failure(error)
      }

      var inputs = OutputTarget()
      inputs.reads(found.files, as: "mapping")
      inputs.reads(found.bundles, as: "model")
      inputs.reads(baseline, as: "baseline")
      inputs.reads(lock, as: "lock")
      // Rewriting the baseline given with --baseline is what --write-baseline is for.
      inputs.writes(writeBaseline, option: "--write-baseline", replacing: "baseline")
      try inputs.refuseClash()

      var linted: MappingLinter.Report
      do {
        linted = try linter.lint(found, options)
      } catch {
        throw Console.failure(error)
      }
      for line in linted.pinUpdates { Console.say(line) }

      if let target = writeBaseline {
        // The models the mappings name are inputs too, known now that the mappings are read.
        inputs.reads(linted.lint.models, as: "model")
        try inputs.refuseClash()
        let entries: Int
        do {
          entries = try linter.writeBaseline(&linted, to: target, files: found.files)
        } catch {
          throw Console.failure(error)
        }
        Console.say("\(target): baseline written with \(entries) entries")
      }

      var report = linted.lint
      if let basePath { report = report.relativized(to: basePath) }
      switch format {
      case .text:
        Console.write(TextReporter.render(report, colour: Self.useColour))
      case .json:
        standardOutput(JSONReporter.render(report, toolVersion: MapcCommand.configuration.version))
      case .sarif:
        standardOutput(
          SARIFReporter.render(
            report, toolVersion: MapcCommand.configuration.version,
            workingDirectory: basePath.map { PathText.absolute($0) } ?? FileManager.default.currentDirectoryPath))
      case .github:
        standardOutput(GitHubReporter.render(report))
      }
      if format != .text { Console.say(report.summary) }
      if report.fails(strict: strict) { throw ExitCode(.inputErrors) }
    }

    static var useColour: Bool {
      let env = ProcessInfo.processInfo.environment
      return Terminal.standardErrorIsTerminal && env["NO_COLOR"] == nil && env["TERM"] != "dumb"
    }

    /// A usage problem: `mapc: error: MESSAGE [ID]` on standard error, exit 64.
    private func fail(_ message: String, id: String) -> Never {
      Console.error(message, id: id)
      Foundation.exit(ExitStatus.usage.rawValue)
    }
  }
}

private func standardOutput(_ s: String) { FileHandle.standardOutput.write(Data(s.utf8)) }
