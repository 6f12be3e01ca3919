#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// Reading the contents of `string` and `key` tokens.
extension JSONScanner {
  /// The raw bytes between the quotes of a string or key token (escapes not decoded).
  @inlinable @inline(__always)
  package func rawBytes(_ token: JSONToken) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: base + token.start, count: token.end - token.start)
  }

  /// Whether the decoded string of `token` equals `text`, without allocating.
  @inlinable @inline(__always)
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
  @inlinable @inline(__always)
  package func stringEquals(_ token: JSONToken, _ expected: UnsafeRawBufferPointer) -> Bool {
    let n = token.end - token.start
    if !token.hasEscapes {
      guard n == expected.count else { return false }
      return n == 0 || memcmp(base + token.start, expected.baseAddress!, n) == 0
    }
    // Decoding never makes a string longer, so a shorter raw text cannot match.
    guard n >= expected.count else { return false }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { buffer in
      let length = EscapedText.decode(rawBytes(token), into: buffer.baseAddress!)
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
      EscapedText.decode(raw, into: buffer.baseAddress!)
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
      let length = EscapedText.decode(raw, into: buffer.baseAddress!)
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
      let length = EscapedText.decode(raw, into: buffer.baseAddress!)
      do throws(E) {
        return .success(
          try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<length]))))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The line and column of `offset` in the scanned text.
  package func position(of offset: Int) -> JSONTextPosition {
    JSONTextPosition(of: offset, in: bytes)
  }
}
