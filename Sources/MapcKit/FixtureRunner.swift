#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import MapCompiler
import MapModelReader
import MapRuntime
import MapSQLite
import MapTools

/// Runs the cases of fixture files (what `mapc test` runs, Specs/test-fixtures.md §2): each one
/// as the user would, by a `mapc` executable in a child process (`run` for a mapping, `migrate`
/// for a chain) on a copy in a temporary folder, so that a case's exit status and standard error
/// are exactly a user's, a crash fails only that case, and the fixture's files are never written
/// (unless ``update``). Then the store it wrote is compared with the expected one.
public struct FixtureRunner: Sendable {
  /// The `mapc` executable that runs the cases (an app's own executable that registers its
  /// policies and runs `MapcCommand.main()` is one too).
  public var executable: String
  /// Where `sharedMapping` paths start.
  public var shared: String
  /// Write expected stores from today's results.
  public var update: Bool

  /// The folder of this run (`mapc-test-pid<PID>-<UUID>` in the temporary folder), holding one
  /// folder per case while it runs; made, registered for removal on a signal and removed by
  /// ``withWorkRoot(_:)``.
  public var workRoot: String

  /// What reading a chain fixture's model says (the notes and warnings of a SwiftData schema).
  public var modelMessages: ModelSource.Messages

  /// The memory one case may take, in bytes: its run (the child's `--memory-limit`, unless the
  /// case gives one) and then the comparison of its result, which goes a chunk at a time
  /// (`StreamingComparison`) when the two stores do not fit it in memory. `mapc test` gives
  /// each of its lanes an equal share of its `--memory-limit`.
  public var memoryLimit: Int

  /// A runner of cases by `executable` in `workRoot`, each within `memoryLimit` bytes (default:
  /// `--memory-limit`'s default).
  public init(
    executable: String, shared: String, update: Bool = false, workRoot: String,
    memoryLimit: Int? = nil, modelMessages: @escaping ModelSource.Messages = { _ in }
  ) {
    self.executable = executable
    self.shared = shared
    self.update = update
    self.workRoot = workRoot
    self.memoryLimit = max(memoryLimit ?? Limits.defaultMemoryLimit, Limits.smallestMemoryLimit)
    self.modelMessages = modelMessages
  }

  /// Makes the run's work folder, runs `body` with it, and removes it; SIGINT, SIGTERM and
  /// SIGHUP end the children and remove it whole (TemporaryFiles).
  public static func withWorkRoot<T>(_ body: (String) throws -> T) throws -> T {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(workPrefix)\(getpid())-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    TemporaryFiles.registerFolder(root)
    defer { TemporaryFiles.removeFolder(root) }
    return try body(root)
  }

  /// The outcome of one case (cases may run at the same time, each in a folder of its own).
  public func run(_ fixture: FixtureFile, _ c: FixtureFile.Case) -> FixtureResult.Outcome {
    let work = workRoot + "/case-" + UUID().uuidString
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
    let child = launch(
      ["run", mapping, "--store", store, "--output", out, "--quiet"] + c.arguments + memoryArguments(c), work: work)
    var problems: [String] = []
    if Self.contents(store) != before { problems.append("the input store \(store) changed") }
    guard let expected = c.expected else {
      return .failed(problems + failure(child, c, wrote: FileManager.default.fileExists(atPath: out) ? out : nil))
        .orPassed
    }
    guard child.status == 0 else { return .failed(problems + Self.unexpectedExit(child)) }
    let compiled = Self.destinationModel(of: mapping)
    guard let model = compiled.model else { return .failed(problems + compiled.problems) }
    return compare(
      out, expected: fixture.resolve(expected), model: model, schema: nil, problems: problems, work: work,
      inputs: Inputs(
        fixture: fixture,
        paths: [(store, .store), (mapping, .file)] + Self.modelPaths(ofMapping: mapping).map { ($0, .file) }))
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
    let child = launch(arguments + c.arguments + memoryArguments(c), work: work)
    guard let expected = c.expected else {
      var problems = failure(child, c, wrote: nil)
      if Self.contents(copy) != before { problems.append("the failed migration changed the store") }
      return .failed(problems).orPassed
    }
    guard child.status == 0 else { return .failed(Self.unexpectedExit(child)) }
    let versions: ModelVersions
    do {
      versions = try ModelSource([model]).versions(messages: modelMessages)
    } catch {
      return .failed(error.diagnostics.map(\.description))
    }
    let target = c.to.flatMap { versions.index(named: $0) } ?? versions.current
    return compare(
      copy, expected: fixture.resolve(expected), model: versions.versions[target].model,
      schema: versions.versions[target], problems: [], coreData: c.coreDataStore.map(fixture.resolve), work: work,
      inputs: Inputs(
        fixture: fixture, paths: [(store, .store), (model, .file)] + (mappings.map { [($0, .file)] } ?? [])))
  }

