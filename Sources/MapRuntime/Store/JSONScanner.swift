/// A strict, zero-copy pull parser over a contiguous UTF-8 buffer (RFC 8259).
///
/// Each `next()` returns one `JSONToken` that points into the buffer; strings are validated
/// (UTF-8, escapes, no raw control characters) but not decoded until asked. The scanner checks
/// the whole grammar as it goes: a token is only returned if everything before it is valid
/// JSON, and `endOfInput` only once the text is complete with nothing but whitespace after it.
///
/// The buffer is borrowed: it must stay alive and unchanged while the scanner is used (keep
/// the `InputBytes` alive, or scan inside `withUnsafeBytes`). For that reason the scanner is
/// not `Sendable`.
///
/// Typical use by a reader:
/// ```swift
/// var scanner = JSONScanner(bytes)
/// try scanner.expect(.beginObject)
/// while let key = try scanner.nextKey() {
///   if scanner.string(key, equals: "objects") { … } else { _ = try scanner.skipValue() }
/// }
/// ```
public struct JSONScanner {
  /// Containers nested deeper than this are refused (`json-nesting-too-deep`).
  public static let defaultMaxDepth = 512

  /// The text being scanned.
  public let bytes: UnsafeRawBufferPointer
  @usableFromInline let base: UnsafePointer<UInt8>
  @usableFromInline let count: Int
  /// Offset of the first byte not consumed yet.
  public private(set) var position: Int = 0
  /// The nesting limit this scanner enforces.
  public let maxDepth: Int
  /// Number of containers currently open.
  public private(set) var depth: Int = 0

  @usableFromInline enum State: UInt8 {
    case start, value, valueOrEndArray, keyOrEndObject, afterValue, done
  }

  @usableFromInline var state: State = .start
  /// Whether the innermost open container is an object.
  @usableFromInline var inObject = false
  /// One bit per open container below the innermost: 1 for an object.
  @usableFromInline var outerKinds: [UInt64]

