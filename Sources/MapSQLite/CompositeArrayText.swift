import MapArchives
import MapRuntime

/// Arrays inside composite attributes (a `[String]` property of a SwiftData `Codable` struct):
/// SwiftData keeps each in its Binary element column as the bytes of `JSONEncoder` (compact,
/// `/` written `\/`, other characters as they are; read from the real store of
/// Specs/swiftdata-schema.md §7). mapc shows such bytes as the JSON array they hold, and writes
/// an array given for a Binary element back as those bytes (Specs/sqlite-store.md §5.2).
///
/// Only arrays of strings, numbers, booleans and nulls (and arrays of those) whose bytes mapc
/// writes back identically are shown as arrays: anything else stays base64, so that no byte
/// changes either way. Arrays of objects (a `[Struct]` property) stay base64 too: SwiftData's
/// encoder writes an object's keys in no fixed order, which mapc's values (keys sorted) cannot
/// give back.
enum CompositeArrayText {
  static let maximumDepth = 64

  /// The array `bytes` hold, when they are a JSON array that `encode` writes back identically.
  static func decode(_ bytes: [UInt8]) -> ArchivedValue? {
    guard bytes.first == 0x5B, bytes.last == 0x5D else { return nil }
    var parser = Parser(bytes: bytes)
    guard let value = parser.value(depth: 0), parser.i == bytes.count, !holdsObject(value), encode(value) == bytes
    else { return nil }
    return value
  }

  private static func holdsObject(_ v: ArchivedValue) -> Bool {
    switch v {
    case .dictionary: true
    case .array(let items): items.contains(where: holdsObject)
    default: false
    }
  }

  /// The compact JSON text of a value (an object's keys sorted, as mapc's values hold them).
  static func encode(_ v: ArchivedValue) -> [UInt8] {
    var out: [UInt8] = []
    write(v, into: &out)
    return out
  }

  private static func write(_ v: ArchivedValue, into out: inout [UInt8]) {
    switch v {
    case .string(let s): string(s, into: &out)
    case .integer(let i): out += Array(String(i).utf8)
    case .real(let d):
      if d == d.rounded(), abs(d) < 1e15 {
        out += Array(String(Int64(d)).utf8)
      } else {
        out += Array("\(d)".utf8)
      }
    case .bool(let b): out += Array((b ? "true" : "false").utf8)
    case .null, .date, .data: out += Array("null".utf8)
    case .array(let items):
      out.append(0x5B)
      for (k, x) in items.enumerated() {
        if k > 0 { out.append(0x2C) }
        write(x, into: &out)
      }
      out.append(0x5D)
    case .dictionary(let entries):
      out.append(0x7B)
      for (k, e) in entries.sorted(by: { $0.key < $1.key }).enumerated() {
        if k > 0 { out.append(0x2C) }
        string(e.key, into: &out)
        out.append(0x3A)
        write(e.value, into: &out)
      }
      out.append(0x7D)
    }
  }

  private static func string(_ s: String, into out: inout [UInt8]) {
    out.append(0x22)
    for b in s.utf8 {
      switch b {
      case 0x22: out += [0x5C, 0x22]
      case 0x5C: out += [0x5C, 0x5C]
      case 0x2F: out += [0x5C, 0x2F]
      case 0x0A: out += [0x5C, 0x6E]
      case 0x0D: out += [0x5C, 0x72]
      case 0x09: out += [0x5C, 0x74]
      case 0x08: out += [0x5C, 0x62]
      case 0x0C: out += [0x5C, 0x66]
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += Array("\\u00".utf8) + [hex[Int(b >> 4)], hex[Int(b & 15)]]
      default: out.append(b)
      }
    }
    out.append(0x22)
  }

  /// A value a mapping or a JSON store gives for a Binary element, as the bytes to keep: an
  /// array (or object) as its JSON text; nil for anything else.
  static func bytes(_ v: Value, input: InputBytes?) -> [UInt8]? {
    switch v {
    case .array, .dictionary: archived(v, input: input, depth: 0).map(encode)
    default: nil
    }
  }

