import MapRuntime

/// An object member name encoded once for repeated writing: the quoted, escaped name
/// followed by `: ` (the space is left out in compact output).
@usableFromInline package struct PreparedKey: Sendable, Hashable {
  package let name: String
  @usableFromInline let bytes: [UInt8]

  package init(_ name: String) {
    self.name = name
    var output = JSONOutput(style: .compact, initialCapacity: name.utf8.count * 6 + 8)
    output.writeString(name)
    output.writeRaw(": ")
    bytes = output.bytes
  }

  /// The key as written: quoted name, colon and space.
  package var encoded: [UInt8] { bytes }
}

/// The start of a string value that is written many times with different numbers after it,
/// such as object ids `"Question/17"`: the opening quote and the escaped prefix, encoded once.
@usableFromInline package struct PreparedStringPrefix: Sendable, Hashable {
  package let prefix: String
  @usableFromInline let bytes: [UInt8]

  package init(_ prefix: String) {
    self.prefix = prefix
    var output = JSONOutput(style: .compact, initialCapacity: prefix.utf8.count * 6 + 8)
    output.writeString(prefix)
    var encoded = output.bytes
    encoded.removeLast()  // the closing quote
    bytes = encoded
  }

  /// The opening quote and the escaped prefix.
  package var encoded: [UInt8] { bytes }
}

extension JSONOutput {
  /// `writeKey(_ key: PreparedKey)` with the key's encoded bytes (`PreparedKey.encoded`) given
  /// directly, for writers that keep them in one buffer.
  @inlinable @inline(__always)
  package mutating func writeKey(encoded raw: UnsafeRawBufferPointer) {
    beginElement()
    writeRawBytes(UnsafeRawBufferPointer(rebasing: raw[..<(style == .indented ? raw.count : raw.count - 1)]))
    afterKey = true
  }

  /// `writeString(prefix:number:)` with the prefix's encoded bytes (`PreparedStringPrefix.encoded`).
  @inlinable @inline(__always)
  package mutating func writeString(encodedPrefix raw: UnsafeRawBufferPointer, number: Int64) {
    beginElement()
    reserve(raw.count &+ 21)
    appendReserved(raw.baseAddress!, raw.count)
    count &+= JSONOutput.formatInteger(number, into: buffer + count)
    buffer[count] = ASCII.quote
    count &+= 1
  }

  /// Writes the string `prefix` followed by the decimal digits of `number`, for example
  /// `"Question/17"`, without building a `String`.
  @inlinable @inline(__always)
  package mutating func writeString(prefix: PreparedStringPrefix, number: Int64) {
    prefix.bytes.withUnsafeBytes { writeString(encodedPrefix: $0, number: number) }
  }
}
