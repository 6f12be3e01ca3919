import Foundation
import MapCompiler
import MapJSON
import MapRuntime
import MapSQLite
import MapTestSupport
import Testing

/// A run lets go of the source store's objects before it writes the result, so that the write's
/// peak memory holds the destination and not both graphs (issue 41's peak RSS). Seen from the
/// outside: the source graph `checkSource` is shown is gone (its weak reference nil) by the time
/// the write reports progress. The stores written are the ones the run writes anyway, compared
/// with python3 where the format needs it.
@Suite struct SourceReleaseTests {
  /// What the callbacks saw, under a lock (they run on the run's threads).
  final class Watch: @unchecked Sendable {
    struct State {
      weak var source: ObjectGraph?
      var sawSource = false
      var writeReports = 0
      var sourceAliveDuringWrite = false
    }
    private var state = State()
    private let lock = NSLock()
    func update(_ change: (inout State) -> Void) { lock.withLock { change(&state) } }
    var snapshot: State { lock.withLock { state } }
  }

  static let count = 12_000

  func run(_ format: any StoreFormat, store: String, in dir: URL) throws -> Watch.State {
    let compiled = MappingCompilation.compile(mappingPath: dir.appendingPathComponent("m.xml").path)
    #expect(!compiled.diagnostics.hasErrors, "\(compiled.diagnostics)")
    let plan = try #require(compiled.plan)
    let out = dir.appendingPathComponent("out-\(format.name)").path
    var options = MigrationRun.Options(output: .file(out), storeFormat: format)
    let watch = Watch()
    options.checkSource = { graph in
      watch.update {
        $0.source = graph
        $0.sawSource = true
      }
    }
    options.ioProgress = { phase, _, _ in
      guard phase == .writeObjects || phase == .write else { return }
      watch.update {
        $0.writeReports += 1
        if $0.source != nil { $0.sourceAliveDuringWrite = true }
      }
    }
    let summary = try MigrationRun.run(plan: plan, storePath: store, options: options)
    #expect(summary.created.map(\.count).reduce(0, +) == Self.count)
    return watch.snapshot
  }

  @Test(arguments: ["json", "sqlite"]) func theSourceIsGoneBeforeTheWrite(_ kind: String) throws {
    let pets = (0..<Self.count).map { "{\"id\":\"x\($0)\",\"name\":\"Pet \($0)\"}" }.joined(separator: ",")
    let dir = try Hardening.folder("source-release", store: "{\"objects\":{\"Pet\":[\(pets)]}}")
    defer { FileManagerTemp.remove(dir.path) }
    var store = dir.appendingPathComponent("s.json").path
    let format: any StoreFormat
    if kind == "sqlite" {
      let sqlite = dir.appendingPathComponent("s.sqlite").path
      let version = try writeModelFolder(
        Hardening.sourceModel, named: "v1", in: dir.appendingPathComponent("b.xcdatamodeld"))
      // `store import` wants the store's version hashes.
      let metadata = try JSONSerialization.data(withJSONObject: try ModelBundles.storeMetadata(version))
      let withMetadata = "{\"metadata\":\(String(decoding: metadata, as: UTF8.self)),\"objects\":{\"Pet\":[\(pets)]}}"
      try withMetadata.write(toFile: store, atomically: false, encoding: .utf8)
      let imported = runMapc(["store", "import", store, "--model", "b.xcdatamodeld", "-o", sqlite, "--quiet"], in: dir)
      try #require(imported.exitCode == 0, "\(imported.stderr)")
      store = sqlite
      format = SQLiteStoreFormat()
    } else {
      format = JSONStoreFormat()
    }
    let state = try run(format, store: store, in: dir)
    #expect(state.sawSource)
    #expect(state.writeReports > 0)
    #expect(!state.sourceAliveDuringWrite)
  }
}
