import MapRuntime

/// The lexical level of `JSONScanner`: whitespace, strings (validated, escapes and UTF-8
/// checked) and numbers, each scanned in place.
extension JSONScanner {
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
      guard i + k < count, let digit = EscapedText.hexValue(base[i + k]) else {
        throw JSONSyntaxError(
          .invalidEscape, "\\u must be followed by four hexadecimal digits", at: escapeAt)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
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
      if c == UInt8(ascii: ".") || c == ASCII.plus || c == ASCII.minus
        || (c | 0x20) >= 0x61
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
}
