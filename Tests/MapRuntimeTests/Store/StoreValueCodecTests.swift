import Foundation
import MapJSON
import MapJSONText
import MapRuntime
import MapTestSupport
import Testing

@Suite struct ISO8601DateCodecTests {
  /// Seconds since 2001-01-01T00:00:00Z, computed with Python's datetime when the test was
  /// written.
  static let known: [(String, Double)] = [
    ("2018-01-02T00:00:00Z", 536_544_000),
    ("2017-12-30T00:00:00Z", 536_284_800),
    ("1970-01-01T00:00:00Z", -978_307_200),
    ("2001-01-01T00:00:00Z", 0),
    ("2000-02-29T12:34:56Z", -26_479_504),
    ("0001-01-01T00:00:00Z", -63_113_904_000),
    ("9999-12-31T23:59:59Z", 252_423_993_599),
    ("1900-03-01T00:00:00Z", -3_182_198_400),
    ("2024-02-29T23:59:59Z", 730_943_999),
    ("1600-01-01T00:00:00Z", -12_654_403_200),
  ]

  @Test func knownDatesBothWays() throws {
    for (text, seconds) in Self.known {
      #expect(try ISO8601DateCodec.parse(text) == seconds, "\(text)")
      #expect(try ISO8601DateCodec.string(seconds) == text)
    }
  }

  @Test func offsetsAreConvertedToUTC() throws {
    #expect(try ISO8601DateCodec.parse("2018-01-02T05:30:00+05:30") == 536_544_000)
    #expect(try ISO8601DateCodec.parse("2018-01-01T19:00:00-05:00") == 536_544_000)
    #expect(try ISO8601DateCodec.parse("2018-01-02T00:00:00+00:00") == 536_544_000)
    #expect(try ISO8601DateCodec.parse("2018-01-02T00:00:00-00:00") == 536_544_000)
  }

  @Test func fractionalSeconds() throws {
    #expect(try ISO8601DateCodec.parse("2001-01-01T00:00:00.5Z") == 0.5)
    #expect(try ISO8601DateCodec.parse("2001-01-01T00:00:00.000Z") == 0)
    #expect(try ISO8601DateCodec.parse("2000-12-31T23:59:59.75Z") == -0.25)
    let long = try ISO8601DateCodec.parse("2001-01-01T00:00:01.123456789012345678Z")
    #expect(abs(long - 1.123456789012345678) < 1e-15)
    #expect(try ISO8601DateCodec.string(0.5) == "2001-01-01T00:00:00.5Z")
    #expect(try ISO8601DateCodec.string(-0.25) == "2000-12-31T23:59:59.75Z")
    #expect(try ISO8601DateCodec.string(536_544_000.123456) == "2018-01-02T00:00:00.123456Z")
    #expect(try ISO8601DateCodec.string(536_544_000.1) == "2018-01-02T00:00:00.1Z")
    // Within a second of the reference date, rounded to the microsecond: 0.0000004 disappears.
    #expect(try ISO8601DateCodec.string(0.0000004) == "2001-01-01T00:00:00Z")
    // -1 + float("0.9999999") is not -0.0000001: no text of this form reads back as it, so the
    // microsecond form is written.
    #expect(try ISO8601DateCodec.string(-0.0000001) == "2001-01-01T00:00:00Z")
    // Further away, a time the microsecond would change keeps its digits (python3:
    // 59 + float("0.9999996") == 59.9999996, while 60.0 is not): no carry into the minute.
    #expect(try ISO8601DateCodec.string(59.9999996) == "2001-01-01T00:00:59.9999996Z")
    // A time of SurfJournal's real store (Z_PK 154): python3's float("0.00203001") added to the
    // whole seconds gives the stored double 154213869.00203001; "…09.00203Z" (the microsecond
    // form) gives 154213869.00203, another double.
    #expect(try ISO8601DateCodec.string(154_213_869.002_030_01) == "2005-11-20T21:11:09.00203001Z")
  }

