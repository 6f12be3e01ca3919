/// Reads a property list in the old text format (OpenStep's, which Xcode writes for
/// `project.pbxproj`): `{ key = value; }` dictionaries, `( a, b, )` arrays, quoted and bare
/// strings, `<0fab>` data, `//` and `/* */` comments. Every scalar is a string, as the format
/// has no other. Nesting deeper than `maximumDepth` is refused, so the reading's recursion is
/// bounded.
public struct TextPropertyListReader {
  public struct Failure: Error, Sendable, Hashable {
    public var message: String
    /// 1-based line and column (column in UTF-8 bytes) where reading stopped.
    public var line: Int
    public var column: Int
  }

  public static let maximumDepth = 100

  private let bytes: [UInt8]
  private var i = 0

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The value the text holds (one value, then only comments and white space).
  public static func read(_ bytes: [UInt8]) throws(Failure) -> PropertyListValue {
    var reader = TextPropertyListReader(bytes)
    let value = try reader.value(depth: 0)
    reader.skip()
    if reader.i < bytes.count { throw reader.failure("text after the property list's value") }
    return value
  }

  private func failure(_ message: String) -> Failure {
    var line = 1
    var start = 0
    for k in 0..<min(i, bytes.count) where bytes[k] == 0x0A {
      line += 1
      start = k + 1
    }
    return Failure(message: message, line: line, column: i - start + 1)
  }

  private func byte(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }

  /// Skips white space and comments.
  private mutating func skip() {
    while i < bytes.count {
      let b = bytes[i]
      if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
        i += 1
      } else if b == 0x2F && byte(i + 1) == 0x2F {
        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
      } else if b == 0x2F && byte(i + 1) == 0x2A {
        i += 2
        while i < bytes.count && !(bytes[i] == 0x2A && byte(i + 1) == 0x2F) { i += 1 }
        i = min(bytes.count, i + 2)
      } else {
        return
      }
    }
  }

  private static func isBare(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
      || [0x5F, 0x24, 0x2B, 0x2F, 0x3A, 0x2E, 0x2D].contains(b)
  }

  private mutating func expect(_ b: UInt8, _ what: String) throws(Failure) {
    skip()
    guard byte(i) == b, i < bytes.count else { throw failure("expected \(what)") }
    i += 1
  }

  private mutating func value(depth: Int) throws(Failure) -> PropertyListValue {
    guard depth < Self.maximumDepth else {
      throw failure("the property list is nested more than \(Self.maximumDepth) levels deep")
    }
    skip()
    guard i < bytes.count else { throw failure("expected a value, found the end of the text") }
    switch bytes[i] {
    case 0x7B:  // {
      i += 1
      var entries: [PropertyListValue.Entry] = []
      while true {
        skip()
        if byte(i) == 0x7D {
          i += 1
          return .dictionary(entries)
        }
        guard case .string(let key) = try value(depth: depth + 1) else { throw failure("a key must be a string") }
        try expect(0x3D, "'='")
        let v = try value(depth: depth + 1)
        try expect(0x3B, "';'")
        entries.append(PropertyListValue.Entry(key, v))
      }
    case 0x28:  // (
      i += 1
      var items: [PropertyListValue] = []
      while true {
        skip()
        if byte(i) == 0x29 {
          i += 1
          return .array(items)
        }
        items.append(try value(depth: depth + 1))
        skip()
        if byte(i) == 0x2C {
          i += 1
        } else if byte(i) != 0x29 {
          throw failure("expected ',' or ')'")
        }
      }
    case 0x3C:  // <hex>
      i += 1
      var data: [UInt8] = []
      var half: UInt8? = nil
      while i < bytes.count && bytes[i] != 0x3E {
        let b = bytes[i]
        if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D {
          i += 1
          continue
        }
        guard let n = Self.hexDigit(b) else { throw failure("data must be hexadecimal digits") }
        i += 1
        if let h = half {
          data.append(h << 4 | n)
          half = nil
        } else {
          half = n
        }
      }
      guard i < bytes.count, half == nil else { throw failure("unterminated data") }
      i += 1
      return .data(data)
    case 0x22, 0x27:
      return .string(try quoted())
    default:
      let start = i
      while i < bytes.count && Self.isBare(bytes[i]) { i += 1 }
      guard i > start else { throw failure("unexpected character") }
      return .string(String(decoding: bytes[start..<i], as: UTF8.self))
    }
  }

  private static func hexDigit(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: b - 0x30
    case 0x61...0x66: b - 0x61 + 10
    case 0x41...0x46: b - 0x41 + 10
    default: nil
    }
  }

  /// A quoted string with its escapes (`\n`, `\t`, `\"`, `\\`, `\U00e9`, octal `\101`).
  private mutating func quoted() throws(Failure) -> String {
    let quote = bytes[i]
    i += 1
    var out: [UInt8] = []
    while true {
      guard i < bytes.count else { throw failure("unterminated string") }
      let b = bytes[i]
      i += 1
      if b == quote { break }
      guard b == 0x5C else {
        out.append(b)
        continue
      }
      guard i < bytes.count else { throw failure("unterminated string") }
      let e = bytes[i]
      i += 1
      switch e {
      case 0x6E: out.append(0x0A)
      case 0x74: out.append(0x09)
      case 0x72: out.append(0x0D)
      case 0x61: out.append(0x07)
      case 0x62: out.append(0x08)
      case 0x66: out.append(0x0C)
      case 0x76: out.append(0x0B)
      case 0x55:
        var code: UInt32 = 0
        for _ in 0..<4 {
          guard let d = Self.hexDigit(byte(i)) else { throw failure("\\U must be followed by four hex digits") }
          code = code << 4 | UInt32(d)
          i += 1
        }
        out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
      case 0x30...0x37:
        var code = UInt32(e - 0x30)
        for _ in 0..<2 where (0x30...0x37).contains(byte(i)) {
          code = code << 3 | UInt32(byte(i) - 0x30)
          i += 1
        }
        out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
      default: out.append(e)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
