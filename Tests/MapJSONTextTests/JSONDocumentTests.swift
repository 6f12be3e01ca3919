import Foundation
import MapJSONText
import MapRuntime
import MapTestSupport
import Testing

/// The codec against python3's `json` module: what it reads, how it writes it back, what it
/// refuses (with which id), and where each value is.
@Suite struct JSONDocumentTests {
  /// python3 reads each file and prints it as `json.dumps(…, indent=2, ensure_ascii=False)`;
  /// the codec's `rendered()` of its own reading must be the same bytes (python's floats are
  /// `repr`, as `PythonFloatFormatter` writes them).
  static let pythonPrint = """
    import json, sys
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
        sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\\n\\u0000")
    """

  /// The JSON files of the repository's examples and of `../shared` (fixtures, locks, stores up
  /// to 2 MB), in path order.
  static func realFiles() -> [URL] {
    var roots = [SharedPaths.packageRoot.appendingPathComponent("Mappings")]
    if let shared = SharedPaths.shared {
      roots += ["fixtures", "stores", "swiftdata", "corpus"].map(shared.appendingPathComponent)
    }
    var files: [URL] = []
    for root in roots {
      guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey]) else {
        continue
      }
      for case let url as URL in walker where url.pathExtension == "json" {
        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        if size <= 2 << 20 { files.append(url) }
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  @Test(.needsShared) func realFilesPrintAsPythonPrintsThem() throws {
    let python3 = try #require(TestTools.python3)
    let files = Self.realFiles()
    #expect(files.count > 10, "\(files.count) JSON files")
    let result = runExecutable(python3, ["-c", Self.pythonPrint] + files.map(\.path))
    #expect(result.exitCode == 0, "\(result.stderr)")
    let expected = result.stdout.split(separator: "\u{0}", omittingEmptySubsequences: false).dropLast()
    #expect(expected.count == files.count)
    for (file, want) in zip(files, expected) {
      let document = try JSONDocument(Array(try Data(contentsOf: file)), file: file.path)
      #expect(document.root.value.rendered() == String(want), "\(file.path)")
    }
  }

  /// Hostile and odd texts: python3 (strict: no NaN, no Infinity) and the codec agree on which
  /// are JSON, but for the nesting the codec bounds (python reads 600 levels); the refused ones
  /// have the scanner's ids.
  @Test func hostileTextsAreRefusedAsPythonRefusesThem() throws {
    let python3 = try #require(TestTools.python3)
    let cases: [(String, String?)] = [
      ("{}", nil), ("[]", nil), (" [1, -0, 0.5, 1e3, -2E-2, 12345678901234567890] ", nil),
      (#"{"a": "\u00e9\ud83d\ude00\n", "a": 2}"#, nil), ("\"\"", nil), ("true", nil),
      ("[1,]", "json-trailing-comma"), ("{\"a\":1,}", "json-trailing-comma"), ("[1] 2", "json-trailing-characters"),
      ("[", "json-unexpected-end"), ("", "json-unexpected-end"), ("\"abc", "json-unterminated-string"),
      ("\"a\u{1}b\"", "json-control-character"), (#""\x""#, "json-invalid-escape"), ("01", "json-leading-zero"),
      ("[NaN]", "json-non-finite-number"), ("[Infinity]", "json-non-finite-number"),
      ("tru", "json-invalid-literal"), ("{'a': 1}", "json-unexpected-character"), ("1.", "json-invalid-number"),
      ("-", "json-invalid-number"), ("\u{FEFF}{}", "json-byte-order-mark"),
      (String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "json-nesting-too-deep"),
    ]
    let script = """
      import json, sys
      def no(c): raise ValueError(c)
      for text in sys.stdin.read().split("\\u0000"):
          try:
              json.loads(text, parse_constant=no)
              print("ok")
          except (ValueError, RecursionError):
              print("refused")
      """
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("json-cases-\(UUID().uuidString)")
    try cases.map(\.0).joined(separator: "\u{0}").write(to: input, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: input) }
    let result = runExecutable(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" -c \"$1\" < \"$2\"", python3.path, script, input.path])
    let verdicts = result.stdout.split(separator: "\n").map(String.init)
    try #require(verdicts.count == cases.count, "\(result.stderr)")
    for ((text, id), verdict) in zip(cases, verdicts) {
      var found: String? = nil
      do {
        _ = try JSONDocument(Array(text.utf8), file: "case.json")
      } catch {
        found = error.id
      }
      let bounded = id == "json-nesting-too-deep"
      #expect(
        (found == nil) == (verdict == "ok") || bounded,
        "python: \(verdict), codec: \(found ?? "ok") for \(text.prefix(40))")
      #expect(found == id, "\(text.prefix(40))")
    }
  }

