import MapArchives
import MapJSONText
import MapRuntime

/// The JSON form of an archived value (Specs/sqlite-store.md §5.1): strings, numbers, booleans,
/// arrays and objects as themselves (object keys in archive order), NSNull as `null`, NSDate as
/// `{"$date": seconds since 2001}`, NSData as `{"$data": "base64"}`. Bytes that are kept as they
/// are (no archive of these classes) are `{"$bytes": "base64"}` at the top.
public enum ArchivedValueJSON {
  public static let bytesKey = "$bytes"
  public static let dateKey = "$date"
  public static let dataKey = "$data"

  /// Appends the compact JSON text of `v`; false (with `out` unchanged) when a number has no
  /// JSON form (NaN, infinity).
  public static func append(_ v: ArchivedValue, to out: inout [UInt8]) -> Bool {
    let mark = out.count
    if write(v, &out) { return true }
    out.removeSubrange(mark...)
    return false
  }

  /// `{"$bytes":"…"}` for bytes kept as they are.
  public static func appendBytes(_ bytes: [UInt8], to out: inout [UInt8]) {
    bytes.withUnsafeBytes { appendBytes($0, to: &out) }
  }

  public static func appendBytes(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    out.append(contentsOf: #"{"$bytes":""#.utf8)
    out.append(contentsOf: Base64Codec.encode(bytes).utf8)
    out.append(contentsOf: #""}"#.utf8)
  }

  private static func write(_ v: ArchivedValue, _ out: inout [UInt8]) -> Bool {
    switch v {
    case .string(let s): writeString(s, &out)
    case .integer(let i): out.append(contentsOf: String(i).utf8)
    case .real(let d):
      guard let text = PythonFloatFormatter.string(d) else { return false }
      out.append(contentsOf: text.utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .null: out.append(contentsOf: "null".utf8)
    case .date(let t):
      guard let text = PythonFloatFormatter.string(t) else { return false }
      out.append(contentsOf: #"{"$date":"#.utf8)
      out.append(contentsOf: text.utf8)
      out.append(UInt8(ascii: "}"))
    case .data(let d):
      out.append(contentsOf: #"{"$data":""#.utf8)
      out.append(contentsOf: Base64Codec.encode(d).utf8)
      out.append(contentsOf: #""}"#.utf8)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (i, x) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        guard write(x, &out) else { return false }
      }
      out.append(UInt8(ascii: "]"))
    case .dictionary(let entries):
      out.append(UInt8(ascii: "{"))
      for (i, e) in entries.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        writeString(e.key, &out)
        out.append(UInt8(ascii: ":"))
        guard write(e.value, &out) else { return false }
      }
      out.append(UInt8(ascii: "}"))
    }
    return true
  }

  /// A JSON string as the store writer escapes it (Specs/store-format.md A.2): `"` and `\`,
  /// and U+0000–U+001F (`\b \t \n \f \r`, else `\u00xx`); everything else raw UTF-8.
  static func writeString(_ s: String, _ out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings need no escape: they are copied in one go (a small string too: `withUTF8`
    // gives its bytes where `utf8.withContiguousStorageIfAvailable` gives none).
    var s = s
    let plain = s.withUTF8 { bytes -> Bool in
      guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
        return false
      }
      out.append(contentsOf: bytes)
      return true
    }
    if plain {
      out.append(UInt8(ascii: "\""))
      return
    }
    for b in s.utf8 {
      switch b {
      case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
      case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
      default: out.append(b)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// What a JSON text stands for: an archived value, or (`{"$bytes": …}` at the top) bytes kept
  /// as they are.
  public enum Parsed: Sendable, Hashable {
    case value(ArchivedValue)
    case bytes([UInt8])
  }

  /// Reads the JSON form back. Nesting deeper than `TransformableArchive.maximumDepth` or more
  /// than `TransformableArchive.maximumObjects` values is an error, and so is a JSON number that
  /// is neither an Int64 nor a finite double, and a `$bytes`/`$data` string that is not base64.
  public static func parse(_ text: [UInt8]) throws(ArchivedValueError) -> Parsed {
    let result = text.withUnsafeBytes { raw -> Result<Parsed, ArchivedValueError> in
      do throws(ArchivedValueError) {
        return .success(try parse(raw))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  public static func parse(_ text: UnsafeRawBufferPointer) throws(ArchivedValueError) -> Parsed {
    var scanner = JSONScanner(text, maxDepth: TransformableArchive.maximumDepth + 1)
    var budget = TransformableArchive.maximumObjects
    do {
      let first = try scanner.next()
      let v = try value(first, &scanner, depth: 0, budget: &budget)
      guard try scanner.next().kind == .endOfInput else { throw ArchivedValueError("text after the JSON value") }
      if case .dictionary(let entries) = v, entries.count == 1, entries[0].key == bytesKey {
        guard case .string(let text) = entries[0].value else {
          throw ArchivedValueError("\(bytesKey) must hold a base64 string")
        }
        do {
          return .bytes(try Base64Codec.decode(text))
        } catch {
          throw ArchivedValueError("\(bytesKey) is not base64: \(error.message)")
        }
      }
      return .value(v)
    } catch let e as JSONSyntaxError {
      throw ArchivedValueError("not JSON: \(e)")
    } catch let e as ArchivedValueError {
      throw e
    } catch {
      throw ArchivedValueError("\(error)")
    }
  }

  private static func value(
    _ t: JSONToken, _ s: inout JSONScanner, depth: Int, budget: inout Int
  ) throws -> ArchivedValue {
    budget -= 1
    guard budget >= 0 else {
      throw ArchivedValueError("more than \(TransformableArchive.maximumObjects) values (the limit of an archive)")
    }
    guard depth <= TransformableArchive.maximumDepth else {
      throw ArchivedValueError(
        "nested deeper than \(TransformableArchive.maximumDepth) levels (the limit of an archive)")
    }
    switch t.kind {
    case .string: return .string(s.decodeString(t))
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .null: return .null
    case .number:
      let raw = s.rawBytes(t)
      if !raw.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
        let i = NumberParser.int64(raw)
      {
        return .integer(i)
      }
      guard let d = NumberParser.double(raw), d.isFinite else {
        throw ArchivedValueError("the number \(String(decoding: raw, as: UTF8.self)) fits neither Int64 nor Double")
      }
      return .real(d)
    case .beginArray:
      var items: [ArchivedValue] = []
      while true {
        let x = try s.next()
        if x.kind == .endArray { break }
        items.append(try value(x, &s, depth: depth + 1, budget: &budget))
      }
      return .array(items)
    case .beginObject:
      var entries: [ArchivedValue.Entry] = []
      while let k = try s.nextKey() {
        let key = s.decodeString(k)
        entries.append(.init(key, try value(try s.next(), &s, depth: depth + 1, budget: &budget)))
      }
      if entries.count == 1 {
        switch (entries[0].key, entries[0].value) {
        case (dateKey, .integer(let i)): return .date(Double(i))
        case (dateKey, .real(let d)): return .date(d)
        case (dataKey, .string(let text)):
          do {
            return .data(try Base64Codec.decode(text))
          } catch {
            throw ArchivedValueError("\(dataKey) is not base64: \(error.message)")
          }
        default: break
        }
      }
      return .dictionary(entries)
    default:
      throw ArchivedValueError("unexpected \(t.kind)")
    }
  }
}
