/// A string value. Strings read from a store stay slices of the input bytes until something
/// needs their characters; strings computed by expressions are native.
public enum Text: Sendable {
  case slice(ByteSlice)
  case native(String)
}

/// The bytes between the quotes of a JSON string in the input buffer. When `hasEscapes` is
/// false the bytes are the string's UTF-8 as is.
public struct ByteSlice: Sendable, Hashable {
  public var start: Int
  public var count: Int32
  public var hasEscapes: Bool
  @inlinable public init(start: Int, count: Int, hasEscapes: Bool) {
    self.start = start
    self.count = Int32(truncatingIfNeeded: count)
    self.hasEscapes = hasEscapes
  }
  @inlinable public var end: Int { start + Int(count) }

  /// Whether byte `c` may stand as it is between the quotes of a JSON string, so in a slice
  /// without escapes: not `"`, `\` or a control character below 0x20.
  @inlinable package static func isVerbatim(_ c: UInt8) -> Bool {
    c >= 0x20 && c != ASCII.quote && c != ASCII.backslash
  }

  /// Whether every byte of `bytes` may stand as it is in a slice without escapes.
  @inlinable package static func isVerbatim(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for c in bytes where !isVerbatim(c) { return false }
    return true
  }
}