  /// Every double of at least a second from the reference date is written as a text that
  /// python3 reads back as the same double (whole seconds from its datetime, plus the float of
  /// the fraction's digits): the exact date Core Data stored survives a JSON store.
  @Test func datesAreWrittenExactly() throws {
    var generator = SplitMix64(seed: 11)
    var texts: [String] = []
    var bits: [String] = []
    for k in 0..<4000 {
      let magnitude = [1e3, 1e6, 1e8, 6e8, 3e9, 6e10][k % 6]
      var seconds = Double.random(in: -magnitude...magnitude, using: &generator)
      if abs(seconds) < 1 { seconds += 2 }
      texts.append(try ISO8601DateCodec.string(seconds))
      bits.append(String(seconds.bitPattern))
    }
    let script = """
      import datetime, struct, sys
      lines = open(sys.argv[1]).read().split("\\n")
      n = len(lines) // 2
      bad = []
      for text, bits in zip(lines[:n], lines[n:2 * n]):
          expected = struct.unpack("<d", struct.pack("<Q", int(bits)))[0]
          whole, _, fraction = text[:-1].partition(".")
          t = datetime.datetime.strptime(whole, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
          seconds = (t - datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(seconds=1)
          value = float(seconds) + (float("0." + fraction) if fraction else 0.0)
          if value != expected:
              bad.append(f"{text} reads as {value!r}, not {expected!r}")
      print(len(bad)); print("\\n".join(bad[:5]))
      """
    let dir = try FileManagerTemp.folder("exact-dates")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("dates.txt")
    try Data((texts + bits).joined(separator: "\n").utf8).write(to: file)
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("0\n"), "\(r.stdout)")
  }

  @Test func roundTripOverManyDates() throws {
    var generator = SplitMix64(seed: 3)
    for _ in 0..<5000 {
      let whole = Double(Int64.random(in: -63_000_000_000...252_000_000_000, using: &generator))
      let micros = Double(Int.random(in: 0..<1_000_000, using: &generator))
      let seconds = whole + micros / 1_000_000
      let text = try ISO8601DateCodec.string(seconds)
      let back = try ISO8601DateCodec.parse(text)
      #expect(abs(back - seconds) < 0.000_001, "\(text)")
      #expect(try ISO8601DateCodec.string(back) == text)
    }
  }

  @Test func matchesFoundationFormatter() throws {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    var generator = SplitMix64(seed: 5)
    for _ in 0..<500 {
      let seconds = Double(Int64.random(in: -3_000_000_000...3_000_000_000, using: &generator))
      let date = Date(timeIntervalSinceReferenceDate: seconds)
      #expect(try ISO8601DateCodec.string(seconds) == formatter.string(from: date))
    }
  }

  static let invalid: [(String, StoreValueError.Code, String)] = [
    ("2018-02-30T00:00:00Z", .invalidDate, "'2018-02-30T00:00:00Z' is not a valid date: February 2018 has 28 days"),
    ("2019-02-29T00:00:00Z", .invalidDate, "'2019-02-29T00:00:00Z' is not a valid date: February 2019 has 28 days"),
    ("1900-02-29T00:00:00Z", .invalidDate, "'1900-02-29T00:00:00Z' is not a valid date: February 1900 has 28 days"),
    ("2018-04-31T00:00:00Z", .invalidDate, "'2018-04-31T00:00:00Z' is not a valid date: April 2018 has 30 days"),
    ("2018-13-01T00:00:00Z", .invalidDate, "'2018-13-01T00:00:00Z' is not a valid date: month must be 01–12"),
    ("2018-00-01T00:00:00Z", .invalidDate, "'2018-00-01T00:00:00Z' is not a valid date: month must be 01–12"),
    ("2018-01-00T00:00:00Z", .invalidDate, "'2018-01-00T00:00:00Z' is not a valid date: day must be 01–31"),
    ("2018-01-01T24:00:00Z", .invalidDate, "'2018-01-01T24:00:00Z' is not a valid date: hour must be 00–23"),
    ("2018-01-01T00:60:00Z", .invalidDate, "'2018-01-01T00:60:00Z' is not a valid date: minute must be 00–59"),
    ("2016-12-31T23:59:60Z", .invalidDate, "'2016-12-31T23:59:60Z' is not a valid date: second must be 00–59"),
    (
      "2018-01-01T00:00:00+24:00", .invalidDate,
      "'2018-01-01T00:00:00+24:00' has an impossible UTC offset (hours 00–23, minutes 00–59)"
    ),
    ("2017-12-30", .invalidDate, "'2017-12-30' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"),
    (
      "2018-01-02T00:00:00", .invalidDate,
      "'2018-01-02T00:00:00' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"
    ),
    (
      "2018-01-02 00:00:00Z", .invalidDate,
      "'2018-01-02 00:00:00Z' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"
    ),
    (
      "2018-01-02t00:00:00z", .invalidDate,
      "'2018-01-02t00:00:00z' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"
    ),
    (
      "2018-01-02T00:00:00.Z", .invalidDate,
      "'2018-01-02T00:00:00.Z' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"
    ),
    (
      "2018-01-02T00:00:00+0530", .invalidDate,
      "'2018-01-02T00:00:00+0530' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"
    ),
    (
      "2018-01-02T00:00:00ZZ", .invalidDate,
      "'2018-01-02T00:00:00ZZ' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"
    ),
    ("18-01-02T00:00:00Z", .invalidDate, "'18-01-02T00:00:00Z' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"),
    ("", .invalidDate, "'' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"),
    (
      "2018-01-02T00:00:00Z\n", .invalidDate,
      "'2018-01-02T00:00:00Z\\n' is not an ISO 8601 date-time like 2018-01-02T00:00:00Z"
    ),
  ]

  @Test func invalidDatesAreRefusedWithReasons() {
    for (text, code, message) in Self.invalid {
      let error = #expect(throws: StoreValueError.self, "\(text)") { try ISO8601DateCodec.parse(text) }
      #expect(error?.code == code)
      #expect(error?.message == message)
    }
  }

  @Test func unwritableDates() {
    for seconds in [Double.nan, .infinity, -63_200_000_000, 252_500_000_000, 1e300] {
      let error = #expect(throws: StoreValueError.self) { try ISO8601DateCodec.string(seconds) }
      #expect(error?.code == .dateOutOfRange)
    }
  }

  @Test func writeDateInOutput() throws {
    var output = JSONOutput(style: .indented)
    output.beginObject()
    output.writeKey("date")
    try output.writeDate(536_544_000)
    output.writeKey("bad")
    #expect(throws: StoreValueError.self) { try output.writeDate(.nan) }
    output.writeNull()
    output.endObject()
    try output.finishDocument()
    #expect(output.string == "{\n  \"date\": \"2018-01-02T00:00:00Z\",\n  \"bad\": null\n}\n")
  }
}

