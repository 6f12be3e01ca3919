import MapSyntax

/// Conversions between an `NSDecimalNumber`'s parts (a 128-bit mantissa in eight 16-bit words,
/// least significant first, and a power of ten from -128 to 127) and decimal text, for archived
/// expressions. (A decimal store value's canonical text is MapRuntime's `DecimalText`.)
enum DecimalNumberParts {
  /// The most significant digits an `NSDecimalNumber` keeps.
  static let maximumDigits = 38

  /// Plain decimal text (`123`, `-0.05`, `12000`) of `mantissa × 10^exponent`; `mantissa` is
  /// consumed.
  static func text(mantissa: inout [UInt16], exponent: Int, negative: Bool) -> String {
    var digits: [UInt8] = []
    while mantissa.contains(where: { $0 != 0 }) {
      digits.append(divideByTen(&mantissa))
    }
    if digits.isEmpty { return "0" }
    digits.reverse()
    var text = ""
    if exponent >= 0 {
      text = String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
      text += String(repeating: "0", count: exponent)
    } else {
      let fraction = -exponent
      if digits.count <= fraction {
        digits.insert(contentsOf: [UInt8](repeating: 0, count: fraction - digits.count + 1), at: 0)
      }
      let whole = digits[..<(digits.count - fraction)].map { $0 + 48 }
      let rest = digits[(digits.count - fraction)...].map { $0 + 48 }
      text = String(decoding: whole, as: UTF8.self) + "." + String(decoding: rest, as: UTF8.self)
    }
    return negative ? "-" + text : text
  }

  /// The mantissa words, power of ten and sign of a decimal literal (`-1.25e3`, `12345…`),
  /// rounded half up to `maximumDigits` digits; the power of ten is brought into -128…127 by
  /// moving zeros into or out of the mantissa where that is exact, else clamped.
  static func parts(of literal: String) -> (mantissa: [UInt16], exponent: Int, negative: Bool) {
    let negative = literal.hasPrefix("-")
    let unsigned = negative ? String(literal.dropFirst()) : literal
    let value = DecimalDigits(unsigned)
    var digits = value.digits
    var exponent = value.exponent
    if digits.count > maximumDigits {
      let roundUp = digits[maximumDigits] >= 5
      exponent += digits.count - maximumDigits
      digits.removeLast(digits.count - maximumDigits)
      if roundUp { digits = incremented(digits, exponent: &exponent) }
    }
    while exponent > 127, digits.count < maximumDigits {
      digits.append(0)
      exponent -= 1
    }
    while exponent < -128, let last = digits.last, last == 0 {
      digits.removeLast()
      exponent += 1
    }
    exponent = min(127, max(-128, exponent))
    var mantissa = [UInt16](repeating: 0, count: 8)
    for digit in digits { multiplyByTen(&mantissa, adding: digit) }
    return (mantissa, exponent, negative && !digits.allSatisfy { $0 == 0 })
  }

  private static func incremented(_ digits: [UInt8], exponent: inout Int) -> [UInt8] {
    var result = digits
    var i = result.count - 1
    while i >= 0 {
      if result[i] < 9 {
        result[i] += 1
        return result
      }
      result[i] = 0
      i -= 1
    }
    // All nines: 99…9 + 1 = 10…0, kept at the same number of digits.
    result.insert(1, at: 0)
    result.removeLast()
    exponent += 1
    return result
  }

  /// Divides the words by ten in place and returns the remainder.
  private static func divideByTen(_ words: inout [UInt16]) -> UInt8 {
    var remainder: UInt32 = 0
    for i in stride(from: words.count - 1, through: 0, by: -1) {
      let current = remainder << 16 | UInt32(words[i])
      words[i] = UInt16(current / 10)
      remainder = current % 10
    }
    return UInt8(remainder)
  }

  /// `words = words × 10 + digit`, in place (overflow past 128 bits is dropped).
  private static func multiplyByTen(_ words: inout [UInt16], adding digit: UInt8) {
    var carry = UInt32(digit)
    for i in words.indices {
      let current = UInt32(words[i]) * 10 + carry
      words[i] = UInt16(truncatingIfNeeded: current)
      carry = current >> 16
    }
  }
}
