import MapRuntime

extension JSONScanner {
  /// The value of an integer number token, or nil when it has a fraction or exponent or is
  /// outside `Int64`.
  @inlinable @inline(__always)
  package func int64(_ token: JSONToken) -> Int64? {
    guard token.kind == .number && token.isInteger else { return nil }
    return NumberParser.int64(rawBytes(token))
  }

  /// The correctly rounded value of a number token, or nil when it is too large for a
  /// `Double` (for example `1e400`).
  @inlinable @inline(__always)
  package func double(_ token: JSONToken) -> Double? {
    guard token.kind == .number else { return nil }
    return NumberParser.double(rawBytes(token))
  }
}
