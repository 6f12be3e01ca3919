import MapRuntime

/// Binary data written into a JSON document, as base64 text (`Base64Codec`).
extension JSONOutput {
  /// Writes `bytes` as a quoted base64 string.
  package mutating func writeBase64(_ bytes: UnsafeRawBufferPointer) {
    beginElement()
    let length = Base64Codec.encodedLength(bytes.count)
    reserve(length + 2)
    buffer[count] = ASCII.quote
    Base64Codec.encode(bytes, into: buffer + count + 1)
    buffer[count + 1 + length] = ASCII.quote
    count += length + 2
  }
}
