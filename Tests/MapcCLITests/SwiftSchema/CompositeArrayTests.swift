import Foundation
import MapTestSupport
import Testing

/// Arrays inside composite attributes (`[String]` properties of a SwiftData `Codable` struct),
/// which SwiftData keeps as JSON bytes in a Binary element column: exported as JSON arrays and
/// read back to the same bytes (Specs/sqlite-store.md §5.2). The oracle is python3: `json` on
/// the real store's column bytes, and byte comparison of every BLOB column.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct CompositeArrayTests {
  static let schema = SharedPaths.packageRoot.appendingPathComponent("Tests/TestData/swiftdata/Cocktails/Plain").path

  static let compare = """
    import sqlite3, sys, json
    a = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
    b = sqlite3.connect("file:" + sys.argv[2] + "?mode=ro", uri=True)
    same = differ = 0
    for table, key in [("ZCOCKTAIL", "ZCOCKTAILNAME"), ("ZINGREDIENTBASE", "ZNAME")]:
        for (column,) in [(r[1],) for r in a.execute("PRAGMA table_info(%s)" % table)]:
            x = dict(a.execute("SELECT %s, %s FROM %s WHERE typeof(%s) = 'blob'" % (key, column, table, column)))
            y = dict(b.execute("SELECT %s, %s FROM %s" % (key, column, table)))
            for k in x:
                if x[k] == y.get(k): same += 1
                else: differ += 1
    print(json.dumps({"same": same, "differ": differ}))
    """

  /// python3: the arrays the store's ZFLAVORS and ZSTYLES bytes hold, by cocktail name.
  static let arrays = """
    import sqlite3, sys, json
    c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
    out = {}
    for name, f, s in c.execute("SELECT ZCOCKTAILNAME, ZFLAVORS, ZSTYLES FROM ZCOCKTAIL"):
        out[name] = [json.loads(f) if f is not None else None, json.loads(s) if s is not None else None]
    print(json.dumps(out, sort_keys=True))
    """

  func copyStore(into folder: TemporaryFolder) throws -> String? {
    guard let root = SharedPaths.swiftdata else { return nil }
    let source = root.appendingPathComponent(SwiftDataContainerTests.stores["Cocktails"]!).path
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
      try FileManager.default.copyItem(atPath: source + suffix, toPath: folder.path + "/default.store" + suffix)
    }
    return folder.path + "/default.store"
  }

  func python(_ folder: TemporaryFolder, _ script: String, _ arguments: [String]) throws -> String {
    try folder.write("script.py", script)
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", folder.path + "/script.py"] + arguments)
    try #require(r.exitCode == 0, "\(r.stderr)")
    return r.stdout
  }

  @Test(.needsShared) func arraysAreExportedAsJSONArraysAndReadBackToTheSameBytes() throws {
    let folder = try TemporaryFolder()
    let store = try #require(try copyStore(into: folder))
    let json = folder.path + "/out.json"
    let export = runMapc(["store", "export", store, "--model", Self.schema, "-o", json])
    try #require(export.exitCode == 0, "\(export.stderr)")
    // The exported arrays are those python3's json reads from the store's bytes.
    let expected = try JSONSerialization.jsonObject(with: Data(try python(folder, Self.arrays, [store]).utf8))
    let exported = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
    let cocktails =
      try #require((exported as? [String: Any])?["objects"] as? [String: Any])["Cocktail"] as? [[String: Any]]
    var got: [String: Any] = [:]
    for c in cocktails ?? [] {
      let tags = c["compiledTags"] as? [String: Any]
      got[c["cocktailName"] as! String] = [tags?["flavors"] ?? NSNull(), tags?["styles"] ?? NSNull()]
    }
    #expect(got.count == 398)
    #expect(NSDictionary(dictionary: got).isEqual(to: expected as! [String: Any]))
    // Read back: every BLOB of the store, byte for byte.
    let back = folder.path + "/back.sqlite"
    let imported = runMapc(["store", "import", json, "--model", Self.schema, "-o", back])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let result = try python(folder, Self.compare, [store, back])
    #expect(result.contains("\"differ\": 0"), "\(result)")
    #expect(!result.contains("\"same\": 0,"), "\(result)")
  }

  /// An array written in the JSON store (other values, a slash, non-ASCII text) is kept as the
  /// bytes SwiftData's encoder writes for it: compact, `/` as `\\/`, UTF-8 as it is.
  @Test(.needsShared) func anArrayGivenInTheJSONStoreIsWrittenAsJSONBytes() throws {
    let folder = try TemporaryFolder()
    let store = try #require(try copyStore(into: folder))
    let json = folder.path + "/out.json"
    try #require(runMapc(["store", "export", store, "--model", Self.schema, "-o", json]).exitCode == 0)
    let edit = """
      import json, sys
      d = json.load(open(sys.argv[1]))
      c = [x for x in d["objects"]["Cocktail"] if x["cocktailName"] == "Mojito"][0]
      c["compiledTags"]["flavors"] = ["a/b", "Molé", "quote \\"q\\"", "tab\\tend"]
      json.dump(d, open(sys.argv[1], "w"))
      """
    _ = try python(folder, edit, [json])
    let back = folder.path + "/back.sqlite"
    let imported = runMapc(["store", "import", json, "--model", Self.schema, "-o", back])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let check = """
      import sqlite3, sys, json
      c = sqlite3.connect(sys.argv[1])
      (b,) = c.execute("SELECT ZFLAVORS FROM ZCOCKTAIL WHERE ZCOCKTAILNAME = 'Mojito'").fetchone()
      want = ["a/b", "Molé", "quote \\"q\\"", "tab\\tend"]
      text = json.dumps(want, separators=(",", ":"), ensure_ascii=False).replace("/", "\\\\/")
      print(json.loads(b) == want, b == text.encode("utf-8"))
      """
    #expect(try python(folder, check, [back]) == "True True\n")
  }
}
