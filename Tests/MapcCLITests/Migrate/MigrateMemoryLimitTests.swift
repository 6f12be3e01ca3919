import Foundation
import MapTestSupport
import Testing

/// `mapc migrate --memory-limit` on a Core Data SQLite store: a chain of one inferred step goes a
/// chunk at a time and writes the bytes of the run in memory, its objects keeping their `Z_PK`,
/// `Z_OPT` and the store's `Z_MAX` (checked against the source with python3's sqlite3); losses
/// are refused the same way; a chain of two steps goes a chunk at a time step by step; a JSON
/// store goes a chunk at a time too.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: python3 != nil, "python3 is needed to edit the stores and read them"))
struct MigrateMemoryLimitTests {
  /// Version `v` of a model: `Item` stands alone (it streams); `Note` and `Tag` are related (read
  /// whole). `Item` gains `extra` in V2; V3 drops `title` (a loss).
  static func version(_ v: Int) -> String {
    let title = v < 3 ? "<attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>" : ""
    let extra = v >= 2 ? "<attribute name=\"extra\" optional=\"YES\" attributeType=\"String\"/>" : ""
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Item">\(title)<attribute name="n" attributeType="Integer 64" defaultValueString="0"/>\(extra)</entity>
      <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/>\
      <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="note" inverseEntity="Tag"/></entity>
      <entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/>\
      <relationship name="note" optional="YES" maxCount="1" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/></entity>
      </model>

      """
  }

  /// A bundle of `versions` (V1 → V2, or V1 → V2 → V3) and an SQLite store at V1 of 3,000
  /// items, 20 notes with 3 tags each, edited with python3's sqlite3: items deleted (gaps in
  /// `Z_PK`, and none near `Z_MAX`), some `Z_OPT` raised. Returns the store's path.
  static func store(_ dir: URL, versions: Int, current: Int? = nil, count: Int = 3000) throws -> String {
    let bundle = try ModelBundles.bundle(
      versions: (1...versions).map { ("V\($0)", version($0)) }, named: "C", in: dir, current: "V\(current ?? versions)")
    let metadata = try ModelBundles.storeMetadata(bundle, version: "V1")
    let items = (1...count).map {
      ["id": "Item/\($0)", "title": "item \($0), some text to fill the row", "n": $0] as [String: Any]
    }
    let notes = (1...20).map { n in
      ["id": "Note/\(n)", "text": "note \(n)", "tags": (0..<3).map { "Tag/\($0 * 20 + n)" }] as [String: Any]
    }
    let tags = (1...60).map {
      ["id": "Tag/\($0)", "label": "tag \($0)", "note": "Note/\(($0 - 1) % 20 + 1)"] as [String: Any]
    }
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": metadata, "objects": ["Item": items, "Note": notes, "Tag": tags],
    ]).write(to: json)
    let store = dir.appendingPathComponent("s.sqlite").path
    let imported = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let edit =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + "c.execute('DELETE FROM ZITEM WHERE Z_PK % 7 = 0 OR Z_PK > \(count - 10)')\n"
      + "c.execute('UPDATE ZITEM SET Z_OPT = 3 WHERE Z_PK % 5 = 0')\nc.commit()\n"
    let r = runTool(python3!, ["-c", edit, store])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return store
  }

  /// The rows python3's sqlite3 reads: `Z_PK`, `Z_OPT` and the values of every item, and
  /// `Z_MAX` per entity.
  static func keysAndValues(_ path: String, item columns: String) -> String {
    let script =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + "print(c.execute('SELECT \(columns) FROM ZITEM ORDER BY Z_PK').fetchall())\n"
      + "print(c.execute('SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_NAME').fetchall())\n"
    return runTool(python3!, ["-c", script, path]).stdout
  }

  func migrate(_ dir: URL, _ store: String, _ out: String, _ extra: [String]) -> MapcResult {
    runMapc(
      ["migrate", "--model", dir.appendingPathComponent("C.xcdatamodeld").path, "--store", store, "--output", out]
        + extra)
  }

  @Test func oneInferredStepGoesInChunksWithTheBytesOfTheRunInMemory() throws {
    let dir = try FileManagerTemp.folder("migrate-memory-limit")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, versions: 2)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = migrate(dir, store, whole, [])
    try #require(a.exitCode == 0, "\(a.stderr)")
    #expect(!a.stderr.contains("chunk"))
    for limit in ["16K", "64K"] {
      let out = dir.appendingPathComponent("chunks-\(limit).sqlite").path
      let b = migrate(dir, store, out, ["--memory-limit", limit])
      #expect(b.exitCode == 0, "\(b.stderr)")
      #expect(b.stderr.contains("chunks (--memory-limit)"), "\(b.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    }
    // A step back (V2 → V1, which drops `extra`) goes in chunks too.
    let back = ["back.sqlite", "back-chunks.sqlite"].map { dir.appendingPathComponent($0).path }
    for (path, extra) in zip(back, [[String](), ["--memory-limit", "16K"]]) {
      let r = migrate(dir, whole, path, ["--to", "V1", "--allow-data-loss"] + extra)
      #expect(r.exitCode == 0, "\(r.stderr)")
      #expect(r.stderr.contains("chunks (--memory-limit)") == !extra.isEmpty, "\(r.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: back[0])) == Data(contentsOf: URL(fileURLWithPath: back[1])))
    // The objects kept their numbers and versions, the entities their Z_MAX: as python3 reads
    // the source, with the new attribute empty.
    let source = Self.keysAndValues(store, item: "Z_PK, Z_OPT, ZTITLE, ZN, NULL")
    #expect(source.contains("(2988, 1, 'item 2988"))
    #expect(source.contains("('Item', 3000)"))
    #expect(Self.keysAndValues(whole, item: "Z_PK, Z_OPT, ZTITLE, ZN, ZEXTRA") == source, "rows differ")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    // A dry run in chunks writes nothing.
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    let d = runMapc([
      "migrate", "--model", dir.appendingPathComponent("C.xcdatamodeld").path, "--store", store, "--memory-limit",
      "16K", "--dry-run",
    ])
    #expect(d.exitCode == 0, "\(d.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == files)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  @Test func aLossIsRefusedInChunksAsInMemoryAndTakenWithConsent() throws {
    let dir = try FileManagerTemp.folder("migrate-memory-limit-loss")
    defer { FileManagerTemp.remove(dir.path) }
    // V1 → V2 → V3 with V3 current; the store taken to V2 first, so that V2 → V3 is one step.
    let v1 = try Self.store(dir, versions: 3, current: 2)
    let store = dir.appendingPathComponent("v2.sqlite").path
    try #require(migrate(dir, v1, store, ["--to", "V2"]).exitCode == 0)
    let out = dir.appendingPathComponent("out.sqlite").path
    let a = migrate(dir, store, out, ["--to", "V3"])
    let b = migrate(dir, store, out, ["--to", "V3", "--memory-limit", "16K"])
    #expect(a.exitCode == 2, "\(a.stderr)")
    #expect(a.stderr.contains("[migrate-data-loss]"), "\(a.stderr)")
    #expect(b.exitCode == 2)
    #expect(b.stderr == a.stderr, "\(b.stderr.prefix(600))")
    #expect(!FileManager.default.fileExists(atPath: out))
    // `mapc run` with the inferred mapping checks its chunks the same way.
    let bundle = dir.appendingPathComponent("C.xcdatamodeld").path
    let mapping = dir.appendingPathComponent("m.xml").path
    let inferred = runMapc([
      "infer", bundle, bundle, "--source-version", "V2", "--destination-version", "V3", "--output", mapping,
    ])
    try #require(inferred.exitCode == 0, "\(inferred.stderr)")
    let runs = [[String](), ["--memory-limit", "16K"]].map {
      runMapc(["run", mapping, "--store", store, "--output", out, "--quiet"] + $0)
    }
    #expect(runs[0].exitCode == 2, "\(runs[0].stderr)")
    #expect(runs[0].stderr.contains("Item.title: \(2563) values"), "\(runs[0].stderr.prefix(600))")
    #expect(runs[1].exitCode == 2)
    #expect(runs[1].stderr == runs[0].stderr, "\(runs[1].stderr.prefix(600))")
    #expect(!FileManager.default.fileExists(atPath: out))
    let whole = dir.appendingPathComponent("whole.sqlite").path
    try #require(migrate(dir, store, whole, ["--to", "V3", "--allow-data-loss"]).exitCode == 0)
    let c = migrate(dir, store, out, ["--to", "V3", "--allow-data-loss", "--memory-limit", "16K"])
    #expect(c.exitCode == 0, "\(c.stderr)")
    #expect(c.stderr.contains("chunks (--memory-limit)"), "\(c.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: whole)))
  }

  @Test(arguments: [false, true]) func twoStepsGoInChunksStepByStep(_ checkpoints: Bool) throws {
    let dir = try FileManagerTemp.folder("migrate-memory-limit-chain")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, versions: 3)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let extra = ["--allow-data-loss"] + (checkpoints ? ["--checkpoints"] : [])
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = migrate(dir, store, whole, extra)
    try #require(a.exitCode == 0, "\(a.stderr)")
    let out = dir.appendingPathComponent("out.sqlite").path
    let b = migrate(dir, store, out, extra + ["--memory-limit", "16K"])
    #expect(b.exitCode == 0, "\(b.stderr)")
    // Each step reads and writes the store a chunk at a time.
    let steps = b.stderr.split(separator: "\n").filter { $0.hasPrefix("mapc: step ") }
    #expect(steps.count == 2 && steps.allSatisfy { $0.contains("chunks (--memory-limit)") }, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.isEmpty,
      "a work folder or temporary file was left")
  }

  /// The inferred step over the JSON store: its items stream (their ids give their numbers), and
  /// so do its notes and tags, related to each other, with stubs (`JSONStubChunksTests`): at 16K
  /// and at 256K the bytes of the step in memory.
  @Test func aJSONStoreGoesInChunks() throws {
    let dir = try FileManagerTemp.folder("migrate-memory-limit-json")
    defer { FileManagerTemp.remove(dir.path) }
    _ = try Self.store(dir, versions: 2)
    let json = dir.appendingPathComponent("s.json").path
    let whole = dir.appendingPathComponent("whole.json").path
    let a = migrate(dir, json, whole, ["--quiet"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    for limit in ["16K", "256K"] {
      let out = dir.appendingPathComponent("out-\(limit).json").path
      let b = migrate(dir, json, out, ["--memory-limit", limit])
      try #require(b.exitCode == 0, "\(b.stderr)")
      #expect(b.stderr.contains("chunks (--memory-limit)"), "\(b.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    }
  }

  @Test func sigtermWhileAChainWritesChunksLeavesNothing() throws {
    try expectSIGTERMDuringAChainLeavesNothing("migrate-memory-limit-sigterm")
  }

  /// The same, with the signal while the second step writes its chunks: the first step's chunks
  /// folder is gone by then, and the chain's scratch folder (the first step's result, which the
  /// second reads) must go too.
  @Test func sigtermWhileTheSecondStepWritesChunksLeavesNothing() throws {
    try expectSIGTERMDuringAChainLeavesNothing("migrate-memory-limit-sigterm-second") { tmp in
      let entries = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
      let firstDone = entries.contains { e in
        e.hasPrefix("mapc-chain-")
          && FileManager.default.fileExists(atPath: tmp.appendingPathComponent("\(e)/1/step-1.json").path)
      }
      return try firstDone
        && entries.contains { e in
          try e.hasPrefix("mapc-chunks-")
            && !FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent(e).path).isEmpty
        }
    }
  }

  /// A two-step chain of 60,000 objects in chunks (64K), ended with SIGTERM once `ready` holds
  /// for its `TMPDIR`: nothing is left there, nor beside the store.
  private func expectSIGTERMDuringAChainLeavesNothing(
    _ name: String, ready: ((URL) throws -> Bool)? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let dir = try FileManagerTemp.folder(name)
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, versions: 3, count: 60000)
    let tmp = dir.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    let out = dir.appendingPathComponent("out.sqlite")
    try expectSIGTERMWhileChunksAreWrittenLeavesNothing(
      [
        "migrate", "--model", dir.appendingPathComponent("C.xcdatamodeld").path, "--store", store, "--output",
        out.path, "--quiet", "--allow-data-loss", "--memory-limit", "64K",
      ], output: out, tmp: tmp, ready: ready, sourceLocation: sourceLocation)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.isEmpty,
      "a temporary file was left beside the store", sourceLocation: sourceLocation)
  }
}
