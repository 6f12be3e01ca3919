import Foundation
import MapTestSupport
import Testing

/// Issue 41, chains that cost one step: `mapc migrate` runs its chain fused by default (each
/// step's result handed to the next through an unflushed scratch store in the temporary
/// folder), or with `--checkpoints` one step at a time through the work folder beside the store.
/// Both must give the same bytes: the stores are compared with `cmp` (and the files beside them,
/// external data included), and their rows as python3's sqlite3 reads them, on Wire's 80 steps
/// over an empty store made at 2.3 (SQLite and JSON), on every real store of `../shared/stores`
/// that has later versions in its bundle, and on a large Tasks JSON store through the
/// `Mappings/tasks` chain (two inferred steps and a mapping). Each fused run leaves nothing in
/// its temporary folder or beside the store.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct FusedChainTests {
  /// Every file under `folder` (hidden ones too) with its bytes, by path relative to it.
  static func files(_ folder: String) -> [String: Data] {
    var result: [String: Data] = [:]
    let fm = FileManager.default
    guard let walk = fm.enumerator(atPath: folder) else { return result }
    for case let name as String in walk {
      var isFolder: ObjCBool = false
      let path = folder + "/" + name
      guard fm.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
      result[name] = fm.contents(atPath: path)
    }
    return result
  }

  /// Whether `cmp` says the two files hold the same bytes.
  static func cmp(_ a: String, _ b: String) -> Bool {
    runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["cmp", a, b]).exitCode == 0
  }

  /// Every table's rows, `Z_METADATA` included, as python3's sqlite3 reads them.
  static func rows(_ path: String) -> String {
    runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        """
        import sqlite3,sys,hashlib
        db=sqlite3.connect(sys.argv[1])
        for (t,) in sorted(db.execute("SELECT name FROM sqlite_master WHERE type='table'")):
            rows=[repr(r) for r in db.execute('SELECT * FROM "%s" ORDER BY rowid' % t)]
            print(t, len(rows), hashlib.sha256('\\n'.join(rows).encode()).hexdigest())
        """,
        path,
      ]
    ).stdout
  }

  struct Outcome {
    var exitCode: Int32
    var stderr: String
    /// The files of the output folder (the result and whatever is beside it).
    var files: [String: Data]
    var result: String
  }

  /// Migrates `store` (copied into a folder of its own) with `--output`, fused or with
  /// `--checkpoints`, `TMPDIR` a folder that must be empty afterwards.
  static func migrate(
    _ store: String, model: String, extra: [String], checkpoints: Bool, in dir: URL
  ) throws -> Outcome {
    let name = checkpoints ? "checkpoints" : "fused"
    let folder = dir.appendingPathComponent(name)
    let temporary = dir.appendingPathComponent(name + "-tmp")
    for f in [folder, temporary] { try FileManager.default.createDirectory(at: f, withIntermediateDirectories: true) }
    // The store with its companions and its external data folder (Core Data SQLite's).
    let storeName = URL(fileURLWithPath: store).lastPathComponent
    let input = folder.appendingPathComponent("in-" + storeName).path
    let storeFolder = URL(fileURLWithPath: store).deletingLastPathComponent().path
    var copied: [String] = []
    for (from, to) in [("", ""), ("-wal", "-wal"), ("-shm", "-shm")].map({ (store + $0.0, input + $0.1) })
      + [(storeFolder + "/.\(storeName)_SUPPORT", folder.path + "/.in-\(storeName)_SUPPORT")]
    where FileManager.default.fileExists(atPath: from) {
      try FileManager.default.copyItem(atPath: from, toPath: to)
      copied.append(URL(fileURLWithPath: to).lastPathComponent)
    }
    let out = dir.appendingPathComponent(name + "-out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let result = out.appendingPathComponent("result" + (store.hasSuffix(".json") ? ".json" : ".sqlite")).path
    let r = runMapc(
      ["migrate", "--model", model, "--store", input, "--output", result, "--quiet"] + extra
        + (checkpoints ? ["--checkpoints"] : []),
      environment: ["TMPDIR": temporary.path])
    #expect(Self.files(temporary.path).isEmpty, "\(name) left \(Self.files(temporary.path).keys.sorted())")
    // The store may lose its -wal and -shm (SQLite folds them in when it opens it); nothing is added.
    let beside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(Set(beside).isSubset(of: copied), "\(name) left \(beside)")
    return Outcome(exitCode: r.exitCode, stderr: r.stderr, files: Self.files(out.path), result: result)
  }

  /// Migrates `store` fused and with checkpoints and expects the same outcome; returns the
  /// exit code and the steps mapc reported.
  @discardableResult
  static func fusedIsStepByStep(_ store: String, model: String, extra: [String] = []) throws -> Int32 {
    let dir = try FileManagerTemp.folder("fused-chain")
    defer { FileManagerTemp.remove(dir.path) }
    let fused = try migrate(store, model: model, extra: extra, checkpoints: false, in: dir)
    let stepped = try migrate(store, model: model, extra: extra, checkpoints: true, in: dir)
    #expect(
      fused.exitCode == stepped.exitCode, "fused: \(fused.stderr.suffix(1500))\nstepped: \(stepped.stderr.suffix(1500))"
    )
    guard fused.exitCode == 0, stepped.exitCode == 0 else { return fused.exitCode }
    #expect(cmp(fused.result, stepped.result), "\(store): the fused result differs from the step-by-step one")
    #expect(fused.files.keys.sorted() == stepped.files.keys.sorted())
    #expect(fused.files == stepped.files)
    if !fused.result.hasSuffix(".json") {
      let rows = Self.rows(fused.result)
      #expect(!rows.isEmpty)
      #expect(rows == Self.rows(stepped.result))
    }
    return fused.exitCode
  }

  @Test func aLargeTasksStoreThroughTwoInferredStepsAndAMapping() throws {
    let dir = try FileManagerTemp.folder("fused-tasks")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("tasks.json").path
    try MigrateKillTests.writeStore(store, count: 3000)
    let code = try Self.fusedIsStepByStep(
      store, model: MigrateChainTests.bundle, extra: ["--mappings", MigrateChainTests.mappings])
    #expect(code == 0)
  }

  @Test func aDryRunWritesNothing() throws {
    let dir = try FileManagerTemp.folder("fused-dry-run")
    defer { FileManagerTemp.remove(dir.path) }
    let store = dir.appendingPathComponent("tasks.json").path
    try MigrateKillTests.writeStore(store, count: 200)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let temporary = dir.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let r = runMapc(
      [
        "migrate", "--model", MigrateChainTests.bundle, "--store", store, "--mappings", MigrateChainTests.mappings,
        "--dry-run",
      ],
      environment: ["TMPDIR": temporary.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("dry run of 3 steps"), "\(r.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["tasks.json", "tmp"])
    #expect(Self.files(temporary.path).isEmpty)
  }
}

/// The same on the real stores of `../shared/stores`.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct FusedChainRealStoreTests {
  /// The first store of each bundle and version that has a later version to go to.
  static let stores: [RealStore] = {
    var seen: Set<String> = []
    return RealStore.all.filter { s in
      !s.store.path.contains("/v2CorruptDatabase/") && seen.insert(s.bundle.path + "\u{0}" + s.version).inserted
        && !StepBackRealStoreTests.later(s.version, in: s.bundle).isEmpty
    }
  }()

  /// Stores whose chain to the current version cannot be inferred fail the same way (exit 1).
  @Test(arguments: stores) func fusedIsStepByStep(_ store: RealStore) throws {
    let code = try FusedChainTests.fusedIsStepByStep(
      store.store.path, model: store.bundle.path, extra: ["--allow-data-loss"])
    print("fused chain of \(store.testDescription): exit \(code)")
  }

  /// DuckDuckGo's Bookmarks V1 → V5 (four steps) and apptentive's ATDataModel 2 → 4 (two steps;
  /// Core Data cannot infer the step after 4, nor the one before 2) are among them, and migrate.
  @Test func theMultiStepChainsAreThere() throws {
    let names = Set(Self.stores.map(\.store.lastPathComponent))
    #expect(names.contains("Bookmarks_V1.sqlite"))
    #expect(names.contains("ATDataModelv2.sqlite"))
    let bookmarks = try #require(Self.stores.first { $0.store.lastPathComponent == "Bookmarks_V1.sqlite" })
    let code = try FusedChainTests.fusedIsStepByStep(
      bookmarks.store.path, model: bookmarks.bundle.path, extra: ["--allow-data-loss"])
    #expect(code == 0)
    let apptentive = try #require(Self.stores.first { $0.store.lastPathComponent == "ATDataModelv2.sqlite" })
    let toFour = try FusedChainTests.fusedIsStepByStep(
      apptentive.store.path, model: apptentive.bundle.path, extra: ["--allow-data-loss", "--to", "ATDataModel 4"])
    #expect(toFour == 0)
  }

  /// The same two chains over the stores exported to JSON (`mapc store export`): Transformable
  /// values (apptentive's) and numbers kept from Core Data handed on in memory, the result the
  /// same bytes as with checkpoints.
  @Test func theMultiStepChainsAsJSON() throws {
    let dir = try FileManagerTemp.folder("fused-json")
    defer { FileManagerTemp.remove(dir.path) }
    for (name, extra) in [
      ("Bookmarks_V1.sqlite", ["--allow-data-loss"]),
      ("ATDataModelv2.sqlite", ["--allow-data-loss", "--to", "ATDataModel 4"]),
    ] {
      let store = try #require(Self.stores.first { $0.store.lastPathComponent == name })
      let json = dir.appendingPathComponent(name + ".json").path
      let e = runMapc(["store", "export", store.store.path, "--model", store.bundle.path, "-o", json])
      try #require(e.exitCode == 0, "\(e.stderr)")
      #expect(try FusedChainTests.fusedIsStepByStep(json, model: store.bundle.path, extra: extra) == 0, "\(name)")
    }
  }

  /// Wire's 80 steps over an empty store made at 2.3, as a Core Data SQLite store and as a JSON
  /// store (as `WireHistoryTests` makes it).
  @Test(arguments: ["sqlite", "json"]) func wiresEmptyStoreAt2_3(_ format: String) throws {
    let dir = try FileManagerTemp.folder("fused-wire")
    defer { FileManagerTemp.remove(dir.path) }
    let version = WireHistoryTests.bundle + "/zmessaging2.3.xcdatamodel"
    let json = dir.appendingPathComponent("e.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": try ModelBundles.storeMetadata(URL(fileURLWithPath: version)), "objects": [String: Any](),
    ]).write(to: json)
    var store = json.path
    if format == "sqlite" {
      store = dir.appendingPathComponent("e.sqlite").path
      let i = runMapc(["store", "import", json.path, "--model", WireHistoryTests.bundle, "-o", store])
      try #require(i.exitCode == 0, "\(i.stderr)")
    }
    let code = try FusedChainTests.fusedIsStepByStep(
      store, model: WireHistoryTests.bundle, extra: ["--allow-data-loss"])
    #expect(code == 0)
  }

  /// Wire's 2.80.0 store (one of the stores above, named here).
  @Test func wires2_80_0Store() throws {
    let code = try FusedChainTests.fusedIsStepByStep(
      WireHistoryTests.store, model: WireHistoryTests.bundle, extra: ["--allow-data-loss"])
    #expect(code == 0)
  }
}