  /// `--memory-limit` with the case's share (`memoryLimit`), unless the case gives its own.
  func memoryArguments(_ c: FixtureFile.Case) -> [String] {
    let given = c.arguments.contains { $0 == "--memory-limit" || $0.hasPrefix("--memory-limit=") }
    return given ? [] : ["--memory-limit", String(memoryLimit)]
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
    _ got: String, expected: String, model: ObjectModel, schema version: ModelVersion?, problems: [String],
    coreData: String? = nil, work: String, inputs: Inputs
  ) -> FixtureResult.Outcome {
    var problems = problems
    if let coreData {
      problems += Self.coreDataSchemaProblems(got, coreData: coreData)
    } else if let version {
      problems += Self.schemaProblems(got, version: version)
    }
    let layout = StoreLayout(model: model)
    let exists = FileManager.default.fileExists(atPath: expected)
    let stores = ([got] + (exists ? [expected] : [])).map {
      (bytes: MigrationRun.fileSize($0) ?? 0, format: StoreFormatChoice.detect($0))
    }
    let comparison: Comparison
    if StreamingComparison.isNeeded(stores, limit: memoryLimit) {
      comparison = compareInChunks(got, expected: exists ? expected : nil, layout: layout, work: work)
    } else {
      comparison = compareInMemory(got, expected: exists ? expected : nil, layout: layout)
    }
    var differences: [String] = []
    switch comparison {
    case .unreadable(let lines): return .failed(problems + lines)
    case .unreadableExpected(let lines):
      if !update { return .failed(problems + lines) }
      differences = ["unreadable"]
    case .compared(let result):
      if !exists {
        if !update {
          return .failed(problems + ["the expected store \(expected) does not exist (--update writes it)"])
        }
        differences = ["missing"]
      } else {
        differences = result.differences.map(\.description)
        if result.truncated { differences.append("(more differences not shown)") }
      }
    }
    if update && !differences.isEmpty && problems.isEmpty {
      if let refusal = Self.updateRefusal(expected, inputs: inputs) { return .failed([refusal]) }
      do {
        try Self.writeExpected(got, to: expected, model: model, limit: memoryLimit)
        return .updated(expected)
      } catch {
        return .failed(["cannot write \(expected):"] + error.errors.map { "  " + $0.description })
      }
    }
    return .failed(problems + differences).orPassed
  }

  /// How a comparison went.
  enum Comparison {
    /// The result cannot be read (the lines say why).
    case unreadable([String])
    /// The expected store cannot be read.
    case unreadableExpected([String])
    /// The differences (none when there is no expected store).
    case compared((differences: [GraphComparison.Difference], truncated: Bool))
  }

  /// Both stores read whole, then compared (`GraphComparison`).
  private func compareInMemory(_ got: String, expected: String?, layout: StoreLayout) -> Comparison {
    let read = { (path: String) throws(MigrationFailure) -> ObjectGraph in
      try StoreFormatChoice.detect(path).read(path, layout: layout, options: StoreReadOptions()).0
    }
    let gotGraph: ObjectGraph
    do {
      gotGraph = try read(got)
    } catch {
      return .unreadable(Self.unreadable(got: error))
    }
    guard let expected else { return .compared(([], false)) }
    do {
      return .compared(GraphComparison.differences(expected: try read(expected), got: gotGraph))
    } catch {
      return .unreadableExpected(Self.unreadable(expected, error))
    }
  }

  /// Both stores read a chunk at a time into a spill in the case's folder, then compared
  /// through it (`StreamingComparison`): the same differences, within `memoryLimit`.
  private func compareInChunks(_ got: String, expected: String?, layout: StoreLayout, work: String) -> Comparison {
    let scratch = work + "/compare"
    let comparison: StreamingComparison
    do {
      try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
      let spill = try ComparisonSpillDatabase(folder: scratch, cacheKiB: min(max(memoryLimit / 16 / 1024, 512), 65_536))
      comparison = StreamingComparison(layout: layout, limit: memoryLimit, scratch: scratch, spill: spill)
    } catch let error as MigrationFailure {
      return .unreadable(["cannot compare the migrated store:"] + error.errors.map { "  " + $0.description })
    } catch {
      return .unreadable(["cannot make a temporary folder: \(SystemErrorText.describe(error))"])
    }
    do {
      try comparison.add(.got, path: got, format: StoreFormatChoice.detect(got))
    } catch {
      return .unreadable(Self.unreadable(got: error))
    }
    guard let expected else { return .compared(([], false)) }
    do {
      try comparison.add(.expected, path: expected, format: StoreFormatChoice.detect(expected))
    } catch {
      return .unreadableExpected(Self.unreadable(expected, error))
    }
    do {
      return .compared(try comparison.differences())
    } catch {
      return .unreadable(["cannot compare the migrated store:"] + error.errors.map { "  " + $0.description })
    }
  }