@Suite struct Base64CodecTests {
  /// RFC 4648 §10 test vectors.
  static let vectors: [(String, String)] = [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
    ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
  ]

  @Test func rfcVectors() throws {
    for (plain, encoded) in Self.vectors {
      #expect(Base64Codec.encode(Array(plain.utf8)) == encoded)
      #expect(try Base64Codec.decode(encoded) == Array(plain.utf8))
    }
  }

  @Test func allByteValuesAndLengthsMatchFoundation() throws {
    var generator = SplitMix64(seed: 9)
    for length in 0..<200 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let encoded = Base64Codec.encode(bytes)
      #expect(encoded == Data(bytes).base64EncodedString())
      #expect(try Base64Codec.decode(encoded) == bytes)
    }
    let all = (0...255).map { UInt8($0) }
    #expect(Base64Codec.encode(all) == Data(all).base64EncodedString())
  }

  static let invalid: [(String, String)] = [
    ("Zg", "base64 text has 2 characters, which is not a multiple of 4 (padding with '=' is required)"),
    ("Zm9vY", "base64 text has 5 characters, which is not a multiple of 4 (padding with '=' is required)"),
    ("Zm9v\nYmFy", "base64 text has 9 characters, which is not a multiple of 4 (padding with '=' is required)"),
    ("Zm 9", "invalid base64: ' ' at character 3 of 4"),
    ("Zm9-", "invalid base64: '-' at character 4 of 4"),
    ("Zm9_Zm9v", "invalid base64: '_' at character 4 of 8"),
    ("Z=9v", "invalid base64: '=' before the end at character 2 of 4"),
    ("Zg==Zm9v", "invalid base64: '=' before the end at character 3 of 8"),
    ("Z===", "invalid base64: '=' before the end at character 2 of 4"),
    ("====", "invalid base64: '=' before the end at character 1 of 4"),
    ("Zh==", "invalid base64: the bits before the '=' padding are not zero (not the canonical encoding)"),
    ("Zm9=", "invalid base64: the bits before the '=' padding are not zero (not the canonical encoding)"),
    ("Zm\u{E9}", "invalid base64: byte 0xC3 at character 3 of 4"),
  ]

  @Test func strictDecoding() {
    for (text, message) in Self.invalid {
      let error = #expect(throws: StoreValueError.self, "\(text)") { try Base64Codec.decode(text) }
      #expect(error?.code == .invalidBase64)
      #expect(error?.message == message, "\(text)")
    }
  }

  @Test func writeBase64InOutput() throws {
    var output = JSONOutput(style: .compact)
    output.beginArray()
    Array("foob".utf8).withUnsafeBytes { output.writeBase64($0) }
    [UInt8]().withUnsafeBytes { output.writeBase64($0) }
    output.endArray()
    #expect(output.string == #"["Zm9vYg==",""]"#)
  }
}

