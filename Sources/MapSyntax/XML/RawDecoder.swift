/// Decodes a byte range of an XML file (text, attribute value, CDATA or comment) into its
/// character data, recording where each character came from.
///
/// Applies XML's rules: CR LF and lone CR become LF; in attribute values a literal tab, CR or
/// LF becomes a space; in text and attribute values the five predefined entities and
/// character references are replaced. CDATA and comments are taken literally.
struct RawDecoder {
  enum Mode {
    case text
    case attributeValue
    case literal
  }

  enum Failure: Error {
    /// A reference to an entity other than the five predefined ones, at this byte offset.
    case undefinedEntity(name: String, offset: Int)
  }

  let source: SourceText

  func decode(from start: Int, to end: Int, mode: Mode) throws(Failure) -> TextPositionMap {
    let (line, column) = source.lineColumn(ofByte: start)
    return try decode(from: start, to: end, mode: mode, line: line, column: column)
  }

  /// `decode(from:to:mode:)` when the caller knows the line and column of `start`.
  func decode(from start: Int, to end: Int, mode: Mode, line: Int, column: Int) throws(Failure)
    -> TextPositionMap
  {
    let bytes = source.bytes
    var (line, column) = (line, column)
    var map = TextPositionMap(file: source.path, line: line, column: column)
    var i = start
    while i < end {
      let b = bytes[i]
      if b == 0x0D || b == 0x0A {
        let scalar: Unicode.Scalar = mode == .attributeValue ? " " : "\n"
        map.append(scalar, line: line, column: column, literal: true)
        i += (b == 0x0D && i + 1 < end && bytes[i + 1] == 0x0A) ? 2 : 1
        line += 1
        column = 1
      } else if b == UInt8(ascii: "&"), mode != .literal {
        var j = i + 1
        while j < end, bytes[j] != UInt8(ascii: ";") { j += 1 }
        let name = String(decoding: bytes[(i + 1)..<min(j, end)], as: UTF8.self)
        guard j < end, let scalar = Self.referencedScalar(name) else {
          throw .undefinedEntity(name: name, offset: i)
        }
        map.append(scalar, line: line, column: column, literal: false)
        column += j + 1 - i  // references are ASCII: one column per byte
        i = j + 1
      } else if b == 0x09, mode == .attributeValue {
        map.append(" ", line: line, column: column, literal: true)
        column += 1
        i += 1
      } else if b >= 0x20, b < 0x80, b != UInt8(ascii: "&") {
        // A run of plain ASCII characters, taken literally in one step.
        var j = i + 1
        while j < end {
          let c = bytes[j]
          guard c >= 0x20, c < 0x80, c != UInt8(ascii: "&") else { break }
          j += 1
        }
        map.appendASCII(bytes[i..<j], line: line, column: column)
        column += j - i
        i = j
      } else {
        let (scalar, width) = Self.scalar(in: bytes, at: i)
        map.append(scalar, line: line, column: column, literal: true)
        column += 1
        i += width
      }
    }
    map.setEnd(line: line, column: column)
    return map
  }

  /// The character a reference (`lt`, `#60`, `#x3C`) stands for.
  static func referencedScalar(_ name: String) -> Unicode.Scalar? {
    switch name {
    case "lt": return "<"
    case "gt": return ">"
    case "amp": return "&"
    case "apos": return "'"
    case "quot": return "\""
    default: break
    }
    guard name.hasPrefix("#") else { return nil }
    let digits = name.dropFirst()
    let value: UInt32?
    if digits.hasPrefix("x") {
      value = UInt32(digits.dropFirst(), radix: 16)
    } else {
      value = UInt32(digits, radix: 10)
    }
    return value.flatMap(Unicode.Scalar.init)
  }

  /// Decodes the UTF-8 scalar at `i` (the input was validated; a bad byte gives U+FFFD).
  static func scalar(in bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int) {
    let b0 = bytes[i]
    let width: Int
    switch b0 {
    case 0..<0x80: return (Unicode.Scalar(b0), 1)
    case 0xC0..<0xE0: width = 2
    case 0xE0..<0xF0: width = 3
    case 0xF0..<0xF8: width = 4
    default: return ("\u{FFFD}", 1)
    }
    guard i + width <= bytes.count else { return ("\u{FFFD}", 1) }
    var value = UInt32(b0) & (0xFF >> (width + 1))
    for k in 1..<width { value = (value << 6) | (UInt32(bytes[i + k]) & 0x3F) }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", width)
  }
}
