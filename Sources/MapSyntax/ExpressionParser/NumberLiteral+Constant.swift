import MapRuntime

extension NumberLiteral {
  /// The constant this literal stands for, negated when `negative` (a `-` folded into it).
  /// Nil for a hexadecimal, octal or binary literal outside the Int64 range.
  ///
  /// Decimal integers that fit in Int64 are `.integer`, larger ones `.decimal` with the text
  /// kept. Literals with a fraction or exponent are `.double` when the nearest Double prints
  /// back (shortest form) as the same decimal value, otherwise `.decimal`.
  func constant(negative: Bool) -> Expression.Constant? {
    let signed = negative ? "-" + text : text
    switch form {
    case .integer:
      if let value = Int64(signed) { return .integer(value) }
      return .decimal(signed)
    case .radix(let magnitude):
      guard let magnitude else { return nil }
      if negative {
        if magnitude == UInt64(Int64.max) + 1 { return .integer(.min) }
        return magnitude <= UInt64(Int64.max) ? .integer(-Int64(magnitude)) : nil
      }
      return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : nil
    case .real:
      if let value = Double(signed), value.isFinite,
        DecimalDigits(text) == DecimalDigits(value.magnitude.description)
      {
        return .double(value)
      }
      return .decimal(signed)
    }
  }
}

/// The value of an unsigned decimal numeral as significant digits and a power of ten
/// (`value = digits × 10^exponent`), so two spellings of one number compare equal.
package struct DecimalDigits: Equatable {
  package var digits: [UInt8] = []
  package var exponent = 0

  /// `text` is `digits[.digits][(e|E)[+|-]digits]`.
  package init(_ text: String) {
    var mantissa: [UInt8] = []
    var fractionCount = 0
    var inFraction = false
    var exponentValue = 0
    var exponentNegative = false
    var inExponent = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "."): inFraction = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
      case UInt8(ascii: "-") where inExponent: exponentNegative = true
      case UInt8(ascii: "+"): break
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let digit = byte - UInt8(ascii: "0")
        if inExponent {
          // Saturate: a finite Double's exponent is within ±400, texts are at most 64 KiB.
          exponentValue = min(exponentValue * 10 + Int(digit), 1_000_000_000)
        } else {
          mantissa.append(digit)
          if inFraction { fractionCount += 1 }
        }
      default: break
      }
    }
    guard let first = mantissa.firstIndex(where: { $0 != 0 }) else { return }
    var last = mantissa.count - 1
    var trailingZeros = 0
    while mantissa[last] == 0 {
      last -= 1
      trailingZeros += 1
    }
    digits = Array(mantissa[first...last])
    exponent = (exponentNegative ? -exponentValue : exponentValue) - fractionCount + trailingZeros
  }
}
