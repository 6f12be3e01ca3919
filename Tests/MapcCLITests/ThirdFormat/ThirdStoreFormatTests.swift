import ArgumentParser
import Foundation
import MapRuntime
import MapTestSupport
import MapcCLI
import MapcKit
import Testing

/// What adding a store format to mapc takes: the format's folder (`LinesStoreFormat`, a test
/// format) and one line that registers it (`StoreFormatRegistry.register`, as an app that
/// embeds mapc does before `MapcCommand.main()`). `store convert` then converts
/// a JSON store to it and back, and python3's json module finds the same objects and hashes
/// in the JSON store written back as in the one written by hand.
@Suite(.serialized, .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ThirdStoreFormatTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Author" representedClassName="Author" syncable="YES">
            <attribute name="born" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
        <entity name="Book" representedClassName="Book" syncable="YES">
            <attribute name="cover" optional="YES" attributeType="Binary"/>
            <attribute name="inPrint" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
            <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
            <attribute name="price" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
            <attribute name="rating" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
        </entity>
    </model>
    """

  static let objects = """
    {
      "Author": [
        {"id": "Author/3", "books": ["Book/7", "Book/2"], "born": "1970-05-06T07:08:09.5Z", "name": "Ann \\"A\\" Énard\\ttab"},
        {"id": "Author/4", "books": [], "born": null, "name": null}
      ],
      "Book": [
        {"id": "Book/2", "author": "Author/3", "cover": "AAEC/w==", "inPrint": true, "pages": 120, "price": "12.5", "rating": 4.25, "title": "One"},
        {"id": "Book/7", "author": "Author/3", "cover": "", "inPrint": false, "pages": -3, "price": "0.0015", "rating": 1e-07, "title": "Two\\nlines"},
        {"id": "Book/9", "author": null, "cover": null, "inPrint": null, "pages": null, "price": null, "rating": null, "title": null}
      ]
    }
    """

  /// Same objects, hashes and version identifiers in both JSON stores (python3's json module).
  static let compare = """
    import json, sys
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
    same = a["objects"] == b["objects"] and a["metadata"]["entityVersionHashes"] == b["metadata"]["entityVersionHashes"]
    print("same" if same else "different: %r %r" % (a, b))
    """

  @Test func aThirdFormatConvertsToAndFromJSON() throws {
    let dir = try FileManagerTemp.folder("third-format")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = dir.appendingPathComponent("Shelf.xcdatamodeld")
    try writeModelFolder(Self.model, named: "Shelf", in: bundle)
    let h = runMapc(["hash", bundle.path, "--format", "json"])
    try #require(h.exitCode == 0, "\(h.stderr)")
    let hashes = try #require(
      (try JSONSerialization.jsonObject(with: Data(h.stdout.utf8)) as? [String: Any])?["entityVersionHashes"])
    let hashText = String(
      decoding: try JSONSerialization.data(withJSONObject: hashes, options: .sortedKeys), as: UTF8.self)
    let original = dir.appendingPathComponent("original.json").path
    try Data(#"{"metadata": {"entityVersionHashes": \#(hashText)}, "objects": \#(Self.objects)}"#.utf8)
      .write(to: URL(fileURLWithPath: original))

    let lines = dir.appendingPathComponent("shelf.lines").path
    let back = dir.appendingPathComponent("back.json").path
    try StoreFormatRegistry.register(LinesStoreFormat())
    defer { StoreFormatRegistry.unregister("lines") }
    let formats = StoreFormatChoice.formats
    #expect(formats.map(\.name).contains("lines"))
    try StoreConversion.run(
      original, bundle: bundle.path, output: lines, to: StoreFormats.named("lines", among: formats)!, among: formats,
      verb: "converted")
    try StoreConversion.run(
      lines, bundle: bundle.path, output: back, to: StoreFormats.named("json", among: formats)!, among: formats,
      verb: "converted")

    // The lines store holds the objects (the JSON store written back was read from it).
    let text = try String(contentsOfFile: lines, encoding: .utf8)
    #expect(text.hasPrefix("mapc-lines 1\n"))
    #expect(text.contains("object\tBook\t7\n"))
    #expect(text.contains("to-many\tbooks\tBook\t7\tBook\t2\n"))
    #expect(StoreFormats.detect(lines, among: formats).name == "lines")

    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.compare, original, back])
    #expect(r.stdout == "same\n", "\(r.stdout)\(r.stderr)")

    // `store info` asks the format: the hashes of the lines store are the JSON store's.
    let summary = try StoreFormats.detect(lines, among: formats).summary(lines)
    let expected = try #require(hashes as? [String: String]).sorted { $0.key < $1.key }
    #expect(summary.entityVersionHashes.map(\.entity) == expected.map(\.key))
    #expect(summary.entityVersionHashes.map(\.hash) == expected.map(\.value))
  }

  /// The help that lists the formats is made when the command runs, after an app registered its
  /// own (`--store-format`, `store convert --to`).
  @Test func theHelpListsARegisteredFormat() throws {
    try StoreFormatRegistry.register(LinesStoreFormat())
    defer { StoreFormatRegistry.unregister("lines") }
    #expect(
      try Self.help(["migrate", "--help"]).contains(
        "--store-format <store-format> The store's format: sqlite or lines or json"))
    #expect(try Self.help(["run", "--help"]).contains("The store's format: sqlite or lines or json"))
    #expect(try Self.help(["store", "convert", "--help"]).contains("The format to write: sqlite or lines or json"))
  }

  /// What `mapc ARGUMENTS` prints for `--help`, runs of white space made one space.
  static func help(_ arguments: [String]) throws -> String {
    var command = try MapcCommand.parseAsRoot(arguments)
    do {
      try command.run()
      return ""
    } catch {
      return MapcCommand.fullMessage(for: error).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
  }
}
