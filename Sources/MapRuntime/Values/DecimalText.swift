/// Decimal store values: exact decimal text, checked and put in canonical form without going
/// through binary floating point or Foundation's `Decimal` (which would round).
///
/// Accepted text: `-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?` (leading zeros allowed). The value
/// must fit Core Data's `NSDecimalNumber`: at most 38 significant digits, and an exponent that
/// can be brought into −128…127 (as `mantissa × 10^exponent` with a mantissa of at most 38
/// digits). Nothing is ever rounded: a value that does not fit is refused.
///
/// Canonical text: positional notation, no exponent, no leading zeros (one `0` before the point
/// when the value is below 1), no trailing fractional zeros, no point when there is no
/// fraction, `-` only for non-zero values: `12.50` → `12.5`, `1e3` → `1000`, `-0.0` → `0`,
/// `1.5E-3` → `0.0015`.
package enum DecimalText {
  /// Largest number of significant digits of an `NSDecimalNumber` mantissa.
  package static let maximumSignificantDigits = 38
  package static let minimumExponent = -128
  package static let maximumExponent = 127

  /// The canonical text of a decimal given as UTF-8 bytes.
  package static func canonical(_ text: UnsafeRawBufferPointer) throws(StoreValueError) -> String {
    let n = text.count
    guard n > 0, let p = text.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
      throw StoreValueError(.invalidDecimal, "'' is not a decimal number")
    }
    func syntax() -> StoreValueError {
      StoreValueError(
        .invalidDecimal, "\(quoted(text)) is not a decimal number like 12.50 or -3e-2")
    }
    var i = 0
    let negative = p[0] == ASCII.minus
    if negative { i = 1 }
    // Significant digits (leading zeros skipped) and the exponent of their last digit.
    var digits: [UInt8] = []
    var exponent = 0
    let integerStart = i
    while i < n, p[i] &- ASCII.zero < 10 {
      if !digits.isEmpty || p[i] != ASCII.zero { digits.append(p[i]) }
      i += 1
    }
    guard i > integerStart else { throw syntax() }
    if i < n && p[i] == UInt8(ascii: ".") {
      i += 1
      let fractionStart = i
      while i < n, p[i] &- ASCII.zero < 10 {
        if !digits.isEmpty || p[i] != ASCII.zero { digits.append(p[i]) }
        exponent -= 1
        i += 1
      }
      guard i > fractionStart else { throw syntax() }
    }
    guard let written = NumberParser.exponentPart(p, n, &i, cap: 1_000_000), i == n else { throw syntax() }
    exponent += written

    if digits.isEmpty { return "0" }
    while digits.last == ASCII.zero {
      digits.removeLast()
      exponent += 1
    }
    guard digits.count <= maximumSignificantDigits else {
      throw StoreValueError(
        .decimalOutOfRange,
        "\(quoted(text)) has \(digits.count) significant digits; a Decimal holds at most \(maximumSignificantDigits)"
      )
    }
    // Trailing zeros can move back into the mantissa to lower a large exponent.
    let spareDigits = maximumSignificantDigits - digits.count
    guard exponent >= minimumExponent && exponent <= maximumExponent + spareDigits else {
      throw StoreValueError(
        .decimalOutOfRange, "\(quoted(text)) is outside the range of a Decimal (about 1e-128 to 1e165)")
    }

    var output: [UInt8] = []
    output.reserveCapacity(digits.count + abs(exponent) + 3)
    if negative { output.append(ASCII.minus) }
    if exponent >= 0 {
      output.append(contentsOf: digits)
      output.append(contentsOf: repeatElement(ASCII.zero, count: exponent))
    } else if -exponent >= digits.count {
      output.append(ASCII.zero)
      output.append(UInt8(ascii: "."))
      output.append(contentsOf: repeatElement(ASCII.zero, count: -exponent - digits.count))
      output.append(contentsOf: digits)
    } else {
      let point = digits.count + exponent
      output.append(contentsOf: digits[..<point])
      output.append(UInt8(ascii: "."))
      output.append(contentsOf: digits[point...])
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The canonical text of a decimal.
  package static func canonical(_ text: String) throws(StoreValueError) -> String {
    try withUTF8Bytes(of: text) { bytes throws(StoreValueError) in try canonical(bytes) }
  }
}

/// Range checks of Core Data's integer attribute types.
package enum IntegerRangeCheck {
  /// Checks that `value` fits `type` (Integer 16, 32 or 64).
  package static func check(_ value: Int64, fits type: AttributeType) throws(StoreValueError) {
    guard let range = type.integerRange else {
      preconditionFailure("\(type.rawValue) is not an integer type")
    }
    if !range.contains(value) { throw outOfRange("\(value)", type, range) }
  }

  /// The value of an integer text (`-?digits`, for example a scanned number token) checked
  /// against `type`, including texts beyond the 64-bit range.
  package static func parse(
    _ text: UnsafeRawBufferPointer, as type: AttributeType
  ) throws(StoreValueError) -> Int64 {
    guard let range = type.integerRange else {
      preconditionFailure("\(type.rawValue) is not an integer type")
    }
    let isIntegerText =
      text.count > (text.first == ASCII.minus ? 1 : 0)
      && text.dropFirst(text.first == ASCII.minus ? 1 : 0).allSatisfy { $0 &- ASCII.zero < 10 }
    guard isIntegerText else {
      throw StoreValueError(
        .notAnInteger, "\(quoted(text)) is not an integer, as \(type.rawValue) requires")
    }
    guard let value = NumberParser.int64(text) else {
      throw outOfRange(String(decoding: text, as: UTF8.self), type, range)
    }
    if !range.contains(value) { throw outOfRange("\(value)", type, range) }
    return value
  }

  static func outOfRange(
    _ shown: String, _ type: AttributeType, _ range: ClosedRange<Int64>
  ) -> StoreValueError {
    StoreValueError(
      .integerOutOfRange,
      "\(shown) is out of range for \(type.rawValue) (\(range.lowerBound)…\(range.upperBound))")
  }
}
