import MapRuntime

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
package struct JSONScanner {
  /// Containers nested deeper than this are refused (`json-nesting-too-deep`).
  package static let defaultMaxDepth = 512

  /// The text being scanned.
  package let bytes: UnsafeRawBufferPointer
  @usableFromInline let base: UnsafePointer<UInt8>
  @usableFromInline let count: Int
  /// Offset of the first byte not consumed yet.
  package private(set) var position: Int = 0
  /// The nesting limit this scanner enforces.
  package let maxDepth: Int
  /// Number of containers currently open.
  package private(set) var depth: Int = 0

  @usableFromInline enum State: UInt8 {
    case start, value, valueOrEndArray, keyOrEndObject, afterValue, done
  }

  @usableFromInline var state: State = .start
  /// Whether the innermost open container is an object.
  @usableFromInline var inObject = false
  /// One bit per open container below the innermost: 1 for an object.
  @usableFromInline var outerKinds: [UInt64]

  /// Creates a scanner over `bytes`, which must outlive it.
  package init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = JSONScanner.defaultMaxDepth) {
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
  package var isInObject: Bool { depth > 0 && inObject }

  // MARK: - Tokens

  /// The next token. Throws at the first violation of the grammar; after an error the
  /// scanner must not be used any more.
  package mutating func next() throws(JSONSyntaxError) -> JSONToken {
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
  package mutating func resume(atElement offset: Int) {
    precondition(depth > 0 && !inObject, "resume(atElement:) outside an array")
    position = offset
    state = .value
  }

  /// Reads the next token and checks that it has `kind`.
  package mutating func expect(_ kind: JSONToken.Kind) throws(JSONSyntaxError) -> JSONToken {
    let token = try next()
    if token.kind != kind {
      throw JSONSyntaxError(
        .unexpectedCharacter, "expected \(JSONScanner.describe(kind)), found \(describe(token))",
        at: token.start - (token.kind == .string || token.kind == .key ? 1 : 0))
    }
    return token
  }

  /// Inside an object: the next member's key, or nil once the closing `}` is consumed.
  package mutating func nextKey() throws(JSONSyntaxError) -> JSONToken? {
    let token = try next()
    if token.kind == .key { return token }
    precondition(token.kind == .endObject, "nextKey() called outside an object")
    return nil
  }

  /// Reads one whole value (a scalar, or a container with everything in it) and returns its
  /// byte range as written: quotes included for a string, brackets for a container. Must be
  /// called where a value starts (after a key, or in an array).
  package mutating func skipValue() throws(JSONSyntaxError) -> Range<Int> {
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
}

@available(*, unavailable, message: "a JSONScanner borrows its buffer and cannot cross threads")
extension JSONScanner: Sendable {}
