import ArgumentParser
import Foundation
import MapCompiler
import MapRuntime

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

      // Model bundles among the paths: check the chains mapc migrate would take through them.
      let bundles = paths.filter(ChainCheck.isBundle)
      let mappingPaths = paths.filter { !ChainCheck.isBundle($0) }
      let files: [String]
      do {
        files = try MappingFileFinder.find(mappingPaths)
      } catch {
        fail(error.description, id: "usage-path-not-found")
      }
      // Lock files: --lock for the bundles given, and those a folder holds beside their bundle.
      var locks = LockedBundles.found(in: mappingPaths)
      if let lock {
        if bundles.isEmpty {
          fail("--lock checks model bundles: give the .xcdatamodeld it locks", id: "usage-lock-without-bundle")
        }
        locks += bundles.map { (bundle: $0, lock: lock) }
      }
      if files.isEmpty && bundles.isEmpty && locks.isEmpty {
        fail(
          "no mapping files (*.xml with a <mappingModel> root, or .xcmappingmodel) in \(paths.joined(separator: ", "))",
          id: "usage-no-mapping-files")
      }

      var inputs = OutputTarget()
      inputs.reads(files, as: "mapping")
      inputs.reads(bundles, as: "model")
      inputs.reads(baseline, as: "baseline")
      inputs.reads(lock, as: "lock")
      // Rewriting the baseline given with --baseline is what --write-baseline is for.
      inputs.writes(writeBaseline, option: "--write-baseline", replacing: "baseline")
      try inputs.refuseClash()

      var accepted: LintBaseline?
      if let baseline {
        do {
          accepted = try LintBaseline.load(path: baseline)
        } catch {
          fail(error.description, id: "usage-baseline")
        }
      }

      if updatePins {
        for file in files {
          switch PinUpdater.update(mappingPath: file) {
          case .updated: Console.say("\(file): pins updated to the models' current hashes")
          case .unchanged: break
          case .failed(let why): Console.say(why)
          }
        }
      }

      var report = LintRunner.run(files: files, baseline: accepted, jobs: jobs)
      if !bundles.isEmpty {
        ChainCheck.add(bundles: bundles, mappingPaths: mappingPaths, direct: direct, reverse: reverse, to: &report)
      }
      if !locks.isEmpty { LockedBundles.add(locks, to: &report) }
      report.bundles = bundles

      if let target = writeBaseline {
        // The models the mappings name are inputs too, known now that the mappings are read.
        inputs.reads(report.models, as: "model")
        try inputs.refuseClash()
        let previous = (try? LintBaseline.load(path: target)) ?? accepted
        let text = LintBaseline.render(accepting: report.findings, path: target, previous: previous)
        do {
          let folder = PathText.folder(of: target)
          if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
          }
          try AtomicFileWriter.replaceContents(of: target, with: text)
        } catch {
          throw Console.writeFailure("baseline", path: target, error: error)
        }
        let written = try? LintBaseline.load(path: target)
        var findings = report.findings.filter { $0.ruleId != "lint-unused-baseline-entry" }
        _ = written?.apply(to: &findings, lintedFiles: files)
        report.findings = findings
        Console.say("\(target): baseline written with \(written?.entries.count ?? 0) entries")
      }

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
