import Foundation
import MapTestSupport
import Testing

/// A JSON store written in chunks goes into the store's own file from the first chunk on
/// (`EarlyStoreFile`, `Specs/limits.md` "Memory"), and into the entities' scratch files when
/// its guesses fail. Each way gives the bytes of the same command in memory (a conversion, and
/// an inferred step in which `Alpha` becomes `Beta`), python3's json finds the source's objects
/// in the conversion's, and nothing is left beside the output or in the temporary folder. The
/// source lists:
/// - `inOrder`: its metadata first, its entities in name order (the store's order): the file
///   started early is the store;
/// - `zetaFirst`: `Zeta` before `Alpha`: objects come for an entity already written, and the
///   store is written anew from the early file's parts and the scratch files;
/// - `lowKeyMax`: highest numbers (`mapcObjectKeyMax`) below its ids', which go into the header
///   the store is started with;
/// - `metadataLast`: its objects before its metadata: nothing to forecast from.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: python3 != nil, "python3 is needed to read the stores"))
struct EarlyStoreTests {
  enum Arrangement: String, CaseIterable, Sendable { case inOrder, zetaFirst, lowKeyMax, metadataLast }

  static let entities = """
    <entity name="Alpha"><attribute name="text" optional="YES" attributeType="String"/></entity>
    <entity name="Zeta"><attribute name="n" optional="YES" attributeType="Integer 64"/>\
    <attribute name="text" optional="YES" attributeType="String"/></entity>
    """

  /// The source's text, with its parts in the order `arrangement` says.
  static func source(_ bundle: URL, _ arrangement: Arrangement, version: String? = nil) throws -> String {
    var metadata = try ModelBundles.storeMetadata(bundle, version: version)
    if arrangement == .lowKeyMax { metadata["mapcObjectKeyMax"] = ["Alpha": 1, "Zeta": 2] }
    let meta = String(
      decoding: try JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys]), as: UTF8.self)
    let alpha = (1...2000).map { #"{"id": "Alpha/\#($0)", "text": "alpha \#($0): a line of text, é ✓"}"# }
    let zeta = (1...3000).map { #"{"id": "Zeta/\#($0)", "n": \#($0 * 7), "text": "zeta \#($0)"}"# }
    let a = #""Alpha": [\#(alpha.joined(separator: ",\n"))]"#
    let z = #""Zeta": [\#(zeta.joined(separator: ",\n"))]"#
    let objects = arrangement == .zetaFirst ? "{\(z),\n\(a)}" : "{\(a),\n\(z)}"
    return arrangement == .metadataLast
      ? #"{"objects": \#(objects), "metadata": \#(meta)}"# : #"{"metadata": \#(meta), "objects": \#(objects)}"#
  }

  /// Prints `same` when the store at argv[2] holds argv[1]'s objects, entity by entity.
  static let check = """
    import json, sys
    a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    for e in ("Alpha", "Zeta"):
        if a["objects"][e] != b["objects"][e]: sys.exit(e + " differs")
    print("same")
    """

  /// Runs `command` with `--output`/`-o` (its last word) as it is and with `--memory-limit 16K`
  /// (the temporary folder one of its own): both succeed with the same bytes, and nothing is
  /// left beside the outputs or in the temporary folder. Returns the file written in chunks.
  static func expectTheBytesInMemory(_ command: [String], in dir: URL) throws -> String {
    let out = dir.appendingPathComponent("out")
    let tmp = dir.appendingPathComponent("tmp")
    for folder in [out, tmp] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    let whole = out.appendingPathComponent("whole.json").path
    let chunked = out.appendingPathComponent("chunked.json").path
    let a = runMapc(command + [whole])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let b = runMapc(command + [chunked, "--memory-limit", "16K"], environment: ["TMPDIR": tmp.path])
    try #require(b.exitCode == 0, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["chunked.json", "whole.json"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
    return chunked
  }

  @Test(arguments: Arrangement.allCases)
  func aConversionInChunksGivesTheBytesInMemory(_ arrangement: Arrangement) throws {
    let dir = try FileManagerTemp.folder("early-store")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(RelationshipChunksTests.model(Self.entities), named: "E", in: dir)
    let store = dir.appendingPathComponent("s.json")
    try Self.source(bundle, arrangement).write(to: store, atomically: true, encoding: .utf8)
    let chunked = try Self.expectTheBytesInMemory(
      ["store", "convert", store.path, "--model", bundle.path, "--to", "json", "--quiet", "-o"], in: dir)
    let read = runTool(python3!, ["-c", Self.check, store.path, chunked])
    #expect(read.stdout == "same\n", "\(read.stderr)")
  }
}

extension EarlyStoreTests {
  @Test(arguments: Arrangement.allCases)
  func anInferredStepInChunksGivesTheBytesInMemory(_ arrangement: Arrangement) throws {
    let dir = try FileManagerTemp.folder("early-store-step")
    defer { FileManagerTemp.remove(dir.path) }
    // V2 calls Alpha Beta: the highest numbers the source records are Alpha's, the step's Beta's.
    let v2 = Self.entities.replacingOccurrences(
      of: #"<entity name="Alpha">"#, with: #"<entity name="Beta" elementID="Alpha">"#)
    let bundle = try ModelBundles.bundle(
      versions: [("V1", RelationshipChunksTests.model(Self.entities)), ("V2", RelationshipChunksTests.model(v2))],
      named: "R", in: dir, current: "V2")
    let store = dir.appendingPathComponent("s.json")
    try Self.source(bundle, arrangement, version: "V1").write(to: store, atomically: true, encoding: .utf8)
    _ = try Self.expectTheBytesInMemory(
      ["migrate", "--model", bundle.path, "--store", store.path, "--to", "V2", "--quiet", "--output"], in: dir)
  }
}
