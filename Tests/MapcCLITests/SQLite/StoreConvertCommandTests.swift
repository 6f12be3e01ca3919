import Foundation
import MapTestSupport
import Testing

/// `mapc store convert` (Specs/store-format.md §C.2): a JSON store to SQLite (the format named by
/// the output's extension) and back gives the objects python3's json module read in the store
/// written by hand; a format that is not one of mapc's, or none at all, is a usage error.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct StoreConvertCommandTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="size" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            <attribute name="when" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        </entity>
    </model>
    """

  static let compare = """
    import json, sys
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
    print("same" if a["objects"] == b["objects"] else "different: %r %r" % (a["objects"], b["objects"]))
    """

  /// A JSON store of the model in `dir`, and the bundle.
  static func store(in dir: URL) throws -> (store: String, bundle: String) {
    let bundle = dir.appendingPathComponent("M.xcdatamodeld")
    try writeModelFolder(Self.model, named: "M", in: bundle)
    let h = runMapc(["hash", bundle.path, "--format", "json"])
    try #require(h.exitCode == 0, "\(h.stderr)")
    let hashes = try #require(
      (try JSONSerialization.jsonObject(with: Data(h.stdout.utf8)) as? [String: Any])?["entityVersionHashes"])
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": ["entityVersionHashes": hashes],
      "objects": [
        "Item": [
          ["id": "Item/1", "name": "one", "size": 1, "when": "2020-01-02T03:04:05.25Z"],
          ["id": "Item/5", "name": "f\u{e9}nf \"5\"", "size": -5, "when": NSNull()],
        ]
      ],
    ]).write(to: json)
    return (json.path, bundle.path)
  }

  @Test func jsonToSQLiteAndBack() throws {
    let dir = try FileManagerTemp.folder("store-convert")
    defer { FileManagerTemp.remove(dir.path) }
    let (json, bundle) = try Self.store(in: dir)
    let sqlite = dir.appendingPathComponent("s.sqlite").path
    let back = dir.appendingPathComponent("back.json").path
    let there = runMapc(["store", "convert", json, "--model", bundle, "-o", sqlite])
    #expect(there.exitCode == 0, "\(there.stderr)")
    #expect(there.stderr == "mapc: converted 2 objects from \(json); wrote \(sqlite)\n")
    #expect(runMapc(["store", "info", sqlite]).stdout.hasPrefix("format: sqlite\nstore UUID: "))
    let again = runMapc(["store", "convert", sqlite, "--model", bundle, "-o", back, "--to", "json"])
    #expect(again.exitCode == 0, "\(again.stderr)")
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.compare, json, back])
    #expect(r.stdout == "same\n", "\(r.stdout)\(r.stderr)")
  }

  /// A JSON store's own metadata keys, read as typed values and written again (Specs/store-format.md
  /// B.6): numbers as written, the typed forms as they were, object keys in their order.
  @Test func jsonMetadataKeysAreWrittenAsRead() throws {
    let dir = try FileManagerTemp.folder("store-convert-metadata")
    defer { FileManagerTemp.remove(dir.path) }
    let (json, bundle) = try Self.store(in: dir)
    var text = try String(contentsOfFile: json, encoding: .utf8)
    let keys =
      #""zNum": 1.50, "big": 12345678901234567890, "exp": 1e400, "list": [1, "two", null, true], "nan": {"$real": "NaN"}, "obj": {"b": 1, "a": {}}, "wrapped": {"$dict": {"$data": "AAE="}}, "when": {"$date": 1.5}, "#
    text = text.replacingOccurrences(of: #""metadata":{"#, with: #""metadata":{"# + keys)
    try #require(text.contains(keys))
    try text.write(toFile: json, atomically: false, encoding: .utf8)
    let out = dir.appendingPathComponent("c.json").path
    let r = runMapc(["store", "convert", json, "--model", bundle, "-o", out, "--to", "json", "--compact"])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let written = try String(contentsOfFile: out, encoding: .utf8)
    #expect(
      written.contains(
        #""big":12345678901234567890,"exp":1e400,"list":[1,"two",null,true],"nan":{"$real":"NaN"},"obj":{"b":1,"a":{}},"when":{"$date":1.5},"wrapped":{"$dict":{"$data":"AAE="}},"zNum":1.50}"#
      ), "\(written)")
  }

  @Test func anUnknownFormatIsAUsageError() throws {
    let dir = try FileManagerTemp.folder("store-convert-usage")
    defer { FileManagerTemp.remove(dir.path) }
    let (json, bundle) = try Self.store(in: dir)
    let out = dir.appendingPathComponent("out.bin").path
    let unknown = runMapc(["store", "convert", json, "--model", bundle, "-o", out, "--to", "xml"])
    #expect(unknown.exitCode == 64)
    #expect(
      unknown.stderr.contains("unknown store format 'xml' for --to (formats: sqlite or json)"), "\(unknown.stderr)")
    let none = runMapc(["store", "convert", json, "--model", bundle, "-o", out])
    #expect(none.exitCode == 64)
    #expect(none.stderr.contains("give --to sqlite|json"), "\(none.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    // Over its own input: refused before anything is read.
    let clash = runMapc(["store", "convert", json, "--model", bundle, "-o", json])
    #expect(clash.exitCode == 64, "\(clash.stderr)")
  }
}
