extension InputBytes {
  /// The raw bytes of a string slice (between the quotes).
  @inline(__always) func buffer(_ s: ByteSlice) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: unsafeBytes[s.start..<s.end])
  }

  /// The string a slice holds, with JSON escapes decoded.
  func decodeString(_ s: ByteSlice) -> String {
    let raw = buffer(s)
    if !s.hasEscapes { return String(decoding: raw, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: raw.count) { out in
      JSONScanner.decodeEscapes(raw, into: out.baseAddress!)
    }
  }
}
