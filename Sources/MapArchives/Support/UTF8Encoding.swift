/// Unicode scalars written as UTF-8 bytes: for the JSON escapes, the JSON writer and archived
/// UTF-16 strings.
package enum UTF8Encoding {
  /// Writes `scalar` as UTF-8 at `p`; returns the number of bytes (1 to 4).
  @inline(__always)
  package static func write(_ scalar: UInt32, to p: UnsafeMutablePointer<UInt8>) -> Int {
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
}
