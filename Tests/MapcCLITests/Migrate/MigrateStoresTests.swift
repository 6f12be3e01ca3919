import Foundation
import MapTestSupport
import Testing

/// Issue 44: `mapc migrate --stores` migrates each store on its own, as `mapc migrate` alone
/// would (the same exit status and the same output bytes, compared with cmp-like byte equality),
/// a broken store never stopping the others, one JSON line per store, inputs untouched
/// (python3's hashlib before and after).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"), .serialized)
struct MigrateStoresTests {
  /// The tasks example and ten stores in `stores/`: the three shipped ones, copies of them, one
  /// that is not JSON, one at a version the bundle does not have, and one that needs consent.
  static func fleet() throws -> URL {
    let (work, tasks) = try TestCommandTests.copyExample("tasks")
    let stores = work.appendingPathComponent("stores")
    try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
    for (i, name) in [
      "store-v1.json", "store-v2.json", "store-v3.json", "store-v1.json", "store-v2.json",
      "store-v3.json", "store-v1.json",
    ].enumerated() {
      try FileManager.default.copyItem(
        at: tasks.appendingPathComponent(name), to: stores.appendingPathComponent("s\(i).json"))
    }
    try Data("{ not json".utf8).write(to: stores.appendingPathComponent("s7.json"))
    var text = try String(contentsOf: tasks.appendingPathComponent("store-v1.json"), encoding: .utf8)
    text = text.replacingOccurrences(of: #""Task": ""#, with: #""Task": "AAAA"#)
    try Data(text.utf8).write(to: stores.appendingPathComponent("s8.json"))
    try FileManager.default.copyItem(
      at: tasks.appendingPathComponent("store-v3.json"), to: stores.appendingPathComponent("s9.json"))
    return work
  }

  static func lines(_ stdout: String) throws -> [[String: Any]] {
    try stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test func eachStoreIsMigratedAsItWouldBeAlone() throws {
    let work = try Self.fleet()
    defer { FileManagerTemp.remove(work.path) }
    let before = try SignalSweepTests.digests(work.appendingPathComponent("stores"))
    let model = ["--model", "tasks/Tasks.xcdatamodeld", "--mappings", "tasks/mappings"]
    let r = runMapc(["migrate", "--stores", "stores/*.json", "--output", "out", "--jobs", "2"] + model, in: work)
    #expect(r.exitCode == 2, "a store failed, so the run says so: \(r.stderr)")
    let lines = try Self.lines(r.stdout)
    #expect(lines.map { $0["store"] as? String } == (0..<10).map { "stores/s\($0).json" }, "in the stores' order")
    for line in lines {
      let store = try #require(line["store"] as? String)
      // The same store alone.
      let alone = work.appendingPathComponent("alone.json").path
      try? FileManager.default.removeItem(atPath: alone)
      let single = runMapc(["migrate", "--store", store, "--output", alone, "--quiet"] + model, in: work)
      #expect((line["exitCode"] as? Int).map(Int32.init) == single.exitCode, "\(store)")
      let output = work.appendingPathComponent("out/\(store)").path
      if single.exitCode == 0 {
        #expect(line["result"] as? String == "migrated", "\(store)")
        #expect(FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: alone), "\(store)")
      } else {
        #expect(line["result"] as? String == "failed", "\(store)")
        #expect(!FileManager.default.fileExists(atPath: output), "\(store)")
        #expect(!((line["errors"] as? [String]) ?? []).isEmpty)
      }
    }
    #expect(lines.filter { $0["result"] as? String == "failed" }.count == 2, "s7 (not JSON) and s8 (unknown version)")
    #expect(try SignalSweepTests.digests(work.appendingPathComponent("stores")) == before, "the stores are untouched")
  }

  @Test func shardsSplitTheFleet() throws {
    let work = try Self.fleet()
    defer { FileManagerTemp.remove(work.path) }
    var union: [String] = []
    for k in 1...3 {
      let r = runMapc(
        [
          "migrate", "--stores", "stores/*.json", "--output", "out\(k)", "--shard", "\(k)/3", "--model",
          "tasks/Tasks.xcdatamodeld", "--mappings", "tasks/mappings",
        ], in: work)
      let stores = try Self.lines(r.stdout).compactMap { $0["store"] as? String }
      #expect((3...4).contains(stores.count), "shard \(k): \(stores)")
      union += stores
    }
    #expect(union.sorted() == (0..<10).map { "stores/s\($0).json" })
  }

  @Test func aManifestNamesEachStoresModelAndOutput() throws {
    let work = try Self.fleet()
    defer { FileManagerTemp.remove(work.path) }
    let manifest = """
      {"store": "stores/s0.json", "model": "tasks/Tasks.xcdatamodeld", "mappings": "tasks/mappings", "output": "o/a.json"}

      {"store": "stores/s1.json", "model": "tasks/Tasks.xcdatamodeld", "to": "Tasks 3", "output": "o/b.json"}

      """
    try Data(manifest.utf8).write(to: work.appendingPathComponent("fleet.jsonl"))
    let r = runMapc(["migrate", "--stores", "fleet.jsonl", "--quiet"], in: work)
    #expect(r.exitCode == 0, "\(r.stderr)")
    let lines = try Self.lines(r.stdout)
    #expect(lines.map { $0["line"] as? Int } == [1, 3])
    #expect(lines.map { $0["to"] as? String } == ["Tasks 4", "Tasks 3"])
    let expected = work.appendingPathComponent("tasks/expected-from-v1.json")
    #expect(
      FileManager.default.contents(atPath: work.appendingPathComponent("o/a.json").path)
        == (try Data(contentsOf: expected)))
    // An output outside the manifest's folder, and two stores onto one output, are refused first.
    try Data(#"{"store": "stores/s0.json", "model": "tasks/Tasks.xcdatamodeld", "output": "../x.json"}"#.utf8)
      .write(to: work.appendingPathComponent("outside.jsonl"))
    let outside = runMapc(["migrate", "--stores", "outside.jsonl"], in: work)
    #expect(outside.exitCode == 1 && outside.stderr.contains("outside.jsonl:1:"), "\(outside.stderr)")
    try Data(
      (#"{"store": "stores/s0.json", "model": "tasks/Tasks.xcdatamodeld", "output": "o/same.json"}"# + "\n"
        + #"{"store": "stores/s1.json", "model": "tasks/Tasks.xcdatamodeld", "output": "o/same.json"}"#).utf8
    ).write(to: work.appendingPathComponent("twice.jsonl"))
    let twice = runMapc(["migrate", "--stores", "twice.jsonl"], in: work)
    #expect(twice.exitCode == 64, "\(twice.stderr)")
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("o/same.json").path))
  }
}
