import Foundation
import MapRuntime
import MapTestSupport
import MapTools
import MapcKit
import Testing

/// The fused chain's in-memory hand-off (`StoreFormat.readBack`, `Specs/migrate.md` §4), seen
/// through a format that counts what the chain asks of Core Data SQLite's and of JSON's: an empty store's
/// steps and a store with objects hand their results on in memory (one read, one write, the
/// rest handed on), and the result is the same bytes as with checkpoints, which write and read
/// every step's store. (What is not handed on: `ReadBackObjectsTests`.)
@Suite struct ChainHandOffTests {
  /// What a chain asked of the format.
  // @unchecked: the counts are read and written only under `lock`.
  final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    func count(_ what: String) { lock.withLock { counts[what, default: 0] += 1 } }
    var all: [String: Int] { lock.withLock { counts } }
  }

  /// `inner`, counting reads, writes and stores handed on.
  struct Counting: StoreFormat {
    var inner: any StoreFormat
    var calls: Calls
    var name: String { inner.name }
    func recognizes(prefix: [UInt8]) -> Bool { inner.recognizes(prefix: prefix) }
    func read(_ path: String, layout: StoreLayout, options: StoreReadOptions) throws(MigrationFailure)
      -> (ObjectGraph, StoreMetadata)
    {
      calls.count("read")
      return try inner.read(path, layout: layout, options: options)
    }
    func peekMetadata(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek {
      try inner.peekMetadata(path)
    }
    func write(
      _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, to target: String?,
      backup: String?, options: StoreWriteOptions
    ) throws(MigrationFailure) {
      calls.count("write")
      try inner.write(graph, source: source, metadata: metadata, to: target, backup: backup, options: options)
    }
    var forIntermediateStores: any StoreFormat { Counting(inner: inner.forIntermediateStores, calls: calls) }
    func readBack(
      _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, layout: StoreLayout, path: String,
      progress: (@Sendable (Int, Int) -> Void)?
    ) -> (ObjectGraph, StoreMetadata)? {
      let handed = inner.readBack(
        graph, source: source, metadata: metadata, layout: layout, path: path, progress: progress)
      calls.count(handed == nil ? "not handed on" : "handed on")
      return handed
    }
  }

  /// The Tasks chain (two inferred steps and a mapping) over `json`'s objects, as a store of
  /// `format` (`sqlite`: converted; `json`: as it is), fused and with checkpoints: what each
  /// asked of the format; the results the same bytes.
  static func run(_ json: String, in folder: TemporaryFolder, format name: String = "sqlite") throws -> (
    fused: [String: Int], checkpoints: [String: Int]
  ) {
    let bundle = "\(MigratorTests.mappings)/tasks/Tasks.xcdatamodeld"
    let versions = try ModelVersions.load(bundle: bundle)
    let format = try StoreFormatChoice.resolve(name, path: json)
    let store = "\(folder.path)/store.\(name)"
    if name == "sqlite" {
      _ = try StoreConverter().convert(
        .init(store: json, output: store, versions: versions, modelName: bundle, destination: format))
    } else {
      try FileManager.default.copyItem(atPath: json, toPath: store)
    }
    var options = try MigratorTests.tasksOptions(store: store)
    options.storeFormat = name
    guard case .steps(let steps) = try Migrator().prepare(options) else {
      Issue.record("expected steps to run")
      return ([:], [:])
    }
    let chain = steps.chain.steps.map {
      ChainRun.Step(plan: $0.plan, record: .string("step"), keepsObjectKeys: $0.inferred != nil)
    }
    var counts: [[String: Int]] = []
    for checkpoints in [false, true] {
      let calls = Calls()
      var run = ChainRun.Options(chainKey: "tasks", storeFormat: Counting(inner: format, calls: calls))
      run.output = "\(folder.path)/\(checkpoints ? "checkpoints" : "fused").\(name)"
      run.checkpoints = checkpoints
      try ChainRun.run(steps: chain, storePath: store, options: run)
      counts.append(calls.all)
    }
    let fused = try Data(contentsOf: URL(fileURLWithPath: "\(folder.path)/fused.\(name)"))
    #expect(fused == (try Data(contentsOf: URL(fileURLWithPath: "\(folder.path)/checkpoints.\(name)"))))
    return (counts[0], counts[1])
  }

  @Test(arguments: ["sqlite", "json"]) func anEmptyStoreIsHandedOnInMemory(_ format: String) throws {
    let folder = try TemporaryFolder()
    let json = "\(folder.path)/empty.json"
    let v1 = try MigratorTests.json("\(MigratorTests.mappings)/tasks/store-v1.json")
    let empty: NSDictionary = ["metadata": v1["metadata"]!, "objects": NSDictionary()]
    try JSONSerialization.data(withJSONObject: empty).write(to: URL(fileURLWithPath: json))
    let (fused, checkpoints) = try Self.run(json, in: folder, format: format)
    #expect(fused == ["read": 1, "handed on": 2, "write": 1])
    #expect(checkpoints == ["read": 3, "write": 3])
  }

  @Test(arguments: ["sqlite", "json"]) func aStoreWithObjectsIsHandedOnInMemory(_ format: String) throws {
    let folder = try TemporaryFolder()
    let (fused, checkpoints) = try Self.run("\(MigratorTests.mappings)/tasks/store-v1.json", in: folder, format: format)
    #expect(fused == ["read": 1, "handed on": 2, "write": 1])
    #expect(checkpoints == ["read": 3, "write": 3])
  }
}