@Suite struct DecimalTextTests {
  static let canonical: [(String, String)] = [
    ("0", "0"), ("-0", "0"), ("-0.000", "0"), ("0e10", "0"), ("12.50", "12.5"), ("12.0", "12"),
    ("007.5", "7.5"), ("1e3", "1000"), ("1E+3", "1000"), ("1.5E-3", "0.0015"), ("-1.5e-3", "-0.0015"),
    ("123.456e1", "1234.56"), ("123.456e-1", "12.3456"), ("0.1", "0.1"), ("100", "100"),
    ("-42", "-42"), ("1e-128", "0." + String(repeating: "0", count: 127) + "1"),
    ("99999999999999999999999999999999999999", "99999999999999999999999999999999999999"),
    ("0.00000000000000000000000000000000000001", "0.00000000000000000000000000000000000001"),
    ("1e127", "1" + String(repeating: "0", count: 127)),
    // Trailing zeros move into the mantissa: 1 × 10^164 = 10^37 × 10^127.
    ("1e164", "1" + String(repeating: "0", count: 164)),
    ("3.1415926535897932384626433832795028841", "3.1415926535897932384626433832795028841"),
  ]

  @Test func canonicalForms() throws {
    for (text, expected) in Self.canonical {
      #expect(try DecimalText.canonical(text) == expected, "\(text)")
      // Canonical text is a fixed point.
      #expect(try DecimalText.canonical(expected) == expected)
    }
  }

  static let invalid: [(String, StoreValueError.Code, String)] = [
    ("", .invalidDecimal, "'' is not a decimal number"),
    ("abc", .invalidDecimal, "'abc' is not a decimal number like 12.50 or -3e-2"),
    ("1.", .invalidDecimal, "'1.' is not a decimal number like 12.50 or -3e-2"),
    (".5", .invalidDecimal, "'.5' is not a decimal number like 12.50 or -3e-2"),
    ("+1", .invalidDecimal, "'+1' is not a decimal number like 12.50 or -3e-2"),
    ("1e", .invalidDecimal, "'1e' is not a decimal number like 12.50 or -3e-2"),
    (" 1", .invalidDecimal, "' 1' is not a decimal number like 12.50 or -3e-2"),
    ("1,5", .invalidDecimal, "'1,5' is not a decimal number like 12.50 or -3e-2"),
    ("NaN", .invalidDecimal, "'NaN' is not a decimal number like 12.50 or -3e-2"),
    (
      "1234567890123456789012345678901234567891", .decimalOutOfRange,
      "'1234567890123456789012345678901234567891' has 40 significant digits; a Decimal holds at most 38"
    ),
    ("1e-129", .decimalOutOfRange, "'1e-129' is outside the range of a Decimal (about 1e-128 to 1e165)"),
    ("1e166", .decimalOutOfRange, "'1e166' is outside the range of a Decimal (about 1e-128 to 1e165)"),
    ("12e164", .decimalOutOfRange, "'12e164' is outside the range of a Decimal (about 1e-128 to 1e165)"),
  ]

