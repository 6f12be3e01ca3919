import MapArchives
import MapJSONText
import MapRuntime

/// Reads a JSON value that the store reader already validated (so no checks are repeated),
/// keeping strings as slices of the input: the codec of the Transformable payloads of a graph
/// read from JSON (or given as JSON, `TransformableText`).
enum RawJSON: TransformableCodec {
  static func value(_ input: InputBytes, _ s: ByteSlice) throws(JSONSyntaxError) -> Value {
    let base = input.unsafeBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var i = s.start
    return read(base, &i, s.end)
  }

  /// The elements of a JSON array, into `items` (emptied first, its storage reused); false,
  /// with `items` empty, for any other value.
  static func elements(_ input: InputBytes, _ s: ByteSlice, into items: inout [Value]) -> Bool {
    items.removeAll(keepingCapacity: true)
    let p = input.unsafeBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var i = s.start
    let end = s.end
    skipSpace(p, &i, end)
    guard i < end, p[i] == UInt8(ascii: "[") else { return false }
    i += 1
    readItems(p, &i, end, &items)
    return true
  }

  /// The items of an array whose `[` was read, up to and including its `]`.
  private static func readItems(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, _ items: inout [Value]) {
    skipSpace(p, &i, end)
    if i < end && p[i] == UInt8(ascii: "]") {
      i += 1
      return
    }
    while i < end {
      items.append(read(p, &i, end))
      skipSpace(p, &i, end)
      guard i < end else { break }
      let c = p[i]
      i += 1
      if c == UInt8(ascii: "]") { break }
    }
  }

  /// The payload's value (`ArchivedValueJSON`): `{"$bytes": …}` as those bytes, any other
  /// JSON value as the value it is archived as.
  static func payload(_ input: InputBytes, _ s: ByteSlice) throws(ArchivedValueError) -> TransformablePayload {
    switch try ArchivedValueJSON.parse(UnsafeRawBufferPointer(rebasing: input.unsafeBytes[s.start..<s.end])) {
    case .bytes(let b): .bytes(b, archived: nil)
    case .value(let v): .value(v)
    }
  }

  /// How many elements a JSON array has, without reading them; nil for any other value.
  static func arrayCount(_ input: InputBytes, _ s: ByteSlice) -> Int? {
    let p = input.unsafeBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var i = s.start
    let end = s.end
    skipSpace(p, &i, end)
    guard i < end, p[i] == UInt8(ascii: "[") else { return nil }
    i += 1
    skipSpace(p, &i, end)
    if i < end && p[i] == UInt8(ascii: "]") { return 0 }
    var depth = 0
    var count = 1
    while i < end {
      switch p[i] {
      case UInt8(ascii: "\""):
        i += 1
        while p[i] != UInt8(ascii: "\"") { i += p[i] == UInt8(ascii: "\\") ? 2 : 1 }
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        if depth == 0 { return count }
        depth -= 1
      case UInt8(ascii: ","):
        if depth == 0 { count += 1 }
      default:
        break
      }
      i += 1
    }
    return count
  }

  @inline(__always) private static func skipSpace(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) {
    while i < end {
      let c = p[i]
      if c != 0x20 && c != 0x0A && c != 0x0D && c != 0x09 { return }
      i += 1
    }
  }

  private static func read(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) -> Value {
    skipSpace(p, &i, end)
    guard i < end else { return .null }
    switch p[i] {
    case UInt8(ascii: "["):
      i += 1
      var items: [Value] = []
      items.reserveCapacity(8)
      readItems(p, &i, end, &items)
      return .array(items)
    case UInt8(ascii: "{"):
      i += 1
      var pairs: [(String, Value)] = []
      while i < end {
        skipSpace(p, &i, end)
        if p[i] == UInt8(ascii: "}") {
          i += 1
          break
        }
        guard case .string(let k) = read(p, &i, end) else { break }
        skipSpace(p, &i, end)
        i += 1  // ':'
        let v = read(p, &i, end)
        let key: String
        switch k {
        case .native(let x): key = x
        case .slice(let sl):
          key = InputBytes.decodeString(
            UnsafeRawBufferPointer(start: p + sl.start, count: Int(sl.count)), hasEscapes: sl.hasEscapes)
        }
        pairs.append((key, v))
        skipSpace(p, &i, end)
        if i < end && p[i] == UInt8(ascii: ",") { i += 1 }
      }
      return .dictionary(pairs.sorted { $0.0 < $1.0 })
    case UInt8(ascii: "\""):
      i += 1
      let start = i
      var escapes = false
      while p[i] != UInt8(ascii: "\"") {
        if p[i] == UInt8(ascii: "\\") {
          escapes = true
          i += 1
        }
        i += 1
      }
      let slice = ByteSlice(start: start, count: i - start, hasEscapes: escapes)
      i += 1
      return .string(.slice(slice))
    case UInt8(ascii: "t"):
      i += 4
      return .bool(true)
    case UInt8(ascii: "f"):
      i += 5
      return .bool(false)
    case UInt8(ascii: "n"):
      i += 4
      return .null
    default:
      let start = i
      var integer = true
      while i < end {
        let c = p[i]
        if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
          integer = false
        } else if !((c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")) {
          break
        }
        i += 1
      }
      let text = UnsafeRawBufferPointer(start: p + start, count: i - start)
      if integer, let v = NumberParser.int64(text) { return .int(v) }
      return .double(NumberParser.double(text) ?? 0)
    }
  }
}
