/// Store dates: ISO 8601 text ⇄ seconds since 2001-01-01T00:00:00Z (Core Data's reference
/// date), in the proleptic Gregorian calendar, without leap seconds.
///
/// Written form: `YYYY-MM-DDTHH:MM:SSZ` in UTC, with `.` and up to six fractional-second
/// digits (rounded to the microsecond, ties to even, trailing zeros dropped) only when the
/// fraction is not zero: `2018-01-02T00:00:00Z`, `2018-01-02T00:00:00.25Z`. When that text
/// would read back as another double (a time Core Data stored to the tenth of a microsecond
/// and beyond), the fewest digits from 7 on that read back as the very same double are
/// written instead (`2004-10-24T07:38:08.92925799Z`), so a date survives a JSON store exactly.
///
/// Accepted form: `YYYY-MM-DDTHH:MM:SS`, optionally `.` and one or more digits, then `Z` or an
/// offset `+hh:mm` / `-hh:mm` (hh 00–23, mm 00–59). Upper-case `T` and `Z` only. Day, month,
/// hour, minute and second must exist (`2018-02-30` and `…T24:00:00Z` are refused, and so is
/// second 60). Years are 0000–9999 both ways.
package enum ISO8601DateCodec {
  /// Seconds from 1970-01-01T00:00:00Z to 2001-01-01T00:00:00Z.
  package static let referenceDateUnixOffset: Int64 = 978_307_200
  /// Largest number of bytes `format` writes (`9999-12-31T23:59:59.` and 20 digits, `Z`).
  package static let maximumLength = 41
  /// Most fraction digits of an exact date (enough for every double of at least a second from
  /// the reference date; nearer ones keep the microsecond form).
  static let maximumFractionDigits = 20

  // MARK: Reading

  /// Seconds since 2001-01-01T00:00:00Z of an ISO 8601 date-time text.
  package static func parse(_ text: String) throws(StoreValueError) -> Double {
    try withUTF8Bytes(of: text) { bytes throws(StoreValueError) in try parse(bytes) }
  }

  /// Seconds since 2001-01-01T00:00:00Z of an ISO 8601 date-time given as UTF-8 bytes.
  /// `strict`: a text of six or fewer fraction digits must name the double it gives to those
  /// digits (below); `format`'s own check of what it wrote reads without it.
  package static func parse(_ text: UnsafeRawBufferPointer, strict: Bool = true) throws(StoreValueError) -> Double {
    let n = text.count
    let p = text.baseAddress?.assumingMemoryBound(to: UInt8.self)
    func digits(_ at: Int, _ count: Int) -> Int? {
      guard let p, at + count <= n else { return nil }
      var value = 0
      for k in at..<(at + count) {
        let d = p[k] &- ASCII.zero
        guard d < 10 else { return nil }
        value = value * 10 + Int(d)
      }
      return value
    }
    func char(_ at: Int, _ c: Character) -> Bool {
      guard let p, at < n else { return false }
      return p[at] == c.asciiValue!
    }
    func syntax() -> StoreValueError {
      StoreValueError(
        .invalidDate,
        "\(quoted(text)) is not an ISO 8601 date-time like 2018-01-02T00:00:00Z")
    }

    guard let year = digits(0, 4), char(4, "-"), let month = digits(5, 2), char(7, "-"),
      let day = digits(8, 2), char(10, "T"), let hour = digits(11, 2), char(13, ":"),
      let minute = digits(14, 2), char(16, ":"), let second = digits(17, 2)
    else { throw syntax() }

    var i = 19
    var fraction = 0.0
    // The fraction's digits as an integer, when there are six or fewer.
    var shortFraction: (digits: Int, count: Int)? = nil
    if char(i, ".") {
      let start = i + 1
      i = start
      while i < n, p![i] &- ASCII.zero < 10 { i += 1 }
      guard i > start else { throw syntax() }
      // "0." + digits, converted with correct rounding.
      let digitCount = i - start
      if digitCount <= 6, let d = digits(start, digitCount) { shortFraction = (d, digitCount) }
      fraction = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: digitCount + 2) {
        buffer in
        buffer[0] = ASCII.zero
        buffer[1] = UInt8(ascii: ".")
        for k in 0..<digitCount { buffer[k + 2] = p![start + k] }
        return NumberParser.double(UnsafeRawBufferPointer(buffer)) ?? 0
      }
    }
    var offsetSeconds = 0
    if char(i, "Z") {
      i += 1
    } else if char(i, "+") || char(i, "-") {
      let sign = char(i, "-") ? -1 : 1
      guard let offsetHours = digits(i + 1, 2), char(i + 3, ":"),
        let offsetMinutes = digits(i + 4, 2)
      else { throw syntax() }
      guard offsetHours < 24, offsetMinutes < 60 else {
        throw StoreValueError(
          .invalidDate, "\(quoted(text)) has an impossible UTC offset (hours 00–23, minutes 00–59)")
      }
      offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
      i += 6
    } else {
      throw syntax()
    }
    guard i == n else { throw syntax() }

    func invalid(_ reason: String) -> StoreValueError {
      StoreValueError(.invalidDate, "\(quoted(text)) is not a valid date: \(reason)")
    }
    guard (1...12).contains(month) else { throw invalid("month must be 01–12") }
    let monthLength = CivilDate.daysInMonth(year, month)
    guard day >= 1 && day <= monthLength else {
      throw invalid(
        day == 0
          ? "day must be 01–\(monthLength)"
          : "\(monthNames[month - 1]) \(year) has \(monthLength) days")
    }
    guard hour < 24 else { throw invalid("hour must be 00–23") }
    guard minute < 60 else { throw invalid("minute must be 00–59") }
    guard second < 60 else { throw invalid("second must be 00–59") }

    let days = Int64(CivilDate.days(year: year, month: month, day: day))
    let unix =
      days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
    let whole = unix - referenceDateUnixOffset
    let seconds = Double(whole) + fraction
    // Core Data keeps a date as a double: far from 2001 it has no room for every microsecond
    // (at 9999-12-31T23:59:59.999999Z the nearest double is 10000-01-01). A text of six or fewer
    // fraction digits must name the double it gives to those digits, else it is refused rather
    // than moved to another instant. (Longer fractions are the exact form `format` writes.)
    if strict, let (digits, count) = shortFraction {
      var scale = 1.0
      for _ in 0..<count { scale *= 10 }
      // Exact: the two are within a second of each other and a whole second below 2^53.
      let rest = seconds - Double(whole)
      guard abs(rest * scale - Double(digits)) <= 0.5 else {
        let nearest = (try? string(seconds)) ?? "\(seconds) seconds after 2001-01-01"
        throw StoreValueError(
          .invalidDate,
          "\(quoted(text)) cannot be kept: Core Data keeps a date as a double of seconds since 2001, and none is this date to the last digit given; the nearest is \(nearest)"
        )
      }
    }
    return seconds
  }

  // MARK: Writing

  /// The ISO 8601 text of a date given as seconds since 2001-01-01T00:00:00Z.
  package static func string(_ seconds: Double) throws(StoreValueError) -> String {
    var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    return try withUnsafeMutableBytes(of: &buffer) { raw throws(StoreValueError) in
      let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      let n = try format(seconds, into: p)
      return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
  }

  /// Writes the ISO 8601 text (no quotes) at `output`, which has room for `maximumLength`
  /// bytes; returns its length.
  package static func format(
    _ seconds: Double, into output: UnsafeMutablePointer<UInt8>
  ) throws(StoreValueError) -> Int {
    let n = try formatToMicroseconds(seconds, into: output)
    // Whole seconds are exact; other times are checked by reading the text back.
    if seconds == seconds.rounded(.down) || reads(output, n, as: seconds) { return n }
    if let exact = exactFraction(seconds, into: output) { return exact }
    return try formatToMicroseconds(seconds, into: output)  // the candidates wrote over it
  }

  private static func reads(_ text: UnsafeMutablePointer<UInt8>, _ n: Int, as seconds: Double) -> Bool {
    guard let back = try? parse(UnsafeRawBufferPointer(start: text, count: n), strict: false) else { return false }
    return back.bitPattern == seconds.bitPattern
  }

  /// The whole seconds' text, then `.` and the fewest digits (7 or more) that read back as
  /// `seconds`: the fraction's exact digits cut after n places, or those plus one in the last
  /// place. Nil when the fraction has more than 60 binary places (within a second of the
  /// reference date) or no such text is found.
  private static func exactFraction(_ seconds: Double, into output: UnsafeMutablePointer<UInt8>) -> Int? {
    let whole = seconds.rounded(.down)
    let fraction = seconds - whole  // exact
    guard fraction > 0 else { return nil }
    // fraction = rest / 2^places, with rest odd (a multiple of the date's own precision).
    var rest = UInt64(fraction.significandBitPattern | (1 << UInt64(Double.significandBitCount)))
    let zeros = rest.trailingZeroBitCount
    rest >>= UInt64(zeros)
    let places = -Int(fraction.exponent) + Double.significandBitCount - zeros
    guard places <= 60, let base = try? formatToMicroseconds(whole, into: output) else { return nil }
    let mask: UInt64 = (1 << UInt64(places)) - 1
    var digits: [UInt8] = []
    let start = base - 1  // over the `Z`
    output[start] = UInt8(ascii: ".")
    while digits.count < maximumFractionDigits {
      rest *= 10
      digits.append(UInt8(rest >> UInt64(places)))
      rest &= mask
      guard digits.count >= 7 else { continue }
      var candidate = digits
      for roundUp in [false, true] {
        if roundUp {
          var k = candidate.count - 1
          while k >= 0 && candidate[k] == 9 {
            candidate[k] = 0
            k -= 1
          }
          guard k >= 0 else { break }
          candidate[k] += 1
        }
        var length = candidate.count
        while length > 1 && candidate[length - 1] == 0 { length -= 1 }
        for k in 0..<length { output[start + 1 + k] = ASCII.zero + candidate[k] }
        output[start + 1 + length] = UInt8(ascii: "Z")
        if reads(output, start + length + 2, as: seconds) { return start + length + 2 }
      }
    }
    return nil
  }

  /// The text with at most six fraction digits, rounded to the microsecond.
  private static func formatToMicroseconds(
    _ seconds: Double, into output: UnsafeMutablePointer<UInt8>
  ) throws(StoreValueError) -> Int {
    // 0000-01-01 to 9999-12-31, in seconds since 2001 (with a margin for the rounding below).
    guard seconds.isFinite, seconds > -63_200_000_000, seconds < 252_500_000_000 else {
      throw outOfRange(seconds)
    }
    let whole = seconds.rounded(.down)
    var micros = Int64(((seconds - whole) * 1_000_000).rounded(.toNearestOrEven))
    var unix = Int64(whole) + referenceDateUnixOffset
    if micros >= 1_000_000 {
      unix += 1
      micros -= 1_000_000
    }
    var days = unix / 86_400
    var secondOfDay = unix % 86_400
    if secondOfDay < 0 {
      days -= 1
      secondOfDay += 86_400
    }
    let (y, m, d) = CivilDate.civil(days: Int(days))
    let (year, month, day) = (Int64(y), Int64(m), Int64(d))
    guard year >= 0 && year <= 9999 else { throw outOfRange(seconds) }

    var o = 0
    func put(_ value: Int64, _ width: Int) {
      var v = value
      for k in stride(from: width - 1, through: 0, by: -1) {
        output[o + k] = ASCII.zero + UInt8(v % 10)
        v /= 10
      }
      o += width
    }
    func put(_ c: UInt8) {
      output[o] = c
      o += 1
    }
    put(year, 4)
    put(ASCII.minus)
    put(month, 2)
    put(ASCII.minus)
    put(day, 2)
    put(UInt8(ascii: "T"))
    put(secondOfDay / 3600, 2)
    put(ASCII.colon)
    put(secondOfDay / 60 % 60, 2)
    put(ASCII.colon)
    put(secondOfDay % 60, 2)
    if micros > 0 {
      put(UInt8(ascii: "."))
      var width = 6
      while micros % 10 == 0 {
        micros /= 10
        width -= 1
      }
      put(micros, width)
    }
    put(UInt8(ascii: "Z"))
    return o
  }

  static func outOfRange(_ seconds: Double) -> StoreValueError {
    StoreValueError(
      .dateOutOfRange,
      "date \(seconds) seconds from 2001-01-01 is outside the years 0000–9999 that the store can write"
    )
  }

  // MARK: Calendar

  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
}

/// `'text'` for messages, shortened when long, with control characters shown as escapes.
func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
  let limit = 60
  var text = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
  if text.unicodeScalars.count > limit {
    text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…"
  }
  var shown = ""
  for scalar in text.unicodeScalars {
    if scalar.value < 0x20 || scalar.value == 0x7F {
      shown += scalar.escaped(asASCII: true)
    } else {
      shown.unicodeScalars.append(scalar)
    }
  }
  return "'\(shown)'"
}

/// Calls `body` with the UTF-8 bytes of `text` (no copy for native strings).
func withUTF8Bytes<R, E: Error>(
  of text: String, _ body: (UnsafeRawBufferPointer) throws(E) -> R
) throws(E) -> R {
  var copy = text
  let result: Result<R, E> = copy.withUTF8 { utf8 in
    do throws(E) {
      return .success(try body(UnsafeRawBufferPointer(utf8)))
    } catch {
      return .failure(error)
    }
  }
  return try result.get()
}
