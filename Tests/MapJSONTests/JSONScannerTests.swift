import MapJSON
import MapJSONText
import MapRuntime
import MapTestSupport
import Testing

@Suite struct JSONScannerTests {
  @Test func tokensOfEveryKind() throws {
    let text = " {\"a\" :[1, -2.5e3,true,false,null, \"x\\ny\"],\r\n\t\"\":{}, \"b\": [ ] } "
    let tokens = try scanTokens(text)
    let expected: [ScannedToken] = [
      .init(kind: .beginObject, text: "{"),
      .init(kind: .key, text: "a"),
      .init(kind: .beginArray, text: "["),
      .init(kind: .number, text: "1"),
      .init(kind: .number, text: "-2.5e3"),
      .init(kind: .true, text: "true"),
      .init(kind: .false, text: "false"),
      .init(kind: .null, text: "null"),
      .init(kind: .string, text: "x\\ny"),
      .init(kind: .endArray, text: "]"),
      .init(kind: .key, text: ""),
      .init(kind: .beginObject, text: "{"),
      .init(kind: .endObject, text: "}"),
      .init(kind: .key, text: "b"),
      .init(kind: .beginArray, text: "["),
      .init(kind: .endArray, text: "]"),
      .init(kind: .endObject, text: "}"),
    ]
    #expect(tokens == expected)
  }

  @Test func topLevelScalars() throws {
    #expect(try scanTokens("\"x\"") == [.init(kind: .string, text: "x")])
    #expect(try scanTokens(" 42 ") == [.init(kind: .number, text: "42")])
    #expect(try scanTokens("-0") == [.init(kind: .number, text: "-0")])
    #expect(try scanTokens("\ttrue\n") == [.init(kind: .true, text: "true")])
    #expect(try scanTokens("null") == [.init(kind: .null, text: "null")])
  }

