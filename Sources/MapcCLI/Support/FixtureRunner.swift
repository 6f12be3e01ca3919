import Foundation
import MapCompiler
import MapRuntime
import MapSQLite

/// Runs the cases of `mapc test` (Specs/test-fixtures.md §2): each one as the user would, by
/// this very program in a child process (`run` for a mapping, `migrate` for a chain) on a copy
/// in a temporary folder, so that a case's exit status and standard error are exactly a user's,
/// a crash fails only that case, and the fixture's files are never written (unless `--update`).
struct FixtureRunner {
  /// This program.
  var executable: String
  /// Where `sharedMapping` paths start.
  var shared: String
  /// Write expected stores from today's results.
  var update: Bool

  /// The outcome of one case.
  func run(_ fixture: FixtureFile, _ c: FixtureFile.Case) -> FixtureResult.Outcome {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("mapc-test-\(UUID().uuidString)").path
    do {
      try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    } catch {
      return .failed(["cannot make a temporary folder: \(SystemErrorText.describe(error))"])
    }
    defer { try? FileManager.default.removeItem(atPath: work) }
    let store = fixture.resolve(c.store)
    guard FileManager.default.fileExists(atPath: store) else { return .failed(["the store \(store) does not exist"]) }
    switch fixture.subject {
    case .mapping(let mapping, let isShared):
      let path = isShared ? shared + "/" + mapping : fixture.resolve(mapping)
      if isShared && !FileManager.default.fileExists(atPath: shared) {
        return .skipped("its mapping is in \(shared), which is absent (--shared)")
      }
      return runMapping(path, fixture, c, store: store, work: work)
    case .chain(let model, let mappings):
      return runChain(fixture.resolve(model), mappings.map(fixture.resolve), fixture, c, store: store, work: work)
    }
  }

  private func runMapping(
    _ mapping: String, _ fixture: FixtureFile, _ c: FixtureFile.Case, store: String, work: String
  ) -> FixtureResult.Outcome {
    let out = work + "/out" + Self.suffix(store)
    let before = Self.contents(store)
    let child = launch(["run", mapping, "--store", store, "--output", out, "--quiet"] + c.arguments, work: work)
    var problems: [String] = []
    if Self.contents(store) != before { problems.append("the input store \(store) changed") }
    guard let expected = c.expected else {
      return .failed(problems + failure(child, c, wrote: FileManager.default.fileExists(atPath: out) ? out : nil))
        .orPassed
    }
    guard child.status == 0 else { return .failed(problems + Self.unexpectedExit(child)) }
    let compiled = Self.destinationModel(of: mapping)
    guard let model = compiled.model else { return .failed(problems + compiled.problems) }
    return compare(out, expected: fixture.resolve(expected), model: model, schema: nil, problems: problems)
  }

  private func runChain(
    _ model: String, _ mappings: String?, _ fixture: FixtureFile, _ c: FixtureFile.Case, store: String, work: String
  ) -> FixtureResult.Outcome {
    // migrate works in place and keeps its work folder beside the store: it gets a copy.
    let copy = work + "/" + (store as NSString).lastPathComponent
    do {
      for suffix in ["", "-wal", "-shm"] where suffix.isEmpty || FileManager.default.fileExists(atPath: store + suffix)
      {
        try FileManager.default.copyItem(atPath: store + suffix, toPath: copy + suffix)
      }
    } catch {
      return .failed(["cannot copy the store: \(SystemErrorText.describe(error))"])
    }
    let before = Self.contents(copy)
    var arguments = ["migrate", "--model", model, "--store", copy, "--quiet"]
    if let mappings { arguments += ["--mappings", mappings] }
    if let to = c.to { arguments += ["--to", to] }
    let child = launch(arguments + c.arguments, work: work)
    guard let expected = c.expected else {
      var problems = failure(child, c, wrote: nil)
      if Self.contents(copy) != before { problems.append("the failed migration changed the store") }
      return .failed(problems).orPassed
    }
    guard child.status == 0 else { return .failed(Self.unexpectedExit(child)) }
    let versions: ModelVersions
    do {
      versions = try ModelInput.versions(model)
    } catch {
      return .failed(error.diagnostics.map(\.description))
    }
    let target = c.to.flatMap { versions.index(named: $0) } ?? versions.current
    return compare(
      copy, expected: fixture.resolve(expected), model: versions.versions[target].model,
      schema: versions.versions[target], problems: [])
  }

  /// What is wrong with a case that must fail: its exit status, the texts its standard error
  /// lacks, an output it wrote.
  private func failure(_ child: Child, _ c: FixtureFile.Case, wrote: String?) -> [String] {
    var problems: [String] = []
    if child.status != c.exitCode ?? 2 {
      problems.append("exit status \(child.status), expected \(c.exitCode ?? 2)")
    }
    for text in c.stderrMentions where !child.stderr.contains(text) {
      problems.append("standard error does not mention \(GraphComparisonText.quoted(text))")
    }
    if let wrote { problems.append("the failed run wrote \(wrote)") }
    if !problems.isEmpty { problems += Self.stderrLines(child) }
    return problems
  }

