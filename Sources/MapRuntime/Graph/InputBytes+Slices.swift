extension InputBytes {
  /// The raw bytes of a string slice (between the quotes).
  @inline(__always) func buffer(_ s: ByteSlice) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: unsafeBytes[s.start..<s.end])
  }

  /// The string a slice holds, with JSON escapes decoded.
  func decodeString(_ s: ByteSlice) -> String { Self.decodeString(buffer(s), hasEscapes: s.hasEscapes) }

  /// The string the bytes between a JSON string's quotes hold.
  static func decodeString(_ raw: UnsafeRawBufferPointer, hasEscapes: Bool) -> String {
    if !hasEscapes { return String(decoding: raw, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: raw.count) { out in
      EscapedText.decode(raw, into: out.baseAddress!)
    }
  }
}
