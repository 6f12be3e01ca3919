import MapArchives

/// The escapes a string slice of the graph may hold (`ByteSlice.hasEscapes`): JSON's
/// (`\n`, `\uXXXX`, surrogate pairs, …), since slices point into a JSON store's text. The
/// JSON scanner validates them; this decodes them.
package enum EscapedText {
  /// Decodes the escapes of `raw` (string contents already validated, as the JSON scanner does)
  /// into `output`, which must have room for `raw.count` bytes (decoding never lengthens a
  /// string). Returns the number of bytes written.
  package static func decode(
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
      o += UTF8Encoding.write(scalar, to: output + o)
      i = j + length
    }
    return o
  }

  /// The scalar of the (validated) escape at `p` and the number of bytes it takes.
  @inline(__always)
  package static func decodeEscape(_ p: UnsafePointer<UInt8>, available: Int) -> (UInt32, Int) {
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
  package static func hex4Unchecked(_ p: UnsafePointer<UInt8>) -> UInt32 {
    var value: UInt32 = 0
    for k in 0..<4 { value = value << 4 | UInt32(hexValue(p[k]) ?? 0) }
    return value
  }

  @inline(__always)
  package static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case ASCII.zero...ASCII.nine: c &- ASCII.zero
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c &- UInt8(ascii: "A") &+ 10
    default: nil
    }
  }
}
