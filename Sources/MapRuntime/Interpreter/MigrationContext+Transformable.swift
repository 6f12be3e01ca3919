extension MigrationContext {
  /// Parses a Transformable value kept as raw JSON in the input. The last two values parsed are
  /// cached, since a forEach collection and `$source.answers[$index]` are looked into
  /// repeatedly, and equal values of a column share their bytes (see `StringCompaction`).
  func parseJSON(_ s: ByteSlice) throws(MigrationError) -> Value {
    if state.jsonCacheStart.0 == s.start {
      state.jsonCacheLast = 0
      return state.jsonCacheValue0
    }
    if state.jsonCacheStart.1 == s.start {
      state.jsonCacheLast = 1
      return state.jsonCacheValue1
    }
    guard let input = source.input else { return .null }
    let v: Value
    do {
      v = try RawJSON.value(input, s)
    } catch {
      throw MigrationError("run-json", "malformed Transformable value at byte \(s.start): \(error)")
    }
    if state.jsonCacheLast == 0 {
      state.jsonCacheStart.1 = s.start
      state.jsonCacheValue1 = v
      state.jsonCacheLast = 1
    } else {
      state.jsonCacheStart.0 = s.start
      state.jsonCacheValue0 = v
      state.jsonCacheLast = 0
    }
    return v
  }
}
