#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Converting number texts (`-?digits`, then optionally `.digits` and an exponent, as validated
/// by the reader that found them: JSON numbers, decimal texts) to machine numbers.
package enum NumberParser {
  /// The value of an integer text `-?digits`, or nil when it is outside `Int64` (or is not an
  /// integer text).
  @inline(__always)
  package static func int64(_ text: UnsafeRawBufferPointer) -> Int64? {
    let n = text.count
    guard n > 0 else { return nil }
    let p = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var i = 0
    let negative = p[0] == ASCII.minus
    if negative { i = 1 }
    guard i < n else { return nil }
    var magnitude: UInt64 = 0
    while i < n {
      let digit = p[i] &- ASCII.zero
      guard digit < 10 else { return nil }
      let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
      if o1 || o2 { return nil }
      magnitude = sum
      i += 1
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return Int64(bitPattern: 0 &- magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else { return nil }
    return Int64(magnitude)
  }

  /// Exact powers of ten that a `Double` holds.
  static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// The correctly rounded `Double` nearest to a JSON number text, or nil when the text is
  /// not a number or its magnitude is too large for a `Double` (it would be infinite).
  ///
  /// Texts with at most 15 significant digits and a small exponent are converted exactly
  /// with one multiplication or division (both operands are exact, so IEEE rounding of that
  /// one operation is the correct rounding); all others go through the C library's `strtod`,
  /// which rounds correctly.
  package static func double(_ text: UnsafeRawBufferPointer) -> Double? {
    let n = text.count
    guard n > 0 else { return nil }
    let p = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var i = 0
    let negative = p[0] == ASCII.minus
    if negative { i = 1 }
    var mantissa: UInt64 = 0
    var significant = 0
    var exponent = 0
    var sawDigit = false
    while i < n, p[i] &- ASCII.zero < 10 {
      let digit = UInt64(p[i] &- ASCII.zero)
      if significant > 0 || digit != 0 {
        significant += 1
        if significant <= 19 { mantissa = mantissa &* 10 &+ digit } else { exponent += 1 }
      }
      sawDigit = true
      i += 1
    }
    guard sawDigit else { return nil }
    if i < n && p[i] == UInt8(ascii: ".") {
      i += 1
      guard i < n, p[i] &- ASCII.zero < 10 else { return nil }
      while i < n, p[i] &- ASCII.zero < 10 {
        let digit = UInt64(p[i] &- ASCII.zero)
        if significant > 0 || digit != 0 {
          significant += 1
          if significant <= 19 {
            mantissa = mantissa &* 10 &+ digit
            exponent -= 1
          }
        } else {
          exponent -= 1
        }
        sawDigit = true
        i += 1
      }
    }
    guard let written = exponentPart(p, n, &i, cap: 100_000), i == n else { return nil }
    exponent += written

    if significant == 0 { return negative ? -0.0 : 0.0 }
    if significant <= 15 && exponent >= -22 && exponent <= 22 {
      var value = Double(mantissa)
      if exponent >= 0 {
        value *= exactPowersOfTen[exponent]
      } else {
        value /= exactPowersOfTen[-exponent]
      }
      return negative ? -value : value
    }
    return viaStrtod(text)
  }

  /// The exponent part `[eE][+-]?[0-9]+` of a number text at `i`, if there is one: its value
  /// (0 when there is none), with `i` moved past it; nil when an `e` has no digits. Digits
  /// after `written` reaches `cap` are read but not added, so a huge exponent stays huge.
  @inline(__always)
  package static func exponentPart(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int, cap: Int) -> Int? {
    guard i < n && (p[i] | 0x20) == UInt8(ascii: "e") else { return 0 }
    i += 1
    var negative = false
    if i < n && (p[i] == ASCII.plus || p[i] == ASCII.minus) {
      negative = p[i] == ASCII.minus
      i += 1
    }
    let start = i
    var written = 0
    while i < n, p[i] &- ASCII.zero < 10 {
      if written < cap { written = written * 10 + Int(p[i] &- ASCII.zero) }
      i += 1
    }
    guard i > start else { return nil }
    return negative ? -written : written
  }

  /// Converts with `strtod` from a NUL-terminated copy. The text is a JSON number, which only
  /// uses `.` as decimal point; should a process locale make `strtod` stop early, Swift's own
  /// correctly rounded parser is used instead.
  static func viaStrtod(_ text: UnsafeRawBufferPointer) -> Double? {
    let n = text.count
    let value: Double = withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { buffer in
      let start = buffer.baseAddress!
      UnsafeMutableRawPointer(start).copyMemory(from: text.baseAddress!, byteCount: n)
      start[n] = 0
      var end: UnsafeMutablePointer<CChar>? = nil
      let result = strtod(start, &end)
      if end == start + n { return result }
      return Double(String(decoding: text, as: UTF8.self)) ?? .nan
    }
    return value.isFinite ? value : nil
  }
}