  /// Creates a scanner over `bytes`, which must outlive it.
  public init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSONScanner.defaultMaxDepth) {
    self.bytes = bytes
    self.count = bytes.count
    if let start = bytes.baseAddress {
      self.base = start.assumingMemoryBound(to: UInt8.self)
    } else {
      // Never read: every access is bounds-checked against `count`, which is 0 here.
      self.base = UnsafePointer(bitPattern: 0x10)!
    }
    self.maxDepth = max(maxDepth, 1)
    self.outerKinds = [UInt64](repeating: 0, count: (self.maxDepth + 64) / 64)
  }

  /// Whether the innermost open container is an object (false at top level).
  public var isInObject: Bool { depth > 0 && inObject }

  // MARK: - Tokens

  /// The next token. Throws at the first violation of the grammar; after an error the
  /// scanner must not be used any more.
  public mutating func next() throws(JSONSyntaxError) -> JSONToken {
    switch state {
    case .afterValue:
      var i = skipWhitespace(from: position)
      if depth == 0 {
        if i < count {
          throw JSONSyntaxError(
            .trailingCharacters,
            "unexpected \(describeCharacter(at: i)) after the end of the JSON value", at: i)
        }
        position = i
        state = .done
        return JSONToken(.endOfInput, start: i, end: i)
      }
      guard i < count else {
        throw endOfInputError(at: i, expected: inObject ? "',' or '}'" : "',' or ']'")
      }
      let c = base[i]
      if c == ASCII.comma {
        i = skipWhitespace(from: i + 1)
        return inObject
          ? try readKey(at: i, afterComma: true) : try readValue(at: i, afterComma: true)
      }
      if inObject {
        if c == ASCII.closeBrace { return close(at: i, .endObject) }
        throw JSONSyntaxError(
          .unexpectedCharacter,
          "expected ',' or '}' after an object member, found \(describeCharacter(at: i))", at: i)
      }
      if c == ASCII.closeBracket { return close(at: i, .endArray) }
      throw JSONSyntaxError(
        .unexpectedCharacter,
        "expected ',' or ']' after an array element, found \(describeCharacter(at: i))", at: i)

    case .value:
      return try readValue(at: skipWhitespace(from: position), afterComma: false)

    case .keyOrEndObject:
      let i = skipWhitespace(from: position)
      if i < count && base[i] == ASCII.closeBrace { return close(at: i, .endObject) }
      return try readKey(at: i, afterComma: false)

    case .valueOrEndArray:
      let i = skipWhitespace(from: position)
      if i < count && base[i] == ASCII.closeBracket { return close(at: i, .endArray) }
      return try readValue(at: i, afterComma: false)

    case .start:
      if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
        throw JSONSyntaxError(
          .byteOrderMark, "the text starts with a UTF-8 byte order mark, which JSON does not allow",
          at: 0)
      }
      return try readValue(at: skipWhitespace(from: 0), afterComma: false)

    case .done:
      return JSONToken(.endOfInput, start: count, end: count)
    }
  }

  /// Continues at `offset`, where an element of the innermost open array starts after a comma:
  /// a copy of a scanner that has just read an array's `[` can read the array's second half
  /// while the original reads the first (see `StoreReader.startSplit`).
  public mutating func resume(atElement offset: Int) {
    precondition(depth > 0 && !inObject, "resume(atElement:) outside an array")
    position = offset
    state = .value
  }

  /// Reads the next token and checks that it has `kind`.
  public mutating func expect(_ kind: JSONToken.Kind) throws(JSONSyntaxError) -> JSONToken {
    let token = try next()
    if token.kind != kind {
      throw JSONSyntaxError(
        .unexpectedCharacter, "expected \(JSONScanner.describe(kind)), found \(describe(token))",
        at: token.start - (token.kind == .string || token.kind == .key ? 1 : 0))
    }
    return token
  }

  /// Inside an object: the next member's key, or nil once the closing `}` is consumed.
  public mutating func nextKey() throws(JSONSyntaxError) -> JSONToken? {
    let token = try next()
    if token.kind == .key { return token }
    precondition(token.kind == .endObject, "nextKey() called outside an object")
    return nil
  }

  /// Reads one whole value (a scalar, or a container with everything in it) and returns its
  /// byte range as written: quotes included for a string, brackets for a container. Must be
  /// called where a value starts (after a key, or in an array).
  public mutating func skipValue() throws(JSONSyntaxError) -> Range<Int> {
    let first = try next()
    switch first.kind {
    case .beginObject, .beginArray:
      let outer = depth - 1
      while true {
        let token = try next()
        if (token.kind == .endObject || token.kind == .endArray) && depth == outer {
          return first.start..<token.end
        }
      }
    case .string, .number, .true, .false, .null:
      return first.rawRange
    case .key, .endObject, .endArray, .endOfInput:
      preconditionFailure("skipValue() called where no value starts (\(first.kind))")
    }
  }

  // MARK: - Grammar

  @inline(__always)
  mutating func close(at i: Int, _ kind: JSONToken.Kind) -> JSONToken {
    depth -= 1
    if depth > 0 {
      inObject = (outerKinds[depth >> 6] >> UInt64(depth & 63)) & 1 != 0
    } else {
      inObject = false
    }
    position = i + 1
    state = .afterValue
    return JSONToken(kind, start: i, end: i + 1)
  }

  @inline(__always)
  mutating func open(at i: Int, object: Bool) throws(JSONSyntaxError) {
    if depth >= maxDepth {
      throw JSONSyntaxError(
        .nestingTooDeep, "arrays and objects are nested more than \(maxDepth) levels deep", at: i)
    }
    if depth > 0 {
      let bit = UInt64(1) << UInt64(depth & 63)
      if inObject {
        outerKinds[depth >> 6] |= bit
      } else {
        outerKinds[depth >> 6] &= ~bit
      }
    }
    depth += 1
    inObject = object
    position = i + 1
  }

  @inline(__always)
  mutating func readKey(at i: Int, afterComma: Bool) throws(JSONSyntaxError) -> JSONToken {
    guard i < count else { throw endOfInputError(at: i, expected: "a member name in quotes") }
    guard base[i] == ASCII.quote else {
      if afterComma && base[i] == ASCII.closeBrace {
        throw JSONSyntaxError(.trailingComma, "trailing comma before '}'", at: i)
      }
      throw JSONSyntaxError(
        .unexpectedCharacter,
        "expected a member name in double quotes, found \(describeCharacter(at: i))", at: i)
    }
    let (end, escapes) = try scanString(from: i + 1)
    let colon = skipWhitespace(from: end + 1)
    guard colon < count else { throw endOfInputError(at: colon, expected: "':'") }
    guard base[colon] == ASCII.colon else {
      throw JSONSyntaxError(
        .unexpectedCharacter,
        "expected ':' after the member name, found \(describeCharacter(at: colon))", at: colon)
    }
    position = colon + 1
    state = .value
    return JSONToken(.key, start: i + 1, end: end, flags: escapes ? JSONToken.escapesFlag : 0)
  }

  @inline(__always)
  mutating func readValue(at i: Int, afterComma: Bool) throws(JSONSyntaxError) -> JSONToken {
    guard i < count else { throw endOfInputError(at: i, expected: "a value") }
    let c = base[i]
    switch c {
    case ASCII.quote:
      let (end, escapes) = try scanString(from: i + 1)
      position = end + 1
      state = .afterValue
      return JSONToken(.string, start: i + 1, end: end, flags: escapes ? JSONToken.escapesFlag : 0)
    case ASCII.openBrace:
      try open(at: i, object: true)
      state = .keyOrEndObject
      return JSONToken(.beginObject, start: i, end: i + 1)
    case ASCII.openBracket:
      try open(at: i, object: false)
      state = .valueOrEndArray
      return JSONToken(.beginArray, start: i, end: i + 1)
    case ASCII.minus, ASCII.zero...ASCII.nine:
      let (end, integer) = try scanNumber(from: i)
      position = end
      state = .afterValue
      return JSONToken(.number, start: i, end: end, flags: integer ? JSONToken.integerFlag : 0)
    case UInt8(ascii: "t"):
      try expectLiteral("true", at: i)
      return literal(.true, at: i, length: 4)
    case UInt8(ascii: "f"):
      try expectLiteral("false", at: i)
      return literal(.false, at: i, length: 5)
    case UInt8(ascii: "n"):
      try expectLiteral("null", at: i)
      return literal(.null, at: i, length: 4)
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      if hasPrefix("NaN", at: i) || hasPrefix("Infinity", at: i) {
        throw JSONSyntaxError(
          .nonFiniteNumber, "\(c == UInt8(ascii: "N") ? "NaN" : "Infinity") is not valid JSON",
          at: i)
      }
    case ASCII.closeBracket where afterComma:
      // (After a comma in an object, `readKey` reports the trailing comma.)
      throw JSONSyntaxError(.trailingComma, "trailing comma before ']'", at: i)
    default:
      break
    }
    throw JSONSyntaxError(
      .unexpectedCharacter, "expected a value, found \(describeCharacter(at: i))", at: i)
  }

  @inline(__always)
  mutating func literal(_ kind: JSONToken.Kind, at i: Int, length: Int) -> JSONToken {
    position = i + length
    state = .afterValue
    return JSONToken(kind, start: i, end: i + length)
  }

  @inline(__always)
  func hasPrefix(_ text: StaticString, at i: Int) -> Bool {
    let n = text.utf8CodeUnitCount
    guard count - i >= n else { return false }
    let p = text.utf8Start
    for k in 0..<n where base[i + k] != p[k] { return false }
    return true
  }

  func expectLiteral(_ text: StaticString, at i: Int) throws(JSONSyntaxError) {
    if !hasPrefix(text, at: i) {
      throw JSONSyntaxError(.invalidLiteral, "invalid literal; expected '\(text)'", at: i)
    }
  }

  // MARK: - Whitespace

  @inline(__always)
  func skipWhitespace(from start: Int) -> Int {
    var i = start
    while i < count {
      let c = base[i]
      if c > ASCII.space { return i }
      guard c == ASCII.space || c == ASCII.newline || c == ASCII.tab || c == ASCII.carriageReturn
      else { return i }
      i += 1
      // Indentation comes in runs of spaces: measure the run eight bytes at a time (the
      // lowest non-space lane of a word gives the run's end).
      while i + 8 <= count {
        let notSpaces =
          UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ 0x2020_2020_2020_2020
        if notSpaces != 0 {
          i += notSpaces.trailingZeroBitCount >> 3
          break
        }
        i += 8
      }
    }
    return i
  }

  // MARK: - Strings

  /// Scans the string whose contents start at `start`; returns the offset of the closing
  /// quote and whether an escape occurs.
  @inline(__always)
  func scanString(from start: Int) throws(JSONSyntaxError) -> (end: Int, escapes: Bool) {
    var i = start
    var escapes = false
    while true {
      while i + 8 <= count {
        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        let special = JSONScanner.specialBytes(word)
        if special != 0 {
          i += special.trailingZeroBitCount >> 3
          break
        }
        i += 8
      }
      guard i < count else {
        throw JSONSyntaxError(
          .unterminatedString, "unterminated string (no closing '\"')", at: start - 1)
      }
      let c = base[i]
      if c == ASCII.quote { return (i, escapes) }
      if c == ASCII.backslash {
        i = try scanEscape(at: i)
        escapes = true
      } else if c >= 0x80 {
        i = try scanMultiByte(at: i)
      } else if c < 0x20 {
        throw JSONSyntaxError(
          .controlCharacter,
          "control character \(JSONScanner.scalarName(UInt32(c))) must be escaped in a string",
          at: i)
      } else {
        i += 1
      }
    }
  }

  /// High bit set in each byte lane of `word` that holds `"`, `\`, a byte below 0x20 or a
  /// byte of 0x80 and above. Lanes above the first such lane may be set spuriously (borrows),
  /// lanes below it never are, so the lowest set lane is exact.
  @inline(__always)
  static func specialBytes(_ word: UInt64) -> UInt64 {
    // The writer's escape test (`"`, `\`, below 0x20) plus the lanes whose high bit is set.
    JSONOutput.escapeBytes(word) | (word & 0x8080_8080_8080_8080)
  }

  /// Validates the escape starting at the backslash at `i`; returns the offset after it.
  @inline(never)
  func scanEscape(at i: Int) throws(JSONSyntaxError) -> Int {
    guard i + 1 < count else {
      throw JSONSyntaxError(.unterminatedString, "unterminated escape at the end of input", at: i)
    }
    switch base[i + 1] {
    case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return i + 2
    case UInt8(ascii: "u"):
      let unit = try hex4(at: i + 2, escapeAt: i)
      if unit & 0xFC00 == 0xDC00 {
        throw JSONSyntaxError(
          .loneSurrogate,
          "\\u\(JSONScanner.hex(unit)) is a low surrogate without a high surrogate before it",
          at: i)
      }
      if unit & 0xFC00 == 0xD800 {
        let next = i + 6
        guard next + 1 < count, base[next] == ASCII.backslash, base[next + 1] == UInt8(ascii: "u")
        else {
          throw JSONSyntaxError(
            .loneSurrogate,
            "\\u\(JSONScanner.hex(unit)) is a high surrogate not followed by a \\u low surrogate",
            at: i)
        }
        let low = try hex4(at: next + 2, escapeAt: next)
        if low & 0xFC00 != 0xDC00 {
          throw JSONSyntaxError(
            .loneSurrogate,
            "\\u\(JSONScanner.hex(unit)) is a high surrogate not followed by a low surrogate",
            at: i)
        }
        return next + 6
      }
      return i + 6
    default:
      throw JSONSyntaxError(
        .invalidEscape,
        "invalid escape '\\\(describeCharacter(at: i + 1, quoted: false))' in string", at: i)
    }
  }

  func hex4(at i: Int, escapeAt: Int) throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for k in 0..<4 {
      guard i + k < count, let digit = JSONScanner.hexValue(base[i + k]) else {
        throw JSONSyntaxError(
          .invalidEscape, "\\u must be followed by four hexadecimal digits", at: escapeAt)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  @inline(__always)
  static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case ASCII.zero...ASCII.nine: c &- ASCII.zero
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c &- UInt8(ascii: "A") &+ 10
    default: nil
    }
  }

  /// Validates the UTF-8 sequence whose lead byte (>= 0x80) is at `i` (RFC 3629: no overlong
  /// forms, no surrogates, nothing above U+10FFFF); returns the offset after it.
  @inline(__always)
  func scanMultiByte(at i: Int) throws(JSONSyntaxError) -> Int {
    let lead = base[i]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE, 0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default:
      throw invalidUTF8(at: i)
    }
    guard i + length <= count else { throw invalidUTF8(at: i) }
    let second = base[i + 1]
    guard second >= low && second <= high else { throw invalidUTF8(at: i) }
    if length > 2 {
      guard base[i + 2] & 0xC0 == 0x80 else { throw invalidUTF8(at: i) }
      if length > 3 {
        guard base[i + 3] & 0xC0 == 0x80 else { throw invalidUTF8(at: i) }
      }
    }
    return i + length
  }

  @inline(never)
  func invalidUTF8(at i: Int) -> JSONSyntaxError {
    JSONSyntaxError(
      .invalidUTF8,
      "invalid UTF-8 in string (byte 0x\(JSONScanner.hex(UInt32(base[i]), digits: 2)))", at: i)
  }

  // MARK: - Numbers

  /// Scans the number starting at `start`; returns the offset after it and whether it is an
  /// integer (no fraction, no exponent).
  @inline(__always)
  func scanNumber(from start: Int) throws(JSONSyntaxError) -> (end: Int, integer: Bool) {
    var i = start
    var integer = true
    if base[i] == ASCII.minus {
      i += 1
      guard i < count, isDigit(base[i]) else {
        if i < count && base[i] == UInt8(ascii: "I") && hasPrefix("Infinity", at: i) {
          throw JSONSyntaxError(.nonFiniteNumber, "-Infinity is not valid JSON", at: start)
        }
        throw JSONSyntaxError(.invalidNumber, "expected a digit after '-'", at: i)
      }
    }
    if base[i] == ASCII.zero {
      i += 1
      if i < count && isDigit(base[i]) {
        throw JSONSyntaxError(.leadingZero, "numbers must not have leading zeros", at: start)
      }
    } else {
      i += 1
      while i < count && isDigit(base[i]) { i += 1 }
    }
    if i < count && base[i] == UInt8(ascii: ".") {
      integer = false
      i += 1
      guard i < count, isDigit(base[i]) else {
        throw JSONSyntaxError(.invalidNumber, "expected a digit after the decimal point", at: i)
      }
      while i < count && isDigit(base[i]) { i += 1 }
    }
    if i < count && (base[i] | 0x20) == UInt8(ascii: "e") {
      integer = false
      i += 1
      if i < count && (base[i] == ASCII.plus || base[i] == ASCII.minus) { i += 1 }
      guard i < count, isDigit(base[i]) else {
        throw JSONSyntaxError(.invalidNumber, "expected a digit in the exponent", at: i)
      }
      while i < count && isDigit(base[i]) { i += 1 }
    }
    if i < count {
      let c = base[i]
      if c == UInt8(ascii: ".") || c == ASCII.plus || c == ASCII.minus || (c | 0x20) >= 0x61
        && (c | 0x20) <= 0x7A
      {
        throw JSONSyntaxError(
          .invalidNumber, "invalid number: unexpected \(describeCharacter(at: i))", at: i)
      }
    }
    return (i, integer)
  }

  @inline(__always)
  func isDigit(_ c: UInt8) -> Bool { c &- ASCII.zero < 10 }

  // MARK: - Error text

  func endOfInputError(at i: Int, expected: String) -> JSONSyntaxError {
    let context = depth > 0 ? " (\(depth) unclosed \(depth == 1 ? "container" : "containers"))" : ""
    return JSONSyntaxError(
      .unexpectedEndOfInput, "unexpected end of input, expected \(expected)\(context)", at: i)
  }

  /// `'x'`, `end of input`, `'é' (U+00E9)`, `control character U+000A` or `byte 0xFF`.
  func describeCharacter(at i: Int, quoted: Bool = true) -> String {
    guard i < count else { return "end of input" }
    let c = base[i]
    if c >= 0x20 && c < 0x7F {
      let text = String(UnicodeScalar(c))
      return quoted ? "'\(text)'" : text
    }
    if c < 0x80 { return "control character \(JSONScanner.scalarName(UInt32(c)))" }
    if let end = try? scanMultiByte(at: i) {
      let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
      let scalar = text.unicodeScalars.first!.value
      return "'\(text)' (\(JSONScanner.scalarName(scalar)))"
    }
    return "byte 0x\(JSONScanner.hex(UInt32(c), digits: 2))"
  }

  func describe(_ token: JSONToken) -> String {
    switch token.kind {
    case .endOfInput: "end of input"
    case .key: "a member name"
    default: JSONScanner.describe(token.kind)
    }
  }

  /// `an object`, `a string`, … for messages.
  public static func describe(_ kind: JSONToken.Kind) -> String {
    switch kind {
    case .beginObject: "an object"
    case .endObject: "'}'"
    case .beginArray: "an array"
    case .endArray: "']'"
    case .key: "a member name"
    case .string: "a string"
    case .number: "a number"
    case .true: "true"
    case .false: "false"
    case .null: "null"
    case .endOfInput: "the end of input"
    }
  }

  static func scalarName(_ value: UInt32) -> String { "U+\(hex(value, digits: 4))" }

  static func hex(_ value: UInt32, digits: Int = 4) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}

@available(*, unavailable, message: "a JSONScanner borrows its buffer and cannot cross threads")
extension JSONScanner: Sendable {}

/// Byte values of the ASCII characters the JSON grammar uses.
@usableFromInline enum ASCII {
  @inlinable static var quote: UInt8 { 0x22 }
  @inlinable static var backslash: UInt8 { 0x5C }
  @inlinable static var comma: UInt8 { 0x2C }
  @inlinable static var colon: UInt8 { 0x3A }
  @inlinable static var openBrace: UInt8 { 0x7B }
  @inlinable static var closeBrace: UInt8 { 0x7D }
  @inlinable static var openBracket: UInt8 { 0x5B }
  @inlinable static var closeBracket: UInt8 { 0x5D }
  @inlinable static var minus: UInt8 { 0x2D }
  @inlinable static var plus: UInt8 { 0x2B }
  @inlinable static var zero: UInt8 { 0x30 }
  @inlinable static var nine: UInt8 { 0x39 }
  @inlinable static var space: UInt8 { 0x20 }
  @inlinable static var newline: UInt8 { 0x0A }
  @inlinable static var tab: UInt8 { 0x09 }
  @inlinable static var carriageReturn: UInt8 { 0x0D }
}