  static func unreadable(got error: MigrationFailure) -> [String] {
    ["the migrated store cannot be read:"] + error.errors.map { "  " + $0.description }
  }

  static func unreadable(_ expected: String, _ error: MigrationFailure) -> [String] {
    ["the expected store \(expected) cannot be read:"] + error.errors.map { "  " + $0.description }
  }

  /// What a case reads: the fixture file, and its store, mapping or model and mappings.
  struct Inputs {
    var fixture: FixtureFile
    var paths: [(String, OutputTarget.InputKind)]
  }

  /// Why `--update` may not write `expected`, or nil (Specs/test-fixtures.md §3). A path that
  /// comes from a fixture file must resolve, after links, inside that file's folder; it may not
  /// be an input of the case (by device and inode, or real path: the store and its companions,
  /// the mapping, the model, the fixture file), nor anything but a regular file.
  static func updateRefusal(_ expected: String, inputs: Inputs) -> String? {
    let folder = OutputTarget.realPath(inputs.fixture.folder) ?? inputs.fixture.folder
    guard let real = OutputTarget.realPath(expected), real.hasPrefix(folder == "/" ? "/" : folder + "/") else {
      return
        "--update writes only inside the fixture's folder \(inputs.fixture.folder): the expected store \(expected) resolves outside it"
    }
    var files = OutputTarget()
    files.reads(inputs.fixture.path, as: "fixture file")
    for (path, kind) in inputs.paths { files.reads(path, as: kind == .store ? "store" : "input", kind: kind) }
    files.writes(expected, option: "the expected store", kind: .replacedStore)
    if let clash = files.clash() { return "--update: \(clash.message)" }
    return nil
  }

  /// The result written as the expected store, in the format its name says (`.json`: JSON;
  /// `.sqlite`, `.sqlite3`, `.db`, `.store`: Core Data SQLite; otherwise the existing file's,
  /// else the result's), replaced atomically (a link keeps pointing where it did).
  /// A result larger than `limit` allows in memory is copied or converted a chunk at a time.
  static func writeExpected(_ got: String, to expected: String, model: ObjectModel, limit: Int)
    throws(MigrationFailure)
  {
    let formats = StoreFormatChoice.formats
    let source = StoreFormatChoice.detect(got)
    let ext = (expected as NSString).pathExtension.lowercased()
    let destination: any StoreFormat =
      ext == "json"
      ? StoreFormats.named("json", among: formats)!
      : ["sqlite", "sqlite3", "db", "store"].contains(ext)
        ? StoreFormats.named("sqlite", among: formats)!
        : FileManager.default.fileExists(atPath: expected) ? StoreFormatChoice.detect(expected) : source
    let same = type(of: source) == type(of: destination)
    // A JSON result is copied byte for byte (it is what a user's run writes).
    if same, source.isCopiedAsBytes {
      do {
        try AtomicFileWriter.replaceContents(of: expected, withFile: got)
      } catch {
        throw MigrationFailure(error, file: expected)
      }
      return
    }
    let layout = StoreLayout(model: model)
    func metadataOut(_ metadata: StoreMetadata) -> StoreWriteMetadata {
      StoreWriteMetadata(
        modelVersionIdentifiers: metadata.modelVersionIdentifiers ?? model.versionIdentifiers,
        entityHashes: VersionHasher.entityHashes(of: model), extra: metadata.extra)
    }
    let chunked = try StreamingConversion.convertIfNeeded(
      .init(
        store: got, output: expected, source: source, destination: destination, layout: layout, limit: limit,
        metadata: metadataOut, bookkeepingFrom: same ? got : nil, report: nil))
    if chunked != nil { return }
    let (graph, metadata) = try StoreIO.read(source, got, layout: layout, report: nil)
    try StoreIO.write(
      destination, graph, source: nil, metadata: metadataOut(metadata), to: expected, backup: nil, report: nil,
      bookkeepingFrom: same ? got : nil)
  }

