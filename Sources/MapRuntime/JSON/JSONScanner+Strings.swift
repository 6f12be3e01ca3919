#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading the contents of `string` and `key` tokens.
extension JSONScanner {
  /// The raw bytes between the quotes of a string or key token (escapes not decoded).
  @inline(__always)
  package func rawBytes(_ token: JSONToken) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: base + token.start, count: token.end - token.start)
  }

  /// Whether the decoded string of `token` equals `text`, without allocating.
  @inline(__always)
  package func string(_ token: JSONToken, equals text: StaticString) -> Bool {
    text.withUTF8Buffer { expected in
      stringEquals(token, UnsafeRawBufferPointer(expected))
    }
  }

  /// Whether the decoded string of `token` equals `text` (no allocation for native strings).
  package func string(_ token: JSONToken, equals text: String) -> Bool {
    if let result = text.utf8.withContiguousStorageIfAvailable({
      stringEquals(token, UnsafeRawBufferPointer($0))
    }) {
      return result
    }
    let copy = Array(text.utf8)
    return copy.withUnsafeBytes { stringEquals(token, $0) }
  }

  /// Whether the decoded string of `token` equals the UTF-8 bytes `expected`.
  @inline(__always)
  package func stringEquals(_ token: JSONToken, _ expected: UnsafeRawBufferPointer) -> Bool {
    let n = token.end - token.start
    if !token.hasEscapes {
      guard n == expected.count else { return false }
      return n == 0 || memcmp(base + token.start, expected.baseAddress!, n) == 0
    }
    // Decoding never makes a string longer, so a shorter raw text cannot match.
    guard n >= expected.count else { return false }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { buffer in
      let length = JSONScanner.decodeEscapes(rawBytes(token), into: buffer.baseAddress!)
      return length == expected.count
        && (length == 0 || memcmp(buffer.baseAddress!, expected.baseAddress!, length) == 0)
    }
  }

  /// The decoded string of a string or key token.
  package func decodeString(_ token: JSONToken) -> String {
    let raw = rawBytes(token)
    if !token.hasEscapes {
      return String(unsafeUninitializedCapacity: raw.count) { buffer in
        _ = buffer.initialize(from: raw)
        return raw.count
      }
    }
    return String(unsafeUninitializedCapacity: raw.count) { buffer in
      JSONScanner.decodeEscapes(raw, into: buffer.baseAddress!)
    }
  }

  /// Appends the decoded UTF-8 bytes of a string or key token to `output`.
  package func appendDecodedBytes(_ token: JSONToken, to output: inout [UInt8]) {
    let raw = rawBytes(token)
    if !token.hasEscapes {
      output.append(contentsOf: raw)
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { buffer in
      let length = JSONScanner.decodeEscapes(raw, into: buffer.baseAddress!)
      output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<length]))
    }
  }

  /// Calls `body` with the decoded UTF-8 bytes of a string or key token: the input bytes
  /// themselves when there is no escape, else a temporary decoded copy.
  package func withDecodedBytes<R, E: Error>(
    _ token: JSONToken, _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    let raw = rawBytes(token)
    if !token.hasEscapes { return try body(raw) }
    let result: Result<R, E> = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) {
      buffer in
      let length = JSONScanner.decodeEscapes(raw, into: buffer.baseAddress!)
      do throws(E) {
        return .success(
          try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<length]))))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Decodes the escapes of `raw` (string contents already validated by a `JSONScanner`)
  /// into `output`, which must have room for `raw.count` bytes (decoding never lengthens a
  /// string). Returns the number of bytes written.
  package static func decodeEscapes(
    _ raw: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let n = raw.count
    guard n > 0 else { return 0 }
    let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var i = 0
    var o = 0
    while i < n {
      // Copy the run up to the next backslash in one go.
      var j = i
      while j < n && p[j] != ASCII.backslash { j += 1 }
      if j > i {
        (output + o).update(from: p + i, count: j - i)
        o += j - i
      }
      if j >= n { break }
      let (scalar, length) = decodeEscape(p + j, available: n - j)
      o += writeUTF8(scalar, to: output + o)
      i = j + length
    }
    return o
  }

  /// The scalar of the (validated) escape at `p` and the number of bytes it takes.
  @inline(__always)
  static func decodeEscape(_ p: UnsafePointer<UInt8>, available: Int) -> (UInt32, Int) {
    switch p[1] {
    case UInt8(ascii: "b"): return (0x08, 2)
    case UInt8(ascii: "f"): return (0x0C, 2)
    case UInt8(ascii: "n"): return (0x0A, 2)
    case UInt8(ascii: "r"): return (0x0D, 2)
    case UInt8(ascii: "t"): return (0x09, 2)
    case UInt8(ascii: "u"):
      let unit = hex4Unchecked(p + 2)
      if unit & 0xFC00 == 0xD800 && available >= 12 {
        let low = hex4Unchecked(p + 8)
        return (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12)
      }
      return (unit, 6)
    default:  // \" \\ \/
      return (UInt32(p[1]), 2)
    }
  }

  @inline(__always)
  static func hex4Unchecked(_ p: UnsafePointer<UInt8>) -> UInt32 {
    var value: UInt32 = 0
    for k in 0..<4 { value = value << 4 | UInt32(hexValue(p[k]) ?? 0) }
    return value
  }

  /// Writes `scalar` as UTF-8 at `p`; returns the number of bytes (1 to 4).
  @inline(__always)
  static func writeUTF8(_ scalar: UInt32, to p: UnsafeMutablePointer<UInt8>) -> Int {
    if scalar < 0x80 {
      p[0] = UInt8(truncatingIfNeeded: scalar)
      return 1
    }
    if scalar < 0x800 {
      p[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
      p[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
      return 2
    }
    if scalar < 0x10000 {
      p[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
      p[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
      p[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
      return 3
    }
    p[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
    p[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
    p[2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
    p[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
    return 4
  }

  /// The line and column of `offset` in the scanned text.
  package func position(of offset: Int) -> JSONTextPosition {
    JSONTextPosition(of: offset, in: bytes)
  }
}
