import MapJSON
import MapJSONText
import MapRuntime
import Testing

/// Hostile inputs: each must be refused with the given rule, message, line and column.
struct HostileJSON: Sendable, CustomStringConvertible {
  var name: String
  var bytes: [UInt8]
  var code: JSONSyntaxError.Code
  var message: String
  var line: Int
  var column: Int

  init(
    _ name: String, _ text: String, _ code: JSONSyntaxError.Code, _ message: String,
    _ line: Int, _ column: Int
  ) {
    self.init(name, Array(text.utf8), code, message, line, column)
  }

  init(
    _ name: String, _ bytes: [UInt8], _ code: JSONSyntaxError.Code, _ message: String,
    _ line: Int, _ column: Int
  ) {
    self.name = name
    self.bytes = bytes
    self.code = code
    self.message = message
    self.line = line
    self.column = column
  }

  var description: String { name }
}

let hostileJSON: [HostileJSON] = [
  // Structure
  .init("empty input", "", .unexpectedEndOfInput, "unexpected end of input, expected a value", 1, 1),
  .init("only whitespace", " \n\t ", .unexpectedEndOfInput, "unexpected end of input, expected a value", 2, 3),
  .init("trailing comma in object", #"{"a": 1,}"#, .trailingComma, "trailing comma before '}'", 1, 9),
  .init("trailing comma in array", "[1, 2,]", .trailingComma, "trailing comma before ']'", 1, 7),
  .init(
    "trailing garbage", #"{"a": 1} x"#, .trailingCharacters, "unexpected 'x' after the end of the JSON value", 1, 10),
  .init(
    "second top-level value", "{\"a\":1}}", .trailingCharacters, "unexpected '}' after the end of the JSON value", 1, 8),
  .init("two top-level values", "1 2", .trailingCharacters, "unexpected '2' after the end of the JSON value", 1, 3),
  .init("missing colon", #"{"a" 1}"#, .unexpectedCharacter, "expected ':' after the member name, found '1'", 1, 6),
  .init("unquoted key", "{a: 1}", .unexpectedCharacter, "expected a member name in double quotes, found 'a'", 1, 2),
  .init(
    "single-quoted key", "{'a': 1}", .unexpectedCharacter, "expected a member name in double quotes, found '''", 1, 2),
  .init(
    "leading comma in object", "{,}", .unexpectedCharacter, "expected a member name in double quotes, found ','", 1, 2),
  .init("leading comma in array", "[,1]", .unexpectedCharacter, "expected a value, found ','", 1, 2),
  .init(
    "missing comma in array", "[1 2]", .unexpectedCharacter, "expected ',' or ']' after an array element, found '2'", 1,
    4),
  .init(
    "missing comma in object", #"{"a": 1 "b": 2}"#, .unexpectedCharacter,
    "expected ',' or '}' after an object member, found '\"'", 1, 9),
  .init("missing value", #"{"a": }"#, .unexpectedCharacter, "expected a value, found '}'", 1, 7),
  .init("comma then brace in array", "[1,}", .unexpectedCharacter, "expected a value, found '}'", 1, 4),
  .init(
    "mismatched bracket", "[1}", .unexpectedCharacter, "expected ',' or ']' after an array element, found '}'", 1, 3),
  .init("comment", "// note\n{}", .unexpectedCharacter, "expected a value, found '/'", 1, 1),
  .init("non-ASCII outside strings", "[é]", .unexpectedCharacter, "expected a value, found 'é' (U+00E9)", 1, 2),
  .init(
    "invalid byte outside strings", [0x5B, 0xFF, 0x5D], .unexpectedCharacter, "expected a value, found byte 0xFF", 1, 2),
  .init(
    "control character outside strings", "[\u{0B}]", .unexpectedCharacter,
    "expected a value, found control character U+000B", 1, 2),
  .init(
    "unclosed array", "[1, 2", .unexpectedEndOfInput,
    "unexpected end of input, expected ',' or ']' (1 unclosed container)", 1, 6),
  .init(
    "unclosed object after comma", "{\"a\":[1],", .unexpectedEndOfInput,
    "unexpected end of input, expected a member name in quotes (1 unclosed container)", 1, 10),
  .init(
    "key without value", "{\"a\"", .unexpectedEndOfInput,
    "unexpected end of input, expected ':' (1 unclosed container)", 1, 5),
  .init(
    "byte order mark", "\u{FEFF}{}", .byteOrderMark,
    "the text starts with a UTF-8 byte order mark, which JSON does not allow", 1, 1),
  .init(
    "nesting too deep", String(repeating: "[", count: 513), .nestingTooDeep,
    "arrays and objects are nested more than 512 levels deep", 1, 513),

  // Strings
  .init(
    "raw tab in string", "\"ab\tc\"", .controlCharacter, "control character U+0009 must be escaped in a string", 1, 4),
  .init(
    "raw newline in string", "[\"line\nnext\"]", .controlCharacter,
    "control character U+000A must be escaped in a string", 1, 7),
  .init(
    "raw NUL after an emoji", "[\"😀\u{0}\"]", .controlCharacter, "control character U+0000 must be escaped in a string",
    1, 4),
  .init(
    "raw control character far into a long string", "\"" + String(repeating: "abcdefgh", count: 5) + "\u{1F}\"",
    .controlCharacter, "control character U+001F must be escaped in a string", 1, 42),
  .init("unterminated string", #"{"a": "abc"#, .unterminatedString, "unterminated string (no closing '\"')", 1, 7),
  .init("unterminated key", #"{"abc"#, .unterminatedString, "unterminated string (no closing '\"')", 1, 2),
  .init("backslash at end of input", #""abc\"#, .unterminatedString, "unterminated escape at the end of input", 1, 5),
  .init("unknown escape", #""\x41""#, .invalidEscape, "invalid escape '\\x' in string", 1, 2),
  .init("escaped single quote", #""\'""#, .invalidEscape, "invalid escape '\\'' in string", 1, 2),
  .init("short \\u escape", #""\u12G4""#, .invalidEscape, "\\u must be followed by four hexadecimal digits", 1, 2),
  .init(
    "\\u escape cut by the end", #""\u12"#, .invalidEscape, "\\u must be followed by four hexadecimal digits", 1, 2),
  .init(
    "lone high surrogate", #"["\ud800"]"#, .loneSurrogate,
    "\\uD800 is a high surrogate not followed by a \\u low surrogate", 1, 3),
  .init(
    "lone low surrogate", #"["x\udc00"]"#, .loneSurrogate,
    "\\uDC00 is a low surrogate without a high surrogate before it", 1, 4),
  .init(
    "high surrogate then non-surrogate", #""\ud83d\u0041""#, .loneSurrogate,
    "\\uD83D is a high surrogate not followed by a low surrogate", 1, 2),
  .init(
    "two high surrogates", #""\ud83d\ud83d""#, .loneSurrogate,
    "\\uD83D is a high surrogate not followed by a low surrogate", 1, 2),
  .init(
    "invalid UTF-8 byte", [0x22, 0x61, 0xFF, 0x62, 0x22], .invalidUTF8, "invalid UTF-8 in string (byte 0xFF)", 1, 3),
  .init("stray continuation byte", [0x22, 0x80, 0x22], .invalidUTF8, "invalid UTF-8 in string (byte 0x80)", 1, 2),
  .init("overlong slash", [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, "invalid UTF-8 in string (byte 0xC0)", 1, 2),
  .init(
    "overlong three-byte form", [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, "invalid UTF-8 in string (byte 0xE0)", 1,
    2),
  .init(
    "UTF-8 encoded surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, "invalid UTF-8 in string (byte 0xED)", 1, 2
  ),
  .init(
    "above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, "invalid UTF-8 in string (byte 0xF4)", 1, 2),
  .init(
    "five-byte lead", [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, "invalid UTF-8 in string (byte 0xF8)",
    1, 2),
  .init(
    "truncated sequence before the quote", [0x22, 0xE2, 0x82, 0x22], .invalidUTF8,
    "invalid UTF-8 in string (byte 0xE2)", 1, 2),
  .init(
    "truncated sequence at end of input", [0x22, 0xF0, 0x9F], .invalidUTF8, "invalid UTF-8 in string (byte 0xF0)", 1, 2),

  // Numbers and literals
  .init("leading zero", "[01]", .leadingZero, "numbers must not have leading zeros", 1, 2),
  .init("negative leading zero", "[-01]", .leadingZero, "numbers must not have leading zeros", 1, 2),
  .init("bare minus", "[-]", .invalidNumber, "expected a digit after '-'", 1, 3),
  .init("no fraction digits", "[1.]", .invalidNumber, "expected a digit after the decimal point", 1, 4),
  .init("no exponent digits", "[1e]", .invalidNumber, "expected a digit in the exponent", 1, 4),
  .init("exponent sign only", "[1e+]", .invalidNumber, "expected a digit in the exponent", 1, 5),
  .init("two decimal points", "[1.5.2]", .invalidNumber, "invalid number: unexpected '.'", 1, 5),
  .init("hexadecimal", "[0x10]", .invalidNumber, "invalid number: unexpected 'x'", 1, 3),
  .init("letters after a number", "{\"n\": 12abc}", .invalidNumber, "invalid number: unexpected 'a'", 1, 9),
  .init("plus sign", "[+1]", .unexpectedCharacter, "expected a value, found '+'", 1, 2),
  .init("leading point", "[.5]", .unexpectedCharacter, "expected a value, found '.'", 1, 2),
  .init("NaN", "NaN", .nonFiniteNumber, "NaN is not valid JSON", 1, 1),
  .init("Infinity", "[Infinity]", .nonFiniteNumber, "Infinity is not valid JSON", 1, 2),
  .init("minus Infinity", "[-Infinity]", .nonFiniteNumber, "-Infinity is not valid JSON", 1, 2),
  .init("truncated true", "[tru]", .invalidLiteral, "invalid literal; expected 'true'", 1, 2),
  .init("capitalized literal", "[True]", .unexpectedCharacter, "expected a value, found 'T'", 1, 2),
  .init("null cut by the end", "[nul", .invalidLiteral, "invalid literal; expected 'null'", 1, 2),
  .init("misspelled false", "[fals3]", .invalidLiteral, "invalid literal; expected 'false'", 1, 2),
  .init(
    "literal run on", "[nullx]", .unexpectedCharacter, "expected ',' or ']' after an array element, found 'x'", 1, 6),

  // Positions on later lines count Unicode scalars.
  .init("trailing comma on line 3", "{\n  \"é😀\": [1,\n    ]\n}", .trailingComma, "trailing comma before ']'", 3, 5),
  .init(
    "bad literal after non-ASCII key", "{\n  \"naïve\": tru\n}", .invalidLiteral, "invalid literal; expected 'true'", 2,
    12),
  .init(
    "CRLF line ends", "{\r\n  \"a\": 1,\r\n  \"b\": x\r\n}", .unexpectedCharacter, "expected a value, found 'x'", 3, 8),
]

@Suite struct JSONScannerSyntaxErrorTests {
  @Test(arguments: hostileJSON)
  func refused(_ testCase: HostileJSON) throws {
    let found = try #require(syntaxError(testCase.bytes), "accepted: \(testCase.name)")
    #expect(found.error.code == testCase.code)
    #expect(found.error.message == testCase.message)
    #expect(found.position.line == testCase.line)
    #expect(found.position.column == testCase.column)
  }

  @Test func nestingLimitIsExact() throws {
    let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(try scanTokens(deepest).count == 1024)
    let custom = String(repeating: "{\"a\":", count: 3) + "1" + String(repeating: "}", count: 3)
    #expect(syntaxError(Array(custom.utf8), maxDepth: 3) == nil)
    let error = try #require(syntaxError(Array(custom.utf8), maxDepth: 2))
    #expect(error.error.code == .nestingTooDeep)
    #expect(error.position.column == 11)
  }

  @Test func errorRendersAsLocation() throws {
    let text = Array("{\n  \"a\": [1,]\n}".utf8)
    let found = try #require(syntaxError(text))
    let location = text.withUnsafeBytes { found.error.location(in: $0, file: "store.json") }
    #expect(location.description == "store.json:2:11")
    #expect(found.error.description.hasSuffix("[json-trailing-comma]"))
  }

  @Test func positionOfOffsets() {
    let text = Array("ab\ncé😀x\n".utf8)
    text.withUnsafeBytes { raw in
      #expect(JSONTextPosition(of: 0, in: raw) == JSONTextPosition(line: 1, column: 1))
      #expect(JSONTextPosition(of: 2, in: raw) == JSONTextPosition(line: 1, column: 3))
      #expect(JSONTextPosition(of: 3, in: raw) == JSONTextPosition(line: 2, column: 1))
      // c(1) é(2 bytes) 😀(4 bytes) x
      #expect(JSONTextPosition(of: 4, in: raw) == JSONTextPosition(line: 2, column: 2))
      #expect(JSONTextPosition(of: 6, in: raw) == JSONTextPosition(line: 2, column: 3))
      #expect(JSONTextPosition(of: 10, in: raw) == JSONTextPosition(line: 2, column: 4))
      #expect(JSONTextPosition(of: 12, in: raw) == JSONTextPosition(line: 3, column: 1))
      #expect(JSONTextPosition(of: 999, in: raw) == JSONTextPosition(line: 3, column: 1))
    }
  }
}
