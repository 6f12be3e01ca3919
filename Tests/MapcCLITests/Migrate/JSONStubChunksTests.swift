import Foundation
import MapTestSupport
import Testing

/// A JSON store whose entities are related, in chunks (issue 41): a chunk's objects refer to
/// objects of other chunks as stubs made from their ids (`ChunkLinks`), so `mapc migrate` (an
/// inferred step) and `mapc store convert` go a chunk at a time and write the bytes of the run
/// in memory, and python3's json reads every relationship of the result as the input has it. A
/// store a chunk cannot check (one side of a relationship left out, an id that names no object
/// where the relationship has an inverse, ids without numbers that other chunks refer to) is
/// refused with nothing written, where the run in memory fills it in, reports it or numbers it.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: python3 != nil, "python3 is needed to read the stores"))
struct JSONStubChunksTests {
  /// `Folder.items` (ordered) ↔ `Item.folder`, `Item.tags` ↔ `Tag.items` (many-to-many),
  /// `Item.detail` ↔ `Detail.item` (one-to-one), `Item.twin` (one-to-one, its own inverse); V2
  /// adds an attribute to `Item`.
  static func bundle(_ dir: URL) throws -> URL {
    try RelationshipChunksTests.twoVersions(dir) { extra in
      #"""
      <entity name="Detail"><attribute name="text" optional="YES" attributeType="String"/>\#
      <relationship name="item" optional="YES" maxCount="1" destinationEntity="Item" inverseName="detail" inverseEntity="Item"/></entity>
      <entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/>\#
      <relationship name="items" optional="YES" toMany="YES" ordered="YES" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/></entity>
      <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\#
      <attribute name="n" attributeType="Integer 64" defaultValueString="0"/>\#(extra)\#
      <relationship name="detail" optional="YES" maxCount="1" destinationEntity="Detail" inverseName="item" inverseEntity="Detail"/>\#
      <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>\#
      <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>\#
      <relationship name="twin" optional="YES" maxCount="1" destinationEntity="Item" inverseName="twin" inverseEntity="Item"/></entity>
      <entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/>\#
      <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/></entity>
      """#
    }
  }

  enum Flaw: String, CaseIterable, Sendable {
    case none
    /// Some items leave out `folder`, which their folder's `items` lists.
    case oneSided
    /// One item leaves out `twin`, which its twin (in another chunk) names it as.
    case oneSidedTwin
    /// A folder lists an item the store lacks (and says nothing else of it).
    case dangling
    /// Tags are named `tag-N`: other chunks refer to them by ids without numbers.
    case tagsWithoutNumbers
  }

  /// A store at V1 of 6,000 items (ids `Item/<3n+1>`) in 40 folders (every 11th in none, each
  /// folder's items in a shuffled order), each in two of 30 tags, every other with a detail,
  /// every 4th of the first half with a twin in the second; both sides of every relationship
  /// written.
  static func store(_ dir: URL, _ bundle: URL, _ flaw: Flaw) throws -> String {
    let count = 6000
    func item(_ n: Int) -> String { "Item/\(3 * n + 1)" }
    func tag(_ t: Int) -> String { flaw == .tagsWithoutNumbers ? "tag-\(t)" : "Tag/\(t)" }
    var members: [Int: [String]] = [:]
    var tagged: [Int: [String]] = [:]
    var items: [[String: Any]] = []
    var details: [[String: Any]] = []
    for n in 1...count {
      var o: [String: Any] = ["id": item(n), "title": "item \(n), a few words to fill it", "n": n * 7]
      if n % 11 != 0 {
        let f = 1 + n % 40
        if !(flaw == .oneSided && n % 97 == 0) { o["folder"] = "Folder/\(f)" }
        members[f, default: []].append(item(n))
      }
      let tags = [1 + n % 30, 1 + (n * 7 + 3) % 30].reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
      o["tags"] = tags.map(tag)
      for t in tags { tagged[t, default: []].append(item(n)) }
      // Twins 3,000 items apart: in different chunks.
      if n <= 3000 && n % 4 == 1 { o["twin"] = item(n + 3000) }
      if n > 3000 && (n - 3000) % 4 == 1 && !(flaw == .oneSidedTwin && n == 3001) { o["twin"] = item(n - 3000) }
      if n % 2 == 0 {
        o["detail"] = "Detail/\(n / 2)"
        details.append(["id": "Detail/\(n / 2)", "text": "detail of \(n)", "item": item(n)])
      }
      items.append(o)
    }
    var folders: [[String: Any]] = (1...40).map { f in
      let list = members[f]!
      // A deterministic shuffle: each folder's order is not its items' order in the store.
      let shuffled = list.indices.sorted { ($0 * 7919 + f) % list.count < ($1 * 7919 + f) % list.count }.map {
        list[$0]
      }
      return ["id": "Folder/\(f)", "name": "folder \(f)", "items": shuffled]
    }
    if flaw == .dangling { folders[2]["items"] = (folders[2]["items"] as! [String]) + ["Item/999999"] }
    let tags = (1...30).map { ["id": tag($0), "label": "tag \($0)", "items": tagged[$0]!] as [String: Any] }
    let metadata = try ModelBundles.storeMetadata(bundle, version: "V1")
    let path = dir.appendingPathComponent("s.json").path
    // Items first: their chunks come before those of the folders and tags they refer to.
    let objects: [String: Any] = ["Item": items, "Folder": folders, "Tag": tags, "Detail": details]
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects], options: [.sortedKeys])
      .write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Every relationship of a JSON store as python3's json reads it: per entity, each object's
  /// id with its relationships' ids, in order.
  static func relationships(_ path: String) -> String {
    let script = """
      import json, sys
      objects = json.load(open(sys.argv[1]))["objects"]
      keys = {"Folder": ["items"], "Item": ["detail", "folder", "tags", "twin"], "Tag": ["items"], "Detail": ["item"]}
      for entity in sorted(keys):
          for o in objects[entity]:
              print(entity, o["id"], [o.get(k) for k in keys[entity]])
      """
    return runTool(python3!, ["-c", script, path]).stdout
  }

  @Test(arguments: Flaw.allCases) func anInferredStepGoesInChunksOrIsRefused(_ flaw: Flaw) throws {
    let dir = try FileManagerTemp.folder("json-stub-chunks")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(dir)
    let store = try Self.store(dir, bundle, flaw)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let migrate = ["migrate", "--model", bundle.path, "--store", store, "--to", "V2", "--output"]
    let whole = dir.appendingPathComponent("whole.json").path
    let a = runMapc(migrate + [whole, "--quiet"])
    let chunked = dir.appendingPathComponent("chunks.json").path
    let b = runMapc(migrate + [chunked, "--memory-limit", "256K"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    switch flaw {
    case .none:
      try #require(a.exitCode == 0, "\(a.stderr)")
      try #require(b.exitCode == 0, "\(b.stderr)")
      let chunks = b.stderr.firstMatch(of: /objects in (\d+) chunks/).flatMap { Int($0.1) } ?? 0
      #expect(chunks > 10, "\(b.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
      // The step keeps every object's number: the relationships read as the input's.
      let expected = Self.relationships(store)
      #expect(!expected.isEmpty)
      #expect(Self.relationships(chunked) == expected)
    case .oneSided, .oneSidedTwin, .tagsWithoutNumbers:
      // In memory the missing sides are filled in, or the tags numbered from 1.
      try #require(a.exitCode == 0, "\(a.stderr)")
      #expect(b.exitCode == 2 && b.stderr.contains("[run-memory-limit]"), "\(b.stderr)")
      #expect(!FileManager.default.fileExists(atPath: chunked))
    case .dangling:
      #expect(a.exitCode == 2 && a.stderr.contains("[store-dangling-id]"), "\(a.stderr)")
      #expect(b.exitCode == 2, "\(b.stderr)")
      #expect(b.stderr.contains("[store-dangling-id]") || b.stderr.contains("[run-memory-limit]"), "\(b.stderr)")
      #expect(!FileManager.default.fileExists(atPath: chunked))
    }
  }

  /// `store convert` JSON → JSON at 256K: the bytes of the conversion in memory, in many chunks.
  @Test func aConversionGoesInChunks() throws {
    let dir = try FileManagerTemp.folder("json-stub-convert")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(dir)
    let store = try Self.store(dir, bundle, .none)
    let convert = ["store", "convert", store, "--model", bundle.path, "--to", "json", "-o"]
    let whole = dir.appendingPathComponent("whole.json").path
    let a = runMapc(convert + [whole])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let chunked = dir.appendingPathComponent("chunks.json").path
    let b = runMapc(convert + [chunked, "--memory-limit", "256K"])
    try #require(b.exitCode == 0, "\(b.stderr)")
    #expect((ConvertChunksTests.counts(b.stderr)?.chunks ?? 0) > 10, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    #expect(Self.relationships(chunked) == Self.relationships(store))
  }

  /// `Item.folder` and `Item.others` without an inverse: the ids their links name out of a
  /// chunk are checked at the end against the store's ids (`ChunkReader.checkIDs`). At 16K the
  /// step goes in chunks with the bytes in memory, and python3's json finds each item's folder
  /// and others as the input has them. An item naming a folder the store lacks fails with the
  /// run in memory's error (code, words, line and column), nothing written.
  @Test func aRelationshipWithoutAnInverseGoesInChunks() throws {
    let dir = try FileManagerTemp.folder("json-stub-no-inverse")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try RelationshipChunksTests.twoVersions(dir) { extra in
      #"""
      <entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>
      <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\#(extra)\#
      <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder"/>\#
      <relationship name="others" optional="YES" toMany="YES" destinationEntity="Item"/></entity>
      """#
    }
    func items(dangling: Bool) -> [[String: Any]] {
      (1...3000).map { n -> [String: Any] in
        [
          "id": "Item/\(n)", "title": "item \(n)",
          "folder": dangling && n == 2345 ? "Folder/41" : "Folder/\(1 + n % 40)",
          "others": n % 3 == 0 ? ["Item/\(1 + (n * 7) % 3000)", "Item/\(1 + (n * 7 + 1) % 3000)"] : [],
        ]
      }
    }
    let folders = (1...40).map { ["id": "Folder/\($0)", "name": "folder \($0)"] }
    let store = try Self.write(["Item": items(dangling: false), "Folder": folders], of: bundle, in: dir)
    let migrate = ["migrate", "--model", bundle.path, "--store", store, "--to", "V2", "--output"]
    let whole = dir.appendingPathComponent("whole.json").path
    let a = runMapc(migrate + [whole, "--quiet"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let chunked = dir.appendingPathComponent("chunks.json").path
    let b = runMapc(migrate + [chunked, "--memory-limit", "16K"])
    try #require(b.exitCode == 0, "\(b.stderr)")
    #expect((b.stderr.firstMatch(of: /objects in (\d+) chunks/).flatMap { Int($0.1) } ?? 0) > 10, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    let read = """
      import json, sys
      def links(path):
          items = json.load(open(path))["objects"]["Item"]
          return sorted((o["id"], o.get("folder"), sorted(o.get("others", []))) for o in items)
      print("same" if links(sys.argv[1]) == links(sys.argv[2]) else "differ")
      """
    #expect(runTool(python3!, ["-c", read, store, chunked]).stdout == "same\n")

    let bad = try Self.write(["Item": items(dangling: true), "Folder": folders], of: bundle, in: dir)
    let badMigrate = ["migrate", "--model", bundle.path, "--store", bad, "--to", "V2", "--output"]
    let c = runMapc(badMigrate + [dir.appendingPathComponent("c.json").path])
    let d = runMapc(badMigrate + [dir.appendingPathComponent("d.json").path, "--memory-limit", "16K"])
    #expect(c.exitCode == 2 && d.exitCode == 2, "\(c.stderr)\n\(d.stderr)")
    let error = c.stderr.split(separator: "\n").first { $0.contains("[store-dangling-id]") }
    #expect(error?.contains("Item/2345.folder refers to Folder/41, which is not in the store") == true, "\(c.stderr)")
    #expect(error.map { d.stderr.contains($0) } == true, "\(d.stderr)")
    for f in ["c.json", "d.json"] {
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(f).path))
    }
  }

  /// Every real store of `../shared/stores` (the corrupt one aside; SwiftData's carry their model
  /// in SQLite only), exported to JSON in memory, then converted JSON → JSON at 64K and 256K: the bytes of the
  /// conversion in memory, or a refusal with nothing written (a value or a part read whole
  /// larger than its share). At 256K the stores whose related entities stream go in two chunks
  /// or more.
  @Test(
    .enabled(if: SharedPaths.stores != nil, "needs ../shared/stores"),
    arguments: ConvertChunksTests.cases.filter { $0.to == "json" && $0.limit == "64K" && $0.bundle != nil })
  func realStoresAsJSONGoInChunks(_ c: ConvertChunksTests.Case) throws {
    let dir = try FileManagerTemp.folder("json-stub-real")
    defer { FileManagerTemp.remove(dir.path) }
    let model = c.bundle.map { ["--model", $0] } ?? []
    let json = dir.appendingPathComponent("store.json").path
    let exported = runMapc(["store", "convert", c.store, "-o", json, "--to", "json"] + model)
    try #require(exported.exitCode == 0, "\(exported.stderr)")
    let whole = dir.appendingPathComponent("whole.json").path
    let a = runMapc(["store", "convert", json, "-o", whole, "--to", "json"] + model)
    try #require(a.exitCode == 0, "\(a.stderr)")
    var chunked: [String: Int] = [:]
    for limit in ["64K", "256K"] {
      let out = dir.appendingPathComponent("chunks-\(limit).json").path
      let b = runMapc(["store", "convert", json, "-o", out, "--to", "json", "--memory-limit", limit] + model)
      if b.exitCode == 2 && b.stderr.contains("[run-memory-limit]") {
        #expect(!FileManager.default.fileExists(atPath: out))
        continue
      }
      try #require(b.exitCode == 0, "\(b.stderr)")
      chunked[limit] = ConvertChunksTests.counts(b.stderr)?.chunks ?? 0
      #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    }
    if Self.streamsAsJSON.contains((c.store as NSString).lastPathComponent) {
      #expect((chunked["256K"] ?? 0) >= 2, "\(chunked)")
    }
  }

  /// Stores (file names) whose JSON export goes in two chunks or more at 256K: Wire's keeps its
  /// messages whole (`sender` has no inverse), and so everything they refer to.
  static let streamsAsJSON: Set<String> = [
    "ATDataModelv1.sqlite", "ATDataModelv2.sqlite", "ATDataModelv3.sqlite", "ATDataModelv4.sqlite",
    "ATDataModelv5.sqlite", "Bookmarks_V1.sqlite", "Bookmarks_V2.sqlite", "Bookmarks_V3.sqlite", "Bookmarks_V4.sqlite",
    "Bookmarks_V5.sqlite", "CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example_2.sqlite",
    "CoreDataMigration_Example_3.sqlite", "SurfJournalModel.sqlite", "XCServerCoreData_1.2.0.sqlite",
    "XCServerCoreData_2.0.1.sqlite",
  ]

  /// `mapc test` of a case over the store, whose expected store is the step's result: compared
  /// a chunk at a time at 256K (`StreamingComparison`, the JSON chunks with stubs) and whole, the
  /// same lines: a pass, then, once python3's json has changed an item's title and a folder's
  /// name in the expected store, a failure that names both.
  @Test func aComparisonGoesInChunksWithTheSameOutcome() throws {
    let dir = try FileManagerTemp.folder("json-stub-test")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(dir)
    _ = try Self.store(dir, bundle, .none)
    let expected = dir.appendingPathComponent("expected.json").path
    let made = runMapc([
      "migrate", "--model", bundle.path, "--store", dir.appendingPathComponent("s.json").path, "--to", "V2",
      "--output", expected, "--quiet",
    ])
    try #require(made.exitCode == 0, "\(made.stderr)")
    let fixture: [String: Any] = [
      "model": bundle.path, "cases": [["store": "s.json", "to": "V2", "expected": "expected.json"]],
    ]
    try JSONSerialization.data(withJSONObject: fixture).write(to: dir.appendingPathComponent("fixture.json"))
    TestCommandMemoryLimitTests.expectTheSameOutcome(dir, limit: "256K", exitCode: 0)
    let edit = """
      import json, sys
      store = json.load(open(sys.argv[1]))
      store["objects"]["Item"][4000]["title"] = "changed"
      store["objects"]["Folder"][7]["name"] = "renamed"
      print(store["objects"]["Item"][4000]["id"], store["objects"]["Folder"][7]["id"])
      json.dump(store, open(sys.argv[1], "w"), indent=2)
      """
    let edited = runTool(python3!, ["-c", edit, expected])
    try #require(edited.exitCode == 0, "\(edited.stderr)")
    let ids = edited.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    let failed = TestCommandMemoryLimitTests.expectTheSameOutcome(dir, limit: "256K", exitCode: 1)
    for id in ids { #expect(failed.stdout.contains(id), "\(failed.stdout)") }
    #expect(failed.stdout.contains("changed") && failed.stdout.contains("renamed"), "\(failed.stdout)")
  }

  /// A string longer than two windows (here 40,000 characters; a window is 8 KiB at 256K): the
  /// window that cuts it grows until the string fits (until 2026-11-30 a string cut by two
  /// windows in turn was reported as unterminated, the store's error), and the conversion gives
  /// the bytes in memory; at 64K it is larger than a quarter of the limit and refused.
  @Test func aLongStringGrowsTheWindow() throws {
    let dir = try FileManagerTemp.folder("json-long-string")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try RelationshipChunksTests.twoVersions(dir) { extra in
      #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/>\#(extra)</entity>"#
    }
    let notes = (1...300).map { n in
      ["id": "Note/\(n)", "text": n == 150 ? String(repeating: "long ", count: 8000) : "note \(n)"]
    }
    let store = try Self.write(["Note": notes], of: bundle, in: dir)
    try Self.expectRefusedThenTheBytesInMemory(
      store, bundle, dir, refusedAt: "64K", saying: "is larger than a quarter of --memory-limit", goesAt: "256K")
  }

  /// One folder listing 1,000 items: its text (about 10 KB) is within a quarter of 64K, but
  /// its ids, 64 bytes each besides their text (what they become in memory), are not: refused,
  /// naming them; at 1M the conversion goes, with the bytes in memory.
  @Test func anObjectsIdsCountAgainstTheLimit() throws {
    let dir = try FileManagerTemp.folder("json-stub-ids")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(dir)
    let items = (1...1000).map { ["id": "Item/\($0)", "n": $0, "folder": "Folder/1"] as [String: Any] }
    let folder: [String: Any] = ["id": "Folder/1", "items": (1...1000).map { "Item/\($0)" }]
    let store = try Self.write(["Item": items, "Folder": [folder]], of: bundle, in: dir)
    let b = try Self.expectRefusedThenTheBytesInMemory(
      store, bundle, dir, refusedAt: "64K", saying: "with the ids it refers to (64 bytes each)", goesAt: "1M")
    #expect((ConvertChunksTests.counts(b.stderr)?.chunks ?? 0) >= 2, "\(b.stderr)")
  }

  /// A JSON store at V1 of `bundle` holding `objects` (entity → objects), `s.json` in `dir`.
  static func write(_ objects: [String: Any], of bundle: URL, in dir: URL) throws -> String {
    let store = dir.appendingPathComponent("s.json").path
    try JSONSerialization.data(withJSONObject: [
      "metadata": try ModelBundles.storeMetadata(bundle, version: "V1"), "objects": objects,
    ]).write(to: URL(fileURLWithPath: store))
    return store
  }

  /// `store convert` of `store` to JSON at `refusedAt` (refused, `saying` why, nothing written)
  /// and at `goesAt` (the bytes of the conversion in memory); returns the run at `goesAt`.
  @discardableResult
  static func expectRefusedThenTheBytesInMemory(
    _ store: String, _ bundle: URL, _ dir: URL, refusedAt: String, saying why: String, goesAt: String
  ) throws -> MapcResult {
    let convert = ["store", "convert", store, "--model", bundle.path, "--to", "json", "-o"]
    let whole = dir.appendingPathComponent("whole.json").path
    try #require(runMapc(convert + [whole]).exitCode == 0)
    let refused = dir.appendingPathComponent("refused.json").path
    let a = runMapc(convert + [refused, "--memory-limit", refusedAt])
    #expect(a.exitCode == 2 && a.stderr.contains(why), "\(a.stderr)")
    #expect(!FileManager.default.fileExists(atPath: refused))
    let chunked = dir.appendingPathComponent("chunks.json").path
    let b = runMapc(convert + [chunked, "--memory-limit", goesAt])
    try #require(b.exitCode == 0, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    return b
  }

  /// 60,000 small related objects (items of about 60 bytes and the folders listing them): a
  /// run in memory takes more than twice their bytes. The limit is placed above what the bytes
  /// alone say (48 MB and twice the file) and below what 100 bytes for each object python3's
  /// json reads add (the estimate since 2026-11-30, `JSONStoreFormat.memoryPerObject`), so the
  /// conversion must go in chunks, with the bytes in memory (until then it ran in memory: 2,002,000
  /// such objects, 202 MB, peaked at 602 MB with `--memory-limit 512M`).
  @Test func manySmallObjectsCountAgainstTheLimit() throws {
    let dir = try FileManagerTemp.folder("json-small-objects")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(dir)
    let items = (1...60_000).map { ["id": "Item/\($0)", "n": $0, "folder": "Folder/\(1 + $0 % 600)"] as [String: Any] }
    let folders = (1...600).map { f in
      ["id": "Folder/\(f)", "items": stride(from: f == 1 ? 600 : f - 1, through: 60_000, by: 600).map { "Item/\($0)" }]
        as [String: Any]
    }
    let store = try Self.write(["Item": items, "Folder": folders], of: bundle, in: dir)
    let script = """
      import json, sys
      print(sum(len(v) for v in json.load(open(sys.argv[1]))["objects"].values()))
      """
    let objects = try #require(
      Int(runTool(python3!, ["-c", script, store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    let bytes = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
    let limit = (48 << 20) + 2 * bytes + 50 * objects
    let convert = ["store", "convert", store, "--model", bundle.path, "--to", "json", "-o"]
    let whole = dir.appendingPathComponent("whole.json").path
    try #require(runMapc(convert + [whole]).exitCode == 0)
    let chunked = dir.appendingPathComponent("chunks.json").path
    let b = runMapc(convert + [chunked, "--memory-limit", "\(limit)"])
    try #require(b.exitCode == 0, "\(b.stderr)")
    #expect((ConvertChunksTests.counts(b.stderr)?.chunks ?? 0) >= 2, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
  }
}
