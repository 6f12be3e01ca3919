extension InputBytes {
  /// The raw bytes of a string slice (between the quotes).
  @inline(__always) package func buffer(_ s: ByteSlice) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: unsafeBytes[s.start..<s.end])
  }

  /// The string a slice holds, with JSON escapes decoded.
  package func decodeString(_ s: ByteSlice) -> String { Self.decodeString(buffer(s), hasEscapes: s.hasEscapes) }

  /// The string the bytes between a JSON string's quotes hold.
  package static func decodeString(_ raw: UnsafeRawBufferPointer, hasEscapes: Bool) -> String {
    if !hasEscapes { return String(decoding: raw, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: raw.count) { out in
      EscapedText.decode(raw, into: out.baseAddress!)
    }
  }

  /// The UTF-8 bytes of the string a slice holds when they are the input's own (the slice has
  /// no escapes); nil when the string must be decoded (`ObjectGraph.string`).
  package func plainStringBytes(_ s: ByteSlice) -> UnsafeRawBufferPointer? {
    s.hasEscapes ? nil : buffer(s)
  }
}