  /// Each value's line and column (columns count characters), by path and by node, counted by hand.
  @Test func valuesKnowWhereTheyAre() throws {
    let text = "{\n  \"é\": [1,\n    {\"b\": null}],\n\t\"c\": \"x\"\n}\n"
    let document = try JSONDocument(Array(text.utf8), file: "f.json", firstLine: 3)
    #expect(document.location(of: []) == SourceLocation(file: "f.json", line: 3, column: 1))
    #expect(document.location(of: ["é", 0]) == SourceLocation(file: "f.json", line: 4, column: 9))
    #expect(document.location(of: ["é", 1, "b"]) == SourceLocation(file: "f.json", line: 5, column: 11))
    #expect(document.location(of: ["c"]) == SourceLocation(file: "f.json", line: 6, column: 7))
    #expect(document.location(of: ["é", 2]) == nil)
    #expect(document.location(of: ["d"]) == nil)
    let c = try #require(document.root["c"])
    #expect(document.location(of: c) == SourceLocation(file: "f.json", line: 6, column: 7))
    #expect(c.string == "x")
    #expect(document.root["é"]?.array?.first?.number == 1)
  }

  /// A syntax error's place is the offending byte's line and column.
  @Test func syntaxErrorsSayWhere() {
    #expect(throws: JSONDocument.SyntaxError.self) { try JSONDocument(Array("{\n  \"a\": 1,\n}".utf8), file: "f.json") }
    do {
      _ = try JSONDocument(Array("{\n  \"a\": 1,\n}".utf8), file: "f.json")
    } catch {
      #expect(error.id == "json-trailing-comma")
      #expect(error.location.line == 2 || error.location.line == 3, "\(error.location)")
    }
  }

  /// Integers stay integers; a fraction, an exponent or an integer beyond `Int` is a double.
  @Test func numbersKeepTheirKind() throws {
    let document = try JSONDocument(Array("[3, 3.0, 3e0, -9223372036854775808, 9223372036854775808]".utf8), file: "")
    let items = try #require(document.root.array)
    #expect(
      items.map { if case .int = $0.content { "int" } else { "double" } } == [
        "int", "double", "double", "int", "double",
      ])
    #expect(items[4].number == 9_223_372_036_854_775_808.0)
  }

  struct Sample: Encodable {
    var name = "a/b"
    var count = 2
    var missing: Int? = nil
    var flags = [true, false]
    var nested = Inner()
    struct Inner: Encodable { var zeta = "z"; var alpha: [Int] = [] }
  }

  /// An `Encodable` value as Foundation's encoder lays it out pretty-printed with sorted keys
  /// (written by hand from `JSONEncoder`'s documented layout: `"key" : value`, empty containers
  /// on three lines; `nil` left out).
  @Test func encodableValuesPrintAsFoundationDid() throws {
    let json = try JSONValue(encoding: Sample()).sortingKeys()
    #expect(
      json.foundationPretty() == """
        {
          "count" : 2,
          "flags" : [
            true,
            false
          ],
          "name" : "a/b",
          "nested" : {
            "alpha" : [

            ],
            "zeta" : "z"
          }
        }
        """)
    #expect(json.line() == #"{"count":2,"flags":[true,false],"name":"a/b","nested":{"alpha":[],"zeta":"z"}}"#)
    #expect(
      JSONValue.array([.string("a/\n"), .double(1e16), .double(2), .double(0.5)]).foundationCompact()
        == Array(#"["a\/\n",1e+16,2,0.5]"#.utf8))
  }

  /// SwiftData's composite arrays are Foundation's encoder's compact bytes: the oracle here.
  @Test func compactTextIsFoundationsEncoders() throws {
    let strings = ["a/b", "é😀", "\u{0}\u{1f}\u{7f}\"\\\n\r\t\u{8}\u{c}", "", "\u{2028}"]
    #expect(
      JSONValue.array(strings.map(JSONValue.string)).foundationCompact() == Array(try JSONEncoder().encode(strings)))
    let numbers = [0, -1, Int.max, Int.min]
    #expect(JSONValue.array(numbers.map(JSONValue.int)).foundationCompact() == Array(try JSONEncoder().encode(numbers)))
    let doubles = [0.5, 2.0, -3.0, 1e16, 123.25]
    #expect(
      JSONValue.array(doubles.map(JSONValue.double)).foundationCompact() == Array(try JSONEncoder().encode(doubles)))
    let nested = [[true, false], []]
    #expect(
      JSONValue.array(nested.map { .array($0.map(JSONValue.bool)) }).foundationCompact()
        == Array(try JSONEncoder().encode(nested)))
  }
}