  /// The store at `got` compared by meaning with `expected` (`GraphComparison`); for a chain,
  /// also its schema with an empty store's of the same version. With `--update`, a missing or
  /// different expected store is replaced by `got`.
  private func compare(
    _ got: String, expected: String, model: ObjectModel, schema version: ModelVersion?, problems: [String]
  ) -> FixtureResult.Outcome {
    var problems = problems
    if let version { problems += Self.schemaProblems(got, version: version) }
    let layout = StoreLayout(model: model)
    let read = { (path: String) throws(MigrationFailure) -> ObjectGraph in
      try StoreFormatChoice.detect(path).read(path, layout: layout, options: StoreReadOptions()).0
    }
    let gotGraph: ObjectGraph
    do {
      gotGraph = try read(got)
    } catch {
      return .failed(problems + ["the migrated store cannot be read:"] + error.errors.map { "  " + $0.description })
    }
    var differences: [String] = []
    if FileManager.default.fileExists(atPath: expected) {
      do {
        let result = GraphComparison.differences(expected: try read(expected), got: gotGraph)
        differences = result.differences.map(\.description)
        if result.truncated { differences.append("(more differences not shown)") }
      } catch {
        if !update {
          return .failed(
            problems + ["the expected store \(expected) cannot be read:"] + error.errors.map { "  " + $0.description })
        }
        differences = ["unreadable"]
      }
    } else if !update {
      return .failed(problems + ["the expected store \(expected) does not exist (--update writes it)"])
    } else {
      differences = ["missing"]
    }
    if update && !differences.isEmpty && problems.isEmpty {
      do {
        try? FileManager.default.removeItem(atPath: expected)
        try FileManager.default.copyItem(atPath: got, toPath: expected)
        return .updated(expected)
      } catch {
        return .failed(["cannot write \(expected): \(SystemErrorText.describe(error))"])
      }
    }
    return .failed(problems + differences).orPassed
  }

  /// A chain's result must have the schema of a new store of its version: the version's entity
  /// hashes, and for SQLite the tables, columns and indexes an empty store of it has.
  static func schemaProblems(_ path: String, version: ModelVersion) -> [String] {
    let format = StoreFormatChoice.detect(path)
    var problems: [String] = []
    do {
      let hashes = try format.peekMetadata(path).entityVersionHashes ?? [:]
      if hashes != version.base64Hashes {
        let names = Set(hashes.keys).union(version.base64Hashes.keys).filter { hashes[$0] != version.base64Hashes[$0] }
        problems.append(
          "schema: the store's entity version hashes differ from version '\(version.name)' in \(names.sorted().joined(separator: ", "))"
        )
      }
      guard format is SQLiteStoreFormat else { return problems }
      let fresh = (path as NSString).deletingLastPathComponent + "/fresh-install.sqlite"
      let graph = ObjectGraph(layout: StoreLayout(model: version.model), input: nil, isSource: false)
      try SQLiteStoreFormat().write(
        graph, source: nil,
        metadata: StoreWriteMetadata(
          modelVersionIdentifiers: version.model.versionIdentifiers, entityHashes: version.hashes),
        to: fresh, backup: nil, options: StoreWriteOptions())
      let differences = CoreDataSchemaSnapshot.differences(
        expected: try CoreDataSchemaSnapshot.lines(ofStoreAt: fresh),
        got: try CoreDataSchemaSnapshot.lines(ofStoreAt: path))
      if !differences.isEmpty {
        problems.append(
          "schema: the migrated store's schema is not a fresh install's of '\(version.name)' (- fresh, + migrated):")
        problems += differences.map { "  " + $0 }
      }
    } catch {
      problems.append("schema: cannot compare: " + (error.errors.first?.description ?? ""))
    }
    return problems
  }

  /// The destination model of a mapping, compiled in memory (or of a plan, read).
  static func destinationModel(of mapping: String) -> (model: ObjectModel?, problems: [String]) {
    if mapping.hasSuffix(".xml") || XcodeMappingReader.isXcodeMapping(mapping) {
      let result = MappingCompilation.compile(mappingPath: mapping)
      return (result.plan?.destinationModel, result.diagnostics.filter { $0.severity == .error }.map(\.description))
    }
    do {
      return (try PlanReader.read(contentsOf: mapping).destinationModel, [])
    } catch {
      return (nil, [error.diagnosticLine])
    }
  }

  static func unexpectedExit(_ child: Child) -> [String] {
    ["exit status \(child.status), expected 0"] + stderrLines(child)
  }

  /// The child's standard error, a few lines of it, indented.
  static func stderrLines(_ child: Child) -> [String] {
    let lines = child.stderr.split(separator: "\n").prefix(8).map { "  stderr: " + TerminalText.escaped(String($0)) }
    return Array(lines)
  }

  static func suffix(_ path: String) -> String {
    let ext = (path as NSString).pathExtension
    return ext.isEmpty ? "" : "." + ext
  }

  static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// A finished child process.
  struct Child {
    var status: Int32
    var stderr: String
  }

  /// Runs this program with `arguments` in `work`, standard output and error to files there.
  func launch(_ arguments: [String], work: String) -> Child {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let errPath = work + "/stderr.txt"
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let err = FileHandle(forWritingAtPath: errPath)
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
      process.waitUntilExit()
    } catch {
      return Child(status: -1, stderr: "cannot start \(executable): \(SystemErrorText.describe(error))")
    }
    try? err?.close()
    let text = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    let status =
      process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    return Child(status: status, stderr: text)
  }

  /// This program's path (`/proc/self/exe` where there is one).
  static func currentExecutable() -> String {
    if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return target }
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
  }
}

extension FixtureResult.Outcome {
  /// `.failed([])` is a pass.
  fileprivate var orPassed: FixtureResult.Outcome {
    if case .failed(let reasons) = self, reasons.isEmpty { return .passed }
    return self
  }
}

/// Quoting for messages (GraphComparison's, so values read the same everywhere).
enum GraphComparisonText {
  static func quoted(_ s: String) -> String { GraphComparison.quoted(s) }
}