  @Test func refusedDecimals() {
    for (text, code, message) in Self.invalid {
      let error = #expect(throws: StoreValueError.self, "\(text)") { try DecimalText.canonical(text) }
      #expect(error?.code == code)
      #expect(error?.message == message)
    }
  }
}

@Suite struct IntegerRangeCheckTests {
  @Test func ranges() throws {
    try IntegerRangeCheck.check(32767, fits: .integer16)
    try IntegerRangeCheck.check(-32768, fits: .integer16)
    try IntegerRangeCheck.check(2_147_483_647, fits: .integer32)
    try IntegerRangeCheck.check(.min, fits: .integer64)
    let error = #expect(throws: StoreValueError.self) { try IntegerRangeCheck.check(32768, fits: .integer16) }
    #expect(error?.code == .integerOutOfRange)
    #expect(error?.message == "32768 is out of range for Integer 16 (-32768…32767)")
    let error32 = #expect(throws: StoreValueError.self) {
      try IntegerRangeCheck.check(-2_147_483_649, fits: .integer32)
    }
    #expect(error32?.message == "-2147483649 is out of range for Integer 32 (-2147483648…2147483647)")
  }

  @Test func parsingTexts() throws {
    func parse(_ text: String, _ type: AttributeType) throws -> Int64 {
      let bytes = Array(text.utf8)
      return try bytes.withUnsafeBytes { raw in
        try IntegerRangeCheck.parse(raw, as: type)
      }
    }
    #expect(try parse("-9223372036854775808", .integer64) == .min)
    #expect(try parse("9223372036854775807", .integer64) == .max)
    #expect(try parse("-0", .integer16) == 0)
    let big = #expect(throws: StoreValueError.self) { try parse("9223372036854775808", .integer64) }
    #expect(
      big?.message == "9223372036854775808 is out of range for Integer 64 (-9223372036854775808…9223372036854775807)")
    let small = #expect(throws: StoreValueError.self) { try parse("-40000", .integer16) }
    #expect(small?.message == "-40000 is out of range for Integer 16 (-32768…32767)")
    let fraction = #expect(throws: StoreValueError.self) { try parse("1.5", .integer32) }
    #expect(fraction?.code == .notAnInteger)
    #expect(fraction?.message == "'1.5' is not an integer, as Integer 32 requires")
  }

  @Test func int64Parser() {
    func parse(_ text: String) -> Int64? {
      Array(text.utf8).withUnsafeBytes { NumberParser.int64($0) }
    }
    #expect(parse("0") == 0)
    #expect(parse("-1") == -1)
    #expect(parse("12345678901234") == 12_345_678_901_234)
    #expect(parse("9223372036854775807") == .max)
    #expect(parse("9223372036854775808") == nil)
    #expect(parse("-9223372036854775808") == .min)
    #expect(parse("-9223372036854775809") == nil)
    #expect(parse("99999999999999999999999") == nil)
    #expect(parse("-") == nil)
    #expect(parse("") == nil)
    #expect(parse("1e3") == nil)
  }

  @Test func doubleParser() {
    func parse(_ text: String) -> Double? {
      Array(text.utf8).withUnsafeBytes { NumberParser.double($0) }
    }
    // Values Python's float() gives for the same texts.
    #expect(parse("0.1") == 0.1)
    #expect(parse("-0")?.sign == .minus)
    #expect(parse("1e400") == nil)
    #expect(parse("-1e400") == nil)
    #expect(parse("1e-400") == 0)
    #expect(parse("4.9e-324")?.bitPattern == 1)
    #expect(parse("2.4703282292062328e-324")?.bitPattern == 1)
    #expect(parse("2.4703282292062327e-324")?.bitPattern == 0)
    #expect(parse("9007199254740993") == 9_007_199_254_740_992)
    #expect(parse("1.7976931348623157e308") == .greatestFiniteMagnitude)
    #expect(parse("1.7976931348623159e308") == nil)
    #expect(parse("123456789012345678901234567890") == 1.2345678901234568e29)
    #expect(parse("0.000001234") == 1.234e-06)
    #expect(parse("1.") == nil)
    #expect(parse(".5") == nil)
    #expect(parse("1e") == nil)
    #expect(parse("1.5x") == nil)
    #expect(parse("abc") == nil)
  }
}
