extension MigrationManager {
  /// Parses a Transformable value kept as raw JSON in the input. The last value parsed is cached,
  /// since expressions such as `$source.answers[$index]` look into the same value repeatedly.
  func parseJSON(_ s: ByteSlice) throws(MigrationError) -> Value {
    if jsonCache.start == s.start { return jsonCache.value }
    guard let input = source.input else { return .null }
    let v: Value
    do {
      v = try RawJSON.value(input, s)
    } catch {
      throw MigrationError("run-json", "malformed Transformable value at byte \(s.start): \(error)")
    }
    jsonCache = (s.start, v)
    return v
  }
}

/// TEMPORARY minimal reader of raw JSON values already validated by the store reader.
enum RawJSON {
  struct Failure: Error, CustomStringConvertible { var description: String }

  static func value(_ input: InputBytes, _ s: ByteSlice) throws -> Value {
    let b = input.bytes
    var i = s.start
    let end = s.end
    func ws() { while i < end, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
    func parse() throws -> Value {
      ws()
      guard i < end else { throw Failure(description: "unexpected end") }
      switch b[i] {
      case UInt8(ascii: "["):
        i += 1
        var items: [Value] = []
        ws()
        if i < end && b[i] == UInt8(ascii: "]") {
          i += 1
          return .array(items)
        }
        while true {
          items.append(try parse())
          ws()
          guard i < end else { throw Failure(description: "unterminated array") }
          if b[i] == UInt8(ascii: ",") { i += 1; continue }
          if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
          throw Failure(description: "expected , or ]")
        }
      case UInt8(ascii: "{"):
        i += 1
        var pairs: [(String, Value)] = []
        ws()
        if i < end && b[i] == UInt8(ascii: "}") {
          i += 1
          return .dictionary(pairs)
        }
        while true {
          ws()
          guard case .string(let k) = try parse() else { throw Failure(description: "expected key") }
          ws()
          guard i < end, b[i] == UInt8(ascii: ":") else { throw Failure(description: "expected :") }
          i += 1
          let v = try parse()
          let key: String
          switch k {
          case .native(let x): key = x
          case .slice(let sl): key = input.decodeString(sl)
          }
          pairs.append((key, v))
          ws()
          guard i < end else { throw Failure(description: "unterminated object") }
          if b[i] == UInt8(ascii: ",") { i += 1; continue }
          if b[i] == UInt8(ascii: "}") {
            i += 1
            return .dictionary(pairs.sorted { $0.0 < $1.0 })
          }
          throw Failure(description: "expected , or }")
        }
      case UInt8(ascii: "\""):
        i += 1
        let start = i
        var esc = false
        while i < end && b[i] != UInt8(ascii: "\"") {
          if b[i] == UInt8(ascii: "\\") {
            esc = true
            i += 1
          }
          i += 1
        }
        let slice = ByteSlice(start: start, count: i - start, hasEscapes: esc)
        i += 1
        return .string(.slice(slice))
      case UInt8(ascii: "t"): i += 4; return .bool(true)
      case UInt8(ascii: "f"): i += 5; return .bool(false)
      case UInt8(ascii: "n"): i += 4; return .null
      default:
        let start = i
        var isInt = true
        while i < end, (b[i] >= 48 && b[i] <= 57) || b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")
          || b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")
        {
          if b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") { isInt = false }
          i += 1
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        if isInt, let v = Int64(text) { return .int(v) }
        guard let d = Double(text) else { throw Failure(description: "bad number \(text)") }
        return .double(d)
      }
    }
    return try parse()
  }
}