  /// A chain case that names a store Core Data wrote: the result's `sqlite_master` rows (type,
  /// name, table and SQL) must be that store's (Specs/test-fixtures.md).
  static func coreDataSchemaProblems(_ path: String, coreData: String) -> [String] {
    do {
      let differences = CoreDataSchemaSnapshot.differences(
        expected: try CoreDataSchemaSnapshot.lines(ofStoreAt: coreData),
        got: try CoreDataSchemaSnapshot.lines(ofStoreAt: path))
      guard !differences.isEmpty else { return [] }
      return [
        "schema: the migrated store's schema is not that of \(coreData), which Core Data wrote (- Core Data's, + mapc's):"
      ]
        + differences.map { "  " + $0 }
    } catch {
      return ["schema: cannot compare with \(coreData): " + (error.errors.first?.description ?? "")]
    }
  }

  /// How the work folders of cases start: `mapc-test-pid<pid>-<uuid>` in the temporary folder.
  static let workPrefix = "mapc-test-pid"

  /// Work folders that runs killed beyond any handler (SIGKILL) left: their process gone, owned
  /// by this user. Removed; returns how many.
  @discardableResult
  public static func removeStaleWork() -> Int {
    let folder = FileManager.default.temporaryDirectory.path
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
    var removed = 0
    for name in names where name.hasPrefix(workPrefix) {
      let rest = name.dropFirst(workPrefix.count)
      guard let pid = pid_t(rest.prefix { $0 != "-" }), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      var info = stat()
      let path = folder + "/" + name
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { continue }
      if (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
    }
    return removed
  }

  /// A chain's result must have the schema of a new store of its version: the version's entity
  /// hashes, and for SQLite the tables, columns and indexes an empty store of it has, written
  /// as the Core Data its metadata records writes it.
  static func schemaProblems(_ path: String, version: ModelVersion) -> [String] {
    let format = StoreFormatChoice.detect(path)
    var problems: [String] = []
    do {
      let metadata = try format.peekMetadata(path)
      let hashes = metadata.entityVersionHashes ?? [:]
      if hashes != version.base64Hashes {
        let names = Set(hashes.keys).union(version.base64Hashes.keys).filter { hashes[$0] != version.base64Hashes[$0] }
        problems.append(
          "schema: the store's entity version hashes differ from version '\(version.name)' in \(names.sorted().joined(separator: ", "))"
        )
      }
      guard let got = try format.schema(path) else { return problems }
      let fresh = PathText.folder(of: path) + "/fresh-install." + format.name
      let graph = ObjectGraph(layout: StoreLayout(model: version.model), input: nil, isSource: false)
      try format.write(
        graph, source: nil,
        metadata: StoreWriteMetadata(
          modelVersionIdentifiers: version.model.versionIdentifiers, entityHashes: version.hashes,
          // A fresh install by the Core Data the result records (a store migrated from one an
          // older Core Data wrote keeps that layout, Specs/sqlite-store.md).
          extra: metadata.writtenBy),
        to: fresh, backup: nil, options: StoreWriteOptions())
      let differences = got.differences(from: try format.schema(fresh) ?? StoreSchema(lines: []))
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

  /// The model files a mapping reads (the `.xcdatamodel` folders its two models come from), for
  /// the inputs a case must not write over; none when it does not compile (the case says why).
  public static func modelPaths(ofMapping mapping: String) -> [String] {
    guard PlanSource.isMapping(mapping),
      let plan = MappingCompilation.compile(mappingPath: mapping).plan
    else { return [] }
    return [plan.sourceModel.path, plan.destinationModel.path].compactMap { $0 }.map {
      ($0 as NSString).lastPathComponent == "contents" ? PathText.folder(of: $0) : $0
    }
  }

  /// The destination model of a mapping, compiled in memory (or of a plan, read).
  static func destinationModel(of mapping: String) -> (model: ObjectModel?, problems: [String]) {
    do {
      return (try PlanSource.load(mapping).plan.destinationModel, [])
    } catch .input(let groups, _) {
      return (nil, groups.joined().filter { $0.severity == .error }.map(\.description))
    } catch {
      return (nil, [error.description])
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

  typealias Child = ChildMapc.Finished

  /// Runs this program with `arguments` in `work`, standard error to a file there.
  func launch(_ arguments: [String], work: String) -> Child {
    ChildMapc.run(executable: executable, arguments, stderrPath: work + "/stderr.txt")
  }

  /// This program's path (`/proc/self/exe` where there is one).
  public static func currentExecutable() -> String {
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
