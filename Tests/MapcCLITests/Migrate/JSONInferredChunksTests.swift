import Foundation
import MapTestSupport
import Testing

/// An inferred step over a JSON store in chunks (issue 41): its objects keep their numbers, which
/// a JSON store's ids give only when every id of the entity has the form `Entity/number`. Each
/// streamed entity is numbered as its first chunk says (`ChunkNumbering`); a run
/// with ids of both kinds, the later chunk denying the first, cannot start over and is refused
/// with nothing written, as is one whose metadata records a highest number for ids without
/// numbers. Otherwise the result is the bytes of the step in memory, and its ids are python3's
/// reading of the input's.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: python3 != nil, "python3 is needed to read the stores"))
struct JSONInferredChunksTests {
  @Test(arguments: ConvertChunksTests.Ids.allCases) func anInferredStepOverAJSONStoreGoesInChunks(
    _ ids: ConvertChunksTests.Ids
  ) throws {
    let dir = try FileManagerTemp.folder("json-inferred-chunks")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try RelationshipChunksTests.twoVersions(dir) { extra in
      #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="n" attributeType="Integer 64" defaultValueString="0"/>\#(extra)</entity>"#
    }
    var metadata = try ModelBundles.storeMetadata(bundle, version: "V1")
    if ids == .otherWithHighest { metadata["mapcObjectKeyMax"] = ["Note": 50] }
    let noteIDs = (1...3000).map { i -> String in
      switch ids {
      case .numbered, .oneOtherLate: ids == .oneOtherLate && i == 2900 ? "note-2900" : "Note/\(3 * i + 7)"
      case .other, .otherWithHighest: "n\(i)"
      }
    }
    let notes = (1...3000).map { i -> [String: Any] in
      ["id": noteIDs[i - 1], "title": "note \(i), with a few words to fill its row", "n": i * i]
    }
    let store = dir.appendingPathComponent("notes.json").path
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": ["Note": notes]])
      .write(to: URL(fileURLWithPath: store))
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let migrate = ["migrate", "--model", bundle.path, "--store", store, "--to", "V2", "--output"]
    let whole = dir.appendingPathComponent("whole.json").path
    let a = runMapc(migrate + [whole, "--quiet"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let chunked = dir.appendingPathComponent("chunks.json").path
    let b = runMapc(migrate + [chunked, "--memory-limit", "64K"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    if ids == .oneOtherLate || ids == .otherWithHighest {
      #expect(b.exitCode == 2 && b.stderr.contains("[run-memory-limit]"), "\(b.stderr)")
      #expect(b.stderr.contains(ids == .oneOtherLate ? "are not of the form Note/number" : "records 50"), "\(b.stderr)")
      #expect(!FileManager.default.fileExists(atPath: chunked))
      return
    }
    try #require(b.exitCode == 0, "\(b.stderr)")
    let chunks = b.stderr.firstMatch(of: /objects in (\d+) chunks/).flatMap { Int($0.1) } ?? 0
    #expect(chunks > 2, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    // The ids written: the input's where all have numbers, else each note's place from 1.
    let script = """
      import json, sys
      print(json.dumps([o["id"] for o in json.load(open(sys.argv[1]))["objects"]["Note"]]))
      """
    let written = try JSONDecoder().decode(
      [String].self, from: Data(runTool(python3!, ["-c", script, chunked]).stdout.utf8))
    #expect(written == (ids == .numbered ? noteIDs : (1...3000).map { "Note/\($0)" }))
  }
}
