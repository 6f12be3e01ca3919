import MapRuntime

extension JSONOutput {
  /// Writes `text` as a JSON string with the store's escaping.
  package mutating func writeString(_ text: String) {
    beginElement()
    writeQuoted(text)
  }

  /// Writes UTF-8 `bytes` as a JSON string with the store's escaping.
  @inlinable @inline(__always)
  package mutating func writeString(utf8 bytes: UnsafeRawBufferPointer) {
    beginElement()
    writeQuotedUTF8(bytes)
  }

  /// Writes a string taken from the raw contents of a scanned string token (the bytes between
  /// the quotes, as `JSONScanner.rawBytes` gives them). Without escapes they are copied
  /// unchanged (valid JSON string contents without a backslash need no escaping); with
  /// escapes they are rewritten to the store's canonical escaping.
  @inlinable @inline(__always)
  package mutating func writeString(raw: UnsafeRawBufferPointer, hasEscapes: Bool) {
    beginElement()
    writeQuotedInput(raw, hasEscapes: hasEscapes)
  }

  /// Writes a pre-encoded JSON value verbatim (for example a quoted date or base64 text the
  /// caller formatted itself). The bytes must be one valid JSON value in the output's style.
  @inlinable @inline(__always)
  package mutating func writeEncodedValue(_ bytes: UnsafeRawBufferPointer) {
    beginElement()
    writeRawBytes(bytes)
  }

  @inlinable @inline(__always)
  package mutating func writeNull() {
    beginElement()
    reserve(4)
    // "null" as one little-endian word.
    UnsafeMutableRawPointer(buffer + count).storeBytes(of: 0x6C6C_756E as UInt32, as: UInt32.self)
    count &+= 4
  }

  @inlinable @inline(__always)
  package mutating func writeBool(_ value: Bool) {
    beginElement()
    if value { writeRaw("true") } else { writeRaw("false") }
  }

  /// Writes a decimal integer.
  @inlinable @inline(__always)
  package mutating func writeInt(_ value: Int64) {
    beginElement()
    reserve(20)
    count &+= JSONOutput.formatInteger(value, into: buffer + count)
  }

  @inlinable @inline(__always)
  package mutating func writeInt(_ value: Int) { writeInt(Int64(value)) }

  /// Writes a `Double` as Python's `repr` does (`17.0`, `0.1`, `1e+100`). NaN and infinities
  /// have no JSON form and are refused.
  package mutating func writeDouble(_ value: Double) throws(StoreValueError) {
    guard value.isFinite else {
      throw StoreValueError(.nonFiniteNumber, "\(value) cannot be written in JSON")
    }
    beginElement()
    reserve(PythonFloatFormatter.maximumLength)
    count += PythonFloatFormatter.format(value, into: buffer + count)
  }

  /// Writes the digits of `value` at `p` (room for 20 bytes); returns how many.
  @inlinable @inline(__always)
  static func formatInteger(_ value: Int64, into p: UnsafeMutablePointer<UInt8>) -> Int {
    var magnitude = value.magnitude
    var o = 0
    if value < 0 {
      p[0] = ASCII.minus
      o = 1
    }
    var digits = 1
    var limit: UInt64 = 10
    while digits < 20 && magnitude >= limit {
      digits += 1
      limit = limit &* 10
    }
    var k = o + digits
    repeat {
      k -= 1
      p[k] = ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
    return o + digits
  }
}
