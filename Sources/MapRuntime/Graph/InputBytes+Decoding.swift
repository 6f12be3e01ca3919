// Decoding of string slices and raw JSON values kept in the input buffer.
// TEMPORARY: simple implementations until the byte-level JSON codec lands; then these call it.

extension InputBytes {
  /// The string a slice holds, with JSON escapes decoded.
  func decodeString(_ s: ByteSlice) -> String {
    let raw = buffer(s)
    if !s.hasEscapes { return String(decoding: raw, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var i = 0
    func hex4(_ at: Int) -> UInt32 {
      var v: UInt32 = 0
      for k in 0..<4 {
        let c = raw[at + k]
        v <<= 4
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): v |= UInt32(c - 48)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): v |= UInt32(c - 87)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): v |= UInt32(c - 55)
        default: break
        }
      }
      return v
    }
    while i < raw.count {
      let c = raw[i]
      if c != UInt8(ascii: "\\") {
        out.append(c)
        i += 1
        continue
      }
      let e = raw[i + 1]
      i += 2
      switch e {
      case UInt8(ascii: "n"): out.append(10)
      case UInt8(ascii: "t"): out.append(9)
      case UInt8(ascii: "r"): out.append(13)
      case UInt8(ascii: "b"): out.append(8)
      case UInt8(ascii: "f"): out.append(12)
      case UInt8(ascii: "u"):
        var scalar = hex4(i)
        i += 4
        if scalar >= 0xD800 && scalar < 0xDC00 && i + 6 <= raw.count && raw[i] == UInt8(ascii: "\\") {
          let low = hex4(i + 2)
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          i += 6
        }
        out.append(contentsOf: Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8))
      default: out.append(e)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