  @Test func flagsAndRanges() throws {
    let text = Array(#"["plain", "es\"c", 7, 7.0, 7e1, -0]"#.utf8)
    let input = InputBytes(text)
    try input.withUnsafeBytes { raw in
      var scanner = JSONScanner(raw)
      _ = try scanner.expect(.beginArray)
      let plain = try scanner.next()
      #expect(plain.kind == .string && !plain.hasEscapes)
      #expect(plain.range == 2..<7)
      #expect(plain.rawRange == 1..<8)
      let escaped = try scanner.next()
      #expect(escaped.hasEscapes)
      #expect(scanner.decodeString(escaped) == "es\"c")
      let integers = try (0..<4).map { _ in try scanner.next() }
      #expect(integers.map(\.isInteger) == [true, false, false, true])
      #expect(scanner.int64(integers[0]) == 7)
      #expect(scanner.int64(integers[1]) == nil)
      #expect(scanner.double(integers[1]) == 7.0)
      #expect(scanner.double(integers[2]) == 70.0)
      #expect(scanner.int64(integers[3]) == 0)
      #expect(try scanner.next().kind == .endArray)
      #expect(try scanner.next().kind == .endOfInput)
      #expect(scanner.position == text.count)
    }
  }

  @Test func validUTF8Boundaries() throws {
    // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF, and U+007F raw.
    let samples = [
      "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "\u{7F}",
    ]
    for sample in samples {
      let text = "[\"a\(sample)b\(String(repeating: sample, count: 9))\"]"
      let tokens = try scanTokens(text)
      #expect(tokens[1].text == "a\(sample)b\(String(repeating: sample, count: 9))")
    }
  }

  @Test func decodesEveryEscape() throws {
    let text = Array(#""\"\\\/\b\f\n\r\t\u00e9\u0000\u20AC\ud83d\ude00x""#.utf8)
    try InputBytes(text).withUnsafeBytes { raw in
      var scanner = JSONScanner(raw)
      let token = try scanner.next()
      #expect(token.hasEscapes)
      let expected = "\"\\/\u{08}\u{0C}\n\r\t\u{E9}\u{0}€😀x"
      #expect(scanner.decodeString(token) == expected)
      var bytes: [UInt8] = [1]
      scanner.appendDecodedBytes(token, to: &bytes)
      #expect(bytes == [1] + Array(expected.utf8))
      let count = scanner.withDecodedBytes(token) { $0.count }
      #expect(count == expected.utf8.count)
    }
  }

  @Test func comparesKeysWithoutDecoding() throws {
    let text = Array(#"{"id": 1, "\u0069d": 2, "idx": 3, "i": 4, "caf\u00e9": 5, "": 6}"#.utf8)
    try InputBytes(text).withUnsafeBytes { raw in
      var scanner = JSONScanner(raw)
      _ = try scanner.expect(.beginObject)
      var matches: [Bool] = []
      var matchesString: [Bool] = []
      while let key = try scanner.nextKey() {
        matches.append(scanner.string(key, equals: "id"))
        matchesString.append(scanner.string(key, equals: "café"))
        _ = try scanner.skipValue()
      }
      #expect(matches == [true, true, false, false, false, false])
      #expect(matchesString == [false, false, false, false, true, false])
    }
  }

  @Test func skipValueReturnsRawRanges() throws {
    let text = #"{"a": {"x": [1, {"y": "]}"}], "z": null}, "b": "s\"", "c": -1.5, "d": [[]], "e": true}"#
    let bytes = Array(text.utf8)
    try InputBytes(bytes).withUnsafeBytes { raw in
      var scanner = JSONScanner(raw)
      _ = try scanner.expect(.beginObject)
      var skipped: [String: String] = [:]
      while let key = try scanner.nextKey() {
        let range = try scanner.skipValue()
        skipped[scanner.decodeString(key)] = String(decoding: raw[range], as: UTF8.self)
      }
      #expect(skipped["a"] == #"{"x": [1, {"y": "]}"}], "z": null}"#)
      #expect(skipped["b"] == #""s\"""#)
      #expect(skipped["c"] == "-1.5")
      #expect(skipped["d"] == "[[]]")
      #expect(skipped["e"] == "true")
      #expect(scanner.depth == 0)
      #expect(try scanner.next().kind == .endOfInput)
    }
  }

  @Test func skipValueStillValidates() throws {
    let bytes = Array(#"{"a": [1, 2,], "b": 1}"#.utf8)
    try InputBytes(bytes).withUnsafeBytes { raw in
      var scanner = JSONScanner(raw)
      _ = try scanner.expect(.beginObject)
      _ = try scanner.nextKey()
      #expect(throws: JSONSyntaxError.self) { try scanner.skipValue() }
    }
  }

  @Test func expectNamesWhatWasFound() throws {
    let bytes = Array(#"{"a": [1]}"#.utf8)
    InputBytes(bytes).withUnsafeBytes { raw in
      var scanner = JSONScanner(raw)
      let error = #expect(throws: JSONSyntaxError.self) { try scanner.expect(.beginArray) }
      #expect(error?.message == "expected an array, found an object")
      #expect(error?.byteOffset == 0)
    }
  }

  /// Strings of every length around the 8-byte block size with a special byte at every
  /// position: the block scan must find each one.
  @Test func specialBytesAtEveryPosition() throws {
    let specials: [(insert: String, decoded: String)] = [
      ("\\\"", "\""), ("\\\\", "\\"), ("é", "é"), ("😀", "😀"), ("\\u0001", "\u{1}"), ("~", "~"),
      ("!", "!"), ("#", "#"), ("[", "["), ("]", "]"), ("\u{7F}", "\u{7F}"),
    ]
    for length in 0..<20 {
      for position in 0...length {
        for special in specials {
          let before = String(repeating: "a", count: position)
          let after = String(repeating: "b", count: length - position)
          let tokens = try scanTokens("[\"\(before)\(special.insert)\(after)\", 1]")
          #expect(tokens.count == 4)
          let bytes = Array("\"\(before)\(special.insert)\(after)\"".utf8)
          try InputBytes(bytes).withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            let token = try scanner.next()
            #expect(scanner.decodeString(token) == before + special.decoded + after)
          }
        }
        // A raw control character anywhere is found.
        let before = String(repeating: "a", count: position)
        let after = String(repeating: "b", count: length - position)
        let error = try #require(syntaxError("\"\(before)\u{1}\(after)\""))
        #expect(error.error.code == .controlCharacter)
        #expect(error.position.column == position + 2)
      }
    }
  }

  /// Random mutations of a valid document: the scanner either accepts or throws, and when it
  /// accepts, re-emitting and re-scanning gives the same tokens.
  @Test func mutatedDocumentsNeverCrash() throws {
    let seed = Array(#"{"a": [1, -2.5e-3, "x\u00e9\n", true, null, {"b": "é😀"}], "c": {}}"#.utf8)
    var generator = SplitMix64(seed: 42)
    let alphabet = Array(#"{}[]",:\ u0123456789.eE+-tfnaé"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]
    var accepted = 0
    for _ in 0..<3000 {
      var bytes = seed
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[index] = alphabet.randomElement(using: &generator)!
        case 1: bytes.remove(at: index)
        default: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
        }
        if bytes.isEmpty { break }
      }
      guard let tokens = try? scanTokens(bytes) else { continue }
      accepted += 1
      let again = try InputBytes(bytes).withUnsafeBytes { try reemit($0, style: .compact) }
      let rescanned = try scanTokens(again)
      #expect(rescanned.map(\.kind) == tokens.map(\.kind))
    }
    #expect(accepted > 100)
  }
}
