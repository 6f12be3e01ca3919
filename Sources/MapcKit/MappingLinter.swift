import Foundation
import MapRuntime
import MapTools

/// Lints mappings and model chains (what `mapc lint` does): every rule of `LintRules` over the
/// mapping files found, the chains `mapc migrate` would take through the model bundles given,
/// and the model locks beside them; findings a baseline accepts are left out.
public struct MappingLinter: Sendable {
  /// What to lint, and how.
  public struct Options: Sendable {
    /// Mapping files, folders to search for them, and model bundles (`.xcdatamodeld`).
    public var paths: [String]
    /// A baseline file whose findings are accepted.
    public var baseline: String?
    /// A lock file (`mapc lock`) for the bundles among ``paths``.
    public var lock: String?
    /// Chains checked as one step from each version to the current one.
    public var direct = false
    /// Chains checked back too (each step reversed).
    public var reverse = false
    /// Files linted at once; 0: one per processor.
    public var jobs = 0
    /// Rewrite each mapping's pinned hashes to its models' current ones before linting.
    public var updatePins = false

    /// Options to lint `paths`.
    public init(paths: [String]) {
      self.paths = paths
    }
  }

  /// What a lint reads, found before anything is linted.
  public struct Inputs: Sendable {
    /// The mapping files.
    public var files: [String]
    /// The model bundles whose chains are checked.
    public var bundles: [String]
    /// The lock files, each with the bundle it locks.
    public var locks: [(bundle: String, lock: String)]
    /// The paths that are no bundle (mapping files and folders).
    public var mappingPaths: [String]
  }

  /// What a lint found.
  public struct Report: Sendable {
    /// The findings, the files and models read.
    public var lint: LintReport
    /// The baseline the findings were checked against.
    public var baseline: LintBaseline?
    /// What updating the pins said, one line per mapping changed or failed.
    public var pinUpdates: [String]
  }

  /// A linter.
  public init() {}

  /// The mapping files, bundles and locks ``Options/paths`` name; a usage error (exit status
  /// 64: a path that does not exist, `--lock` without a bundle, nothing to lint) is thrown.
  public func inputs(_ options: Options) throws(MapcError) -> Inputs {
    let bundles = options.paths.filter(ChainCheck.isBundle)
    let mappingPaths = options.paths.filter { !ChainCheck.isBundle($0) }
    let files: [String]
    do {
      files = try MappingFileFinder.find(mappingPaths)
    } catch {
      throw Self.usage(error.description, id: "usage-path-not-found")
    }
    // Lock files: the one given for the bundles, and those a folder holds beside their bundle.
    var locks = LockedBundles.found(in: mappingPaths)
    if let lock = options.lock {
      if bundles.isEmpty {
        throw Self.usage(
          "--lock checks model bundles: give the .xcdatamodeld it locks", id: "usage-lock-without-bundle")
      }
      locks += bundles.map { (bundle: $0, lock: lock) }
    }
    if files.isEmpty && bundles.isEmpty && locks.isEmpty {
      throw Self.usage(
        "no mapping files (*.xml with a <mappingModel> root, or .xcmappingmodel) in \(options.paths.joined(separator: ", "))",
        id: "usage-no-mapping-files")
    }
    return Inputs(files: files, bundles: bundles, locks: locks, mappingPaths: mappingPaths)
  }

  /// Lints `inputs`: pins updated first when asked, then every mapping, chain and lock. A
  /// baseline that cannot be read is a usage error (exit status 64).
  public func lint(_ inputs: Inputs, _ options: Options) throws(MapcError) -> Report {
    var accepted: LintBaseline?
    if let baseline = options.baseline {
      do {
        accepted = try LintBaseline.load(path: baseline)
      } catch {
        throw Self.usage(error.description, id: "usage-baseline")
      }
    }
    var pins: [String] = []
    if options.updatePins {
      for file in inputs.files {
        switch PinUpdater.update(mappingPath: file) {
        case .updated: pins.append("\(file): pins updated to the models' current hashes")
        case .unchanged: break
        case .failed(let why): pins.append(why)
        }
      }
    }
    var report = LintRunner.run(files: inputs.files, baseline: accepted, jobs: options.jobs)
    if !inputs.bundles.isEmpty {
      ChainCheck.add(
        bundles: inputs.bundles, mappingPaths: inputs.mappingPaths, direct: options.direct, reverse: options.reverse,
        to: &report)
    }
    if !inputs.locks.isEmpty { LockedBundles.add(inputs.locks, to: &report) }
    report.bundles = inputs.bundles
    return Report(lint: report, baseline: accepted, pinUpdates: pins)
  }

  /// Writes a baseline at `path` that accepts every finding of `report` (keeping the reasons of
  /// the baseline there before), and leaves in the report only what it cannot accept. Returns
  /// how many entries it holds; a baseline that cannot be written is thrown (`io-write`, exit
  /// status 1).
  public func writeBaseline(_ report: inout Report, to path: String, files: [String]) throws(MapcError) -> Int {
    let previous = (try? LintBaseline.load(path: path)) ?? report.baseline
    let text = LintBaseline.render(accepting: report.lint.findings, path: path, previous: previous)
    do {
      let folder = PathText.folder(of: path)
      if !folder.isEmpty {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      try AtomicFileWriter.replaceContents(of: path, with: text)
    } catch {
      let reason = (error as? StoreIOError)?.reason ?? SystemErrorText.describe(error)
      throw .stopped(
        message: "cannot write the baseline: \(reason)", id: "io-write", place: path, notes: [], status: .inputErrors)
    }
    let written = try? LintBaseline.load(path: path)
    var findings = report.lint.findings.filter { $0.ruleId != "lint-unused-baseline-entry" }
    _ = written?.apply(to: &findings, lintedFiles: files)
    report.lint.findings = findings
    return written?.entries.count ?? 0
  }

  static func usage(_ message: String, id: String) -> MapcError {
    .stopped(message: message, id: id, place: nil, notes: [], status: .usage)
  }
}
