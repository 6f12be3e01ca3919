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

/// Reads a JSON value that the store reader already validated, keeping strings as slices.
enum RawJSON {
  static func value(_ input: InputBytes, _ s: ByteSlice) throws(JSONSyntaxError) -> Value {
    let sub = UnsafeRawBufferPointer(rebasing: input.unsafeBytes[s.start..<s.end])
    var scanner = JSONScanner(sub)
    let first = try scanner.next()
    return try read(&scanner, first, base: s.start, input)
  }

  private static func read(
    _ scanner: inout JSONScanner, _ token: JSONToken, base: Int, _ input: InputBytes
  ) throws(JSONSyntaxError) -> Value {
    switch token.kind {
    case .beginArray:
      var items: [Value] = []
      while true {
        let t = try scanner.next()
        if t.kind == .endArray { return .array(items) }
        items.append(try read(&scanner, t, base: base, input))
      }
    case .beginObject:
      var pairs: [(String, Value)] = []
      while let key = try scanner.nextKey() {
        let name = scanner.decodeString(key)
        pairs.append((name, try read(&scanner, try scanner.next(), base: base, input)))
      }
      return .dictionary(pairs.sorted { $0.0 < $1.0 })
    case .string, .key:
      return .string(.slice(ByteSlice(start: base + token.start, count: token.end - token.start, hasEscapes: token.hasEscapes)))
    case .number:
      let raw = scanner.rawBytes(token)
      if token.isInteger, let i = JSONNumberParser.int64(raw) { return .int(i) }
      return .double(JSONNumberParser.double(raw) ?? 0)
    case .true: return .bool(true)
    case .false: return .bool(false)
    default: return .null
    }
  }
}