  private static func archived(_ v: Value, input: InputBytes?, depth: Int) -> ArchivedValue? {
    guard depth < maximumDepth else { return nil }
    switch v {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .integer(i)
    case .double(let d) where d.isFinite: return .real(d)
    case .string(let t): return .string(ObjectGraph.string(t, input: input))
    case .decimal(let text): return .string(text)
    case .array(let items):
      var out: [ArchivedValue] = []
      for x in items {
        guard let a = archived(x, input: input, depth: depth + 1) else { return nil }
        out.append(a)
      }
      return .array(out)
    case .dictionary(let pairs):
      var out: [ArchivedValue.Entry] = []
      for (k, x) in pairs {
        guard let a = archived(x, input: input, depth: depth + 1) else { return nil }
        out.append(.init(k, a))
      }
      return .dictionary(out)
    default: return nil
    }
  }

  /// Strict JSON (no spaces between tokens: compact text is all `encode` writes back).
  private struct Parser {
    let bytes: [UInt8]
    var i = 0

    mutating func value(depth: Int) -> ArchivedValue? {
      guard depth < CompositeArrayText.maximumDepth, i < bytes.count else { return nil }
      switch bytes[i] {
      case 0x5B:
        i += 1
        var items: [ArchivedValue] = []
        if i < bytes.count && bytes[i] == 0x5D {
          i += 1
          return .array(items)
        }
        while true {
          guard let x = value(depth: depth + 1) else { return nil }
          items.append(x)
          guard i < bytes.count else { return nil }
          if bytes[i] == 0x5D {
            i += 1
            return .array(items)
          }
          guard bytes[i] == 0x2C else { return nil }
          i += 1
        }
      case 0x7B:
        i += 1
        var entries: [ArchivedValue.Entry] = []
        if i < bytes.count && bytes[i] == 0x7D {
          i += 1
          return .dictionary(entries)
        }
        while true {
          guard case .string(let key)? = value(depth: depth + 1), i < bytes.count, bytes[i] == 0x3A else { return nil }
          i += 1
          guard let x = value(depth: depth + 1) else { return nil }
          entries.append(.init(key, x))
          guard i < bytes.count else { return nil }
          if bytes[i] == 0x7D {
            i += 1
            return .dictionary(entries)
          }
          guard bytes[i] == 0x2C else { return nil }
          i += 1
        }
      case 0x22: return string()
      case 0x74: return word("true", .bool(true))
      case 0x66: return word("false", .bool(false))
      case 0x6E: return word("null", .null)
      default: return number()
      }
    }

    mutating func word(_ w: String, _ v: ArchivedValue) -> ArchivedValue? {
      let u = Array(w.utf8)
      guard i + u.count <= bytes.count, Array(bytes[i..<(i + u.count)]) == u else { return nil }
      i += u.count
      return v
    }

    mutating func number() -> ArchivedValue? {
      let start = i
      while i < bytes.count, [0x2D, 0x2B, 0x2E, 0x65, 0x45].contains(bytes[i]) || (0x30...0x39).contains(bytes[i]) {
        i += 1
      }
      guard i > start else { return nil }
      let text = String(decoding: bytes[start..<i], as: UTF8.self)
      if let n = Int64(text) { return .integer(n) }
      return Double(text).map { .real($0) }
    }

    mutating func string() -> ArchivedValue? {
      i += 1
      var out: [UInt8] = []
      while i < bytes.count {
        let b = bytes[i]
        i += 1
        if b == 0x22 { return .string(String(decoding: out, as: UTF8.self)) }
        if b < 0x20 { return nil }
        guard b == 0x5C else {
          out.append(b)
          continue
        }
        guard i < bytes.count else { return nil }
        let e = bytes[i]
        i += 1
        switch e {
        case 0x22, 0x5C, 0x2F: out.append(e)
        case 0x6E: out.append(0x0A)
        case 0x72: out.append(0x0D)
        case 0x74: out.append(0x09)
        case 0x62: out.append(0x08)
        case 0x66: out.append(0x0C)
        case 0x75:
          guard i + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(code)
          else { return nil }
          i += 4
          out += Array(String(Character(scalar)).utf8)
        default: return nil
        }
      }
      return nil
    }
  }
}
