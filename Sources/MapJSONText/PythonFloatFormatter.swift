import MapRuntime

/// Formats a `Double` exactly as Python's `repr(float)` (and so `json.dump`) does.
///
/// The digits are the shortest that read back to the same value (Swift's own `description`
/// computes them, with the same shortest-then-closest rule as Python). With `d` digits and a
/// decimal exponent `e` (the value is `d.ddd × 10^e`), the text is
/// - exponent form when `e < -4` or `e >= 16`: the digits with a point after the first one
///   (none when there is only one digit), `e`, a sign and at least two exponent digits:
///   `1e-05`, `1e+16`, `1.5e+300`, `5e-324`;
/// - positional form otherwise, always with a fraction: `17.0`, `0.0001`, `123.456`, `-0.0`.
///
/// NaN and infinities have no JSON form; the formatter returns nil for them.
package enum PythonFloatFormatter {
  /// Largest number of bytes `format` writes.
  package static let maximumLength = 32

  /// `repr(value)` as Python prints it, or nil when `value` is not finite.
  package static func string(_ value: Double) -> String? {
    guard value.isFinite else { return nil }
    return String(unsafeUninitializedCapacity: maximumLength) { buffer in
      format(value, into: buffer.baseAddress!)
    }
  }

  /// Writes `repr(value)` at `output` (room for `maximumLength` bytes); returns its length.
  /// `value` must be finite.
  package static func format(_ value: Double, into output: UnsafeMutablePointer<UInt8>) -> Int {
    precondition(value.isFinite, "PythonFloatFormatter.format needs a finite value")
    var o = 0
    if value.sign == .minus {
      output[0] = ASCII.minus
      o = 1
    }
    if value == 0 {
      output[o] = ASCII.zero
      output[o + 1] = UInt8(ascii: ".")
      output[o + 2] = ASCII.zero
      return o + 3
    }

    // Shortest round-trip digits and the position of the decimal point, taken from Swift's
    // description (`123.456`, `1e-05`, `5e-324`, `1.7976931348623157e+308`, …).
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits
    var digitCount = 0
    var pointPosition = 0  // value = 0.d1d2d3… × 10^pointPosition
    var text = value.magnitude.description
    text.withUTF8 { utf8 in
      withUnsafeMutableBytes(of: &digits) { raw in
        let d = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // value = 0.(all digits) × 10^(digits before the point) × 10^exponent; each leading
        // zero dropped from the digits moves the point one place left.
        var sawPoint = false
        var integerDigits = 0
        var leadingZeros = 0
        var i = 0
        while i < utf8.count {
          let c = utf8[i]
          if c == UInt8(ascii: ".") {
            sawPoint = true
          } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            break
          } else {
            if !sawPoint { integerDigits += 1 }
            if digitCount == 0 && c == ASCII.zero {
              leadingZeros += 1
            } else if digitCount < 24 {
              d[digitCount] = c
              digitCount += 1
            }
          }
          i += 1
        }
        pointPosition = integerDigits - leadingZeros
        var exponent = 0
        if i < utf8.count {
          i += 1
          var negative = false
          if utf8[i] == ASCII.minus || utf8[i] == ASCII.plus {
            negative = utf8[i] == ASCII.minus
            i += 1
          }
          while i < utf8.count {
            exponent = exponent * 10 + Int(utf8[i] &- ASCII.zero)
            i += 1
          }
          if negative { exponent = -exponent }
        }
        pointPosition += exponent
        while digitCount > 1 && d[digitCount - 1] == ASCII.zero { digitCount -= 1 }
      }
    }

    return withUnsafeBytes(of: &digits) { raw in
      let d = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      let decimalExponent = pointPosition - 1
      if decimalExponent < -4 || decimalExponent >= 16 {
        output[o] = d[0]
        o += 1
        if digitCount > 1 {
          output[o] = UInt8(ascii: ".")
          o += 1
          for k in 1..<digitCount {
            output[o] = d[k]
            o += 1
          }
        }
        output[o] = UInt8(ascii: "e")
        output[o + 1] = decimalExponent < 0 ? ASCII.minus : ASCII.plus
        o += 2
        let magnitude = abs(decimalExponent)
        if magnitude >= 100 {
          output[o] = ASCII.zero + UInt8(magnitude / 100)
          o += 1
        }
        output[o] = ASCII.zero + UInt8(magnitude / 10 % 10)
        output[o + 1] = ASCII.zero + UInt8(magnitude % 10)
        return o + 2
      }
      if pointPosition <= 0 {
        output[o] = ASCII.zero
        output[o + 1] = UInt8(ascii: ".")
        o += 2
        for _ in 0 ..< -pointPosition {
          output[o] = ASCII.zero
          o += 1
        }
        for k in 0..<digitCount {
          output[o] = d[k]
          o += 1
        }
        return o
      }
      for k in 0..<max(pointPosition, digitCount) {
        if k == pointPosition {
          output[o] = UInt8(ascii: ".")
          o += 1
        }
        output[o] = k < digitCount ? d[k] : ASCII.zero
        o += 1
      }
      if pointPosition >= digitCount {
        output[o] = UInt8(ascii: ".")
        output[o + 1] = ASCII.zero
        o += 2
      }
      return o
    }
  }
}
