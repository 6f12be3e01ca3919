import Foundation
import MapJSON
import MapJSONText
import MapRuntime
import MapTestSupport
import Testing

@Suite struct JSONOutputTests {
  /// Python's `json.dumps(chr(i), ensure_ascii=False)` for each scalar, as printed by
  /// Python 3.11.7.
  static let escapingTable: [(UInt32, String)] = [
    (0x0, #""\u0000""#), (0x1, #""\u0001""#), (0x2, #""\u0002""#), (0x3, #""\u0003""#),
    (0x4, #""\u0004""#), (0x5, #""\u0005""#), (0x6, #""\u0006""#), (0x7, #""\u0007""#),
    (0x8, #""\b""#), (0x9, #""\t""#), (0xA, #""\n""#), (0xB, #""\u000b""#), (0xC, #""\f""#),
    (0xD, #""\r""#), (0xE, #""\u000e""#), (0xF, #""\u000f""#), (0x10, #""\u0010""#),
    (0x11, #""\u0011""#), (0x12, #""\u0012""#), (0x13, #""\u0013""#), (0x14, #""\u0014""#),
    (0x15, #""\u0015""#), (0x16, #""\u0016""#), (0x17, #""\u0017""#), (0x18, #""\u0018""#),
    (0x19, #""\u0019""#), (0x1A, #""\u001a""#), (0x1B, #""\u001b""#), (0x1C, #""\u001c""#),
    (0x1D, #""\u001d""#), (0x1E, #""\u001e""#), (0x1F, #""\u001f""#), (0x22, #""\"""#),
    (0x5C, #""\\""#), (0x2F, "\"/\""), (0x7F, "\"\u{7F}\""), (0x2028, "\"\u{2028}\""),
    (0xE9, "\"\u{E9}\""), (0x1F600, "\"\u{1F600}\""),
  ]

  @Test func escapingTableFromString() {
    for (scalar, expected) in Self.escapingTable {
      let text = String(UnicodeScalar(scalar)!)
      var output = JSONOutput(style: .compact)
      output.writeString(text)
      #expect(output.string == expected, "U+\(String(scalar, radix: 16))")
    }
  }

  /// The same characters arriving as escapes in an input string (`\u00XX` in upper and lower
  /// case, surrogate pairs, `\/`) are rewritten to the canonical form.
  @Test func escapingTableFromEscapedInput() throws {
    for (scalar, expected) in Self.escapingTable {
      var escapes: [String] = []
      if scalar < 0x10000 {
        escapes = [String(format: "\\u%04x", scalar), String(format: "\\u%04X", scalar)]
      } else {
        let v = scalar - 0x10000
        escapes = [String(format: "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))]
      }
      if scalar == 0x2F { escapes.append("\\/") }
      for escape in escapes {
        let input = Array("\"\(escape)\"".utf8)
        try InputBytes(input).withUnsafeBytes { raw in
          var scanner = JSONScanner(raw)
          let token = try scanner.next()
          var output = JSONOutput(style: .compact)
          output.writeString(raw: scanner.rawBytes(token), hasEscapes: token.hasEscapes)
          #expect(output.string == expected, "\(escape)")
        }
      }
    }
  }

  @Test func rawInputWithoutEscapesIsCopied() throws {
    let input = Array("\"a/é😀\u{7F} \u{2028}\"".utf8)
    try InputBytes(input).withUnsafeBytes { raw in
      var scanner = JSONScanner(raw)
      let token = try scanner.next()
      #expect(!token.hasEscapes)
      var output = JSONOutput(style: .compact)
      output.writeString(raw: scanner.rawBytes(token), hasEscapes: false)
      #expect(output.bytes == input)
    }
  }

  /// Random strings mixing plain text, characters that need escapes and non-ASCII, written
  /// with the fast writer, must match the one-scalar-at-a-time reference escaping.
  @Test func randomStringsMatchReferenceEscaping() {
    var generator = SplitMix64(seed: 7)
    let pieces: [String] = [
      "a", "bcdefgh", "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "é", "😀", "/", "\u{7F}", "~", "xyz12345",
    ]
    for _ in 0..<2000 {
      var text = ""
      for _ in 0..<Int.random(in: 0..<24, using: &generator) {
        text += pieces.randomElement(using: &generator)!
      }
      var output = JSONOutput(style: .compact)
      output.writeString(text)
      #expect(output.string == referenceEscaped(text))
    }
  }

  @Test func pythonReprOfDoubles() throws {
    for (bits, repr) in pythonReprTable {
      let value = Double(bitPattern: bits)
      #expect(PythonFloatFormatter.string(value) == repr)
      var output = JSONOutput(style: .compact)
      try output.writeDouble(value)
      #expect(output.string == repr)
      // The text reads back to the same double.
      let back = Array(repr.utf8).withUnsafeBytes { NumberParser.double($0) }
      #expect(back?.bitPattern == bits, "\(repr)")
    }
  }

  @Test func nonFiniteDoublesAreRefused() {
    for value in [Double.nan, .infinity, -.infinity] {
      var output = JSONOutput(style: .compact)
      output.beginArray()
      let error = #expect(throws: StoreValueError.self) { try output.writeDouble(value) }
      #expect(error?.code == .nonFiniteNumber)
      output.endArray()
      #expect(output.string == "[]")
      #expect(PythonFloatFormatter.string(value) == nil)
    }
  }

  @Test func integers() {
    var output = JSONOutput(style: .compact)
    output.beginArray()
    for value: Int64 in [0, 7, -7, 10, 99, 100, -100, 1_000_000, .max, .min] { output.writeInt(value) }
    output.endArray()
    #expect(
      output.string
        == "[0,7,-7,10,99,100,-100,1000000,9223372036854775807,-9223372036854775808]")
  }

  @Test func numberedStrings() {
    let question = PreparedStringPrefix("Question/")
    let odd = PreparedStringPrefix("a\"b\u{1}/")
    var output = JSONOutput(style: .compact)
    output.beginArray()
    output.writeString(prefix: question, number: 1)
    output.writeString(prefix: question, number: 1_312_603)
    output.writeString(prefix: odd, number: -5)
    output.endArray()
    #expect(output.string == #"["Question/1","Question/1312603","a\"b\u0001/-5"]"#)
  }

  /// Writes one small document through the structural calls.
  func writeSample(_ output: inout JSONOutput) throws {
    output.beginObject()
    output.writeKey(PreparedKey("id"))
    output.writeString("A/1")
    output.writeKey("empty list")
    output.beginArray()
    output.endArray()
    output.writeKey(raw: UnsafeRawBufferPointer(start: nil, count: 0), hasEscapes: false)
    output.beginObject()
    output.endObject()
    output.writeKey("list")
    output.beginArray()
    output.writeInt(1)
    try output.writeDouble(2.5)
    output.writeNull()
    output.writeBool(true)
    output.writeBool(false)
    output.beginObject()
    output.writeKey("k\"")
    output.beginArray()
    output.writeString("")
    output.endArray()
    output.endObject()
    output.endArray()
    output.endObject()
    try output.finishDocument()
  }

  @Test func indentedMatchesPythonLayout() throws {
    var output = JSONOutput(style: .indented)
    try writeSample(&output)
    // json.dump(value, f, indent=2, ensure_ascii=False) + "\n", printed by Python 3.11.7.
    let expected = """
      {
        "id": "A/1",
        "empty list": [],
        "": {},
        "list": [
          1,
          2.5,
          null,
          true,
          false,
          {
            "k\\"": [
              ""
            ]
          }
        ]
      }

      """
    #expect(output.string == expected)
  }

  @Test func compactMatchesPythonLayout() throws {
    var output = JSONOutput(style: .compact)
    try writeSample(&output)
    #expect(output.string == #"{"id":"A/1","empty list":[],"":{},"list":[1,2.5,null,true,false,{"k\"":[""]}]}"# + "\n")
  }

  @Test func topLevelScalarAndEmptyContainers() throws {
    for (style, value, expected) in [
      (JSONOutput.Style.indented, 0, "[]\n"), (.compact, 0, "[]\n"), (.indented, 1, "{}\n"),
    ] {
      var output = JSONOutput(style: style)
      if value == 0 {
        output.beginArray()
        output.endArray()
      } else {
        output.beginObject()
        output.endObject()
      }
      try output.finishDocument()
      #expect(output.string == expected)
    }
    var scalar = JSONOutput(style: .indented)
    scalar.writeString("x")
    try scalar.finishDocument()
    #expect(scalar.string == "\"x\"\n")
  }

  @Test func deepIndentation() throws {
    var output = JSONOutput(style: .indented)
    for _ in 0..<200 { output.beginArray() }
    output.writeInt(1)
    for _ in 0..<200 { output.endArray() }
    try output.finishDocument()
    let lines = output.string.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 402)
    #expect(lines[200] == Substring(String(repeating: " ", count: 400) + "1"))
    #expect(lines[201] == Substring(String(repeating: " ", count: 398) + "]"))
  }

  /// Bigger than the buffer: flushing to a file in many pieces gives the same bytes as
  /// writing to memory.
  @Test func writesThroughSmallBufferToFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/out.json"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(fd >= 0)
    var toFile = JSONOutput(
      fileDescriptor: fd, path: path, style: .indented, bufferCapacity: 4096, startsWriteback: true)
    var toMemory = JSONOutput(style: .indented, initialCapacity: 64)
    let long = String(repeating: "long text é😀 \"quoted\" ", count: 700)
    func fill(_ o: inout JSONOutput) {
      o.beginArray()
      for i in 0..<2000 {
        o.beginObject()
        o.writeKey("n")
        o.writeInt(i)
        o.writeKey("s")
        o.writeString(i % 500 == 0 ? long : "short \(i)")
        o.endObject()
      }
      o.endArray()
    }
    fill(&toFile)
    fill(&toMemory)
    try toFile.finishDocument()
    try toMemory.finishDocument()
    close(fd)
    let written = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(written == toMemory.bytes)
    #expect(toFile.bytesFlushed == written.count)
  }

  @Test func writeErrorsAreStickyAndNamed() throws {
    let fd = open("/dev/full", O_WRONLY)
    guard fd >= 0 else { return }  // no /dev/full on this system
    defer { close(fd) }
    var output = JSONOutput(fileDescriptor: fd, path: "/dev/full", style: .compact, bufferCapacity: 4096)
    output.beginArray()
    for _ in 0..<5000 { output.writeString("0123456789") }
    output.endArray()
    #expect(output.error?.code == .systemError)
    let error = #expect(throws: StoreIOError.self) { try output.finishDocument() }
    #expect(error?.description == "cannot write '/dev/full': no space left on device")
  }

  /// Every expected store in the fixtures, scanned and re-emitted token by token in indented
  /// form, is reproduced byte for byte; the compact form matches Python's compact dump.
  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func fixturesRoundTripByteForByte() throws {
    let fixtures = try #require(SharedPaths.fixtures)
    let folders = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
    var checked = 0
    for folder in folders {
      let folderPath = fixtures.appendingPathComponent(folder).path
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else {
        continue
      }
      for name in names.sorted() where name.hasPrefix("expected") && name.hasSuffix(".json") {
        let input = try InputBytes(contentsOf: folderPath + "/" + name)
        let original = input.withUnsafeBytes { Array($0) }
        let indented = try input.withUnsafeBytes { try reemit($0, style: .indented) }
        #expect(indented == original, "\(folder)/\(name)")
        let compact = try input.withUnsafeBytes { try reemit($0, style: .compact) }
        let compactText = String(decoding: compact, as: UTF8.self)
        #expect(!compactText.dropLast().contains("\n") && compactText.hasSuffix("}\n"))
        // Compact and indented forms hold the same tokens.
        #expect(try scanTokens(compact) == scanTokens(original))
        checked += 1
      }
    }
    #expect(checked >= 2)
  }
}
