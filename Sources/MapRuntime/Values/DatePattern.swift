/// Unicode date patterns (`yyyy-MM-dd HH:mm:ss`), as `NSDateFormatter` reads and writes them,
/// implemented directly so that millions of dates convert quickly and identically everywhere.
///
/// Supported fields: `y yy yyyy` (year), `M MM` (month), `MMM MMMM` (English month names),
/// `d dd` (day), `H HH`, `h hh` with `a` (AM/PM), `m mm`, `s ss`, `S…` (fraction),
/// `Z ZZZZZ X XX XXX x xx xxx` (zone offsets; `Z`/`X` also accept `Z`), `EEE EEEE` (weekday
/// names, written; skipped when read); quoted literals `'T'` and `''`; other characters literal.
package struct DatePattern: Sendable, Hashable {
  enum Field: Sendable, Hashable {
    case literal(String)
    case year(Int), month(Int), day(Int), hour24(Int), hour12(Int), minute(Int), second(Int)
    case fraction(Int), ampm, zone(Character, Int), weekday(Int)
  }

  let fields: [Field]
  package let pattern: String

  /// Parses a pattern; nil with a message for unsupported letters.
  package static func compile(_ pattern: String) -> Result<DatePattern, PatternError> {
    var fields: [Field] = []
    let chars = Array(pattern)
    var i = 0
    var literal = ""
    func flush() {
      if !literal.isEmpty {
        fields.append(.literal(literal))
        literal = ""
      }
    }
    while i < chars.count {
      let c = chars[i]
      if c == "'" {
        if i + 1 < chars.count && chars[i + 1] == "'" {
          literal.append("'")
          i += 2
          continue
        }
        var j = i + 1
        while j < chars.count {
          if chars[j] == "'" {
            // '' inside quotes is a quote too: 'o''clock' reads o'clock.
            guard j + 1 < chars.count && chars[j + 1] == "'" else { break }
            literal.append("'")
            j += 2
            continue
          }
          literal.append(chars[j])
          j += 1
        }
        if j >= chars.count {
          return .failure(PatternError(message: "unterminated quote in date pattern \"\(pattern)\""))
        }
        i = j + 1
        continue
      }
      guard c.isLetter && c.isASCII else {
        literal.append(c)
        i += 1
        continue
      }
      var n = 1
      while i + n < chars.count && chars[i + n] == c { n += 1 }
      flush()
      switch c {
      case "y", "u": fields.append(.year(n))
      case "M", "L": fields.append(.month(n))
      case "d": fields.append(.day(n))
      case "H": fields.append(.hour24(n))
      case "h": fields.append(.hour12(n))
      case "m": fields.append(.minute(n))
      case "s": fields.append(.second(n))
      case "S": fields.append(.fraction(n))
      case "a": fields.append(.ampm)
      case "Z", "X", "x": fields.append(.zone(c, n))
      case "E": fields.append(.weekday(n))
      default:
        return .failure(PatternError(message: "date pattern letter '\(c)' is not supported (pattern \"\(pattern)\")"))
      }
      i += n
    }
    flush()
    return .success(DatePattern(fields: fields, pattern: pattern))
  }

  package struct PatternError: Error, Sendable, Hashable {
    package var message: String
  }

  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
  static let weekdayNames = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]

  /// Reads a date; nil when the text does not match or names an invalid date (strict, as a
  /// non-lenient formatter). `zoneOffset` (seconds east of UTC) applies when the text has none.
  package func parse<S: Collection>(_ text: S, zoneOffset: Int = 0) -> Double? where S.Element == UInt8 {
    Array(text).withUnsafeBytes { parse(bytes: $0, zoneOffset: zoneOffset) }
  }

  /// `parse(_:zoneOffset:)` over bytes in place (no copy).
  package func parse(bytes u: UnsafeRawBufferPointer, zoneOffset: Int = 0) -> Double? {
    var i = 0
    var year = 2000, month = 1, day = 1, hour = 0, minute = 0, second = 0, nanos = 0
    var pm: Bool?
    var hour12: Int?
    var offset = zoneOffset
    func digits(_ minCount: Int, _ maxCount: Int) -> Int? {
      var v = 0
      var n = 0
      while n < maxCount && i < u.count && u[i] >= 48 && u[i] <= 57 {
        v = v * 10 + Int(u[i] - 48)
        i += 1
        n += 1
      }
      return n >= minCount ? v : nil
    }
    for f in fields {
      switch f {
      case .literal(let s):
        for b in s.utf8 {
          guard i < u.count && u[i] == b else { return nil }
          i += 1
        }
      case .year(let n):
        if n == 2 {
          guard let v = digits(2, 2) else { return nil }
          year = v < 50 ? 2000 + v : 1900 + v  // two-digit years pivot like NSDateFormatter's default
        } else {
          var negative = false
          if i < u.count && u[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
          }
          guard let v = digits(n == 1 ? 1 : n, 9) else { return nil }
          year = negative ? -v : v
        }
      case .month(let n):
        if n >= 3 {
          var found = false
          for (k, name) in Self.monthNames.enumerated() {
            let candidate = n == 3 ? String(name.prefix(3)) : name
            let bytes = Array(candidate.utf8)
            if i + bytes.count <= u.count,
              zip(u[i..<(i + bytes.count)], bytes).allSatisfy({ ($0 | 0x20) == ($1 | 0x20) })
            {
              month = k + 1
              i += bytes.count
              found = true
              break
            }
          }
          guard found else { return nil }
        } else {
          guard let v = digits(n, 2) else { return nil }
          month = v
        }
      case .day(let n): guard let v = digits(n, 2) else { return nil }; day = v
      case .hour24(let n): guard let v = digits(n, 2) else { return nil }; hour = v
      case .hour12(let n): guard let v = digits(n, 2) else { return nil }; hour12 = v
      case .minute(let n): guard let v = digits(n, 2) else { return nil }; minute = v
      case .second(let n): guard let v = digits(n, 2) else { return nil }; second = v
      case .fraction(let n):
        // Exactly n digits; digits past the ninth (nanoseconds) are read and dropped.
        var scaled = 0
        for k in 0..<n {
          guard i < u.count, u[i] >= 48, u[i] <= 57 else { return nil }
          if k < 9 { scaled = scaled * 10 + Int(u[i] - 48) }
          i += 1
        }
        for _ in 0..<max(0, 9 - n) { scaled *= 10 }
        nanos = scaled
      case .ampm:
        guard i + 2 <= u.count else { return nil }
        let a = u[i] | 0x20
        guard u[i + 1] | 0x20 == UInt8(ascii: "m"), a == UInt8(ascii: "a") || a == UInt8(ascii: "p") else { return nil }
        pm = a == UInt8(ascii: "p")
        i += 2
      case .zone:
        guard i < u.count else { return nil }
        if u[i] == UInt8(ascii: "Z") {
          offset = 0
          i += 1
        } else {
          guard u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") else { return nil }
          let sign = u[i] == UInt8(ascii: "-") ? -1 : 1
          i += 1
          guard let hh = digits(2, 2) else { return nil }
          if i < u.count && u[i] == UInt8(ascii: ":") { i += 1 }
          let mm = digits(2, 2) ?? 0
          offset = sign * (hh * 3600 + mm * 60)
        }
      case .weekday:
        while i < u.count && ((u[i] | 0x20) >= 97 && (u[i] | 0x20) <= 122) { i += 1 }
      }
    }
    guard i == u.count else { return nil }
    if let h = hour12 {
      guard (1...12).contains(h) else { return nil }
      hour = h % 12 + ((pm ?? false) ? 12 : 0)
    }
    guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year, month),
      (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
    else { return nil }
    let f = CivilDate.Fields(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanos)
    return CivilDate.interval(f) - Double(offset)
  }

  /// Writes a date in this pattern, in the zone `zoneOffset` seconds east of UTC. A date that
  /// is not finite or lies beyond `CivilDate.supportedSeconds` is `run-date-out-of-range`.
  package func format(_ t: Double, zoneOffset: Int = 0) throws(MigrationError) -> String {
    guard CivilDate.canBreakDown(t + Double(zoneOffset)) else {
      throw MigrationError(
        "run-date-out-of-range",
        "cannot write the date \(t) (seconds after 2001-01-01) as a calendar date: it is not finite or lies more than 3 million years away (the supported range is ±1e14 seconds)"
      )
    }
    let f = CivilDate.fields(t + Double(zoneOffset))
    var out = ""
    func pad(_ v: Int, _ n: Int) {
      let s = String(v)
      if s.count < n { out += String(repeating: "0", count: n - s.count) }
      out += s
    }
    for field in fields {
      switch field {
      case .literal(let s): out += s
      case .year(let n): n == 2 ? pad(((f.year % 100) + 100) % 100, 2) : pad(f.year, n)
      case .month(let n):
        if n >= 4 {
          out += Self.monthNames[f.month - 1]
        } else if n == 3 {
          out += Self.monthNames[f.month - 1].prefix(3)
        } else {
          pad(f.month, n)
        }
      case .day(let n): pad(f.day, n)
      case .hour24(let n): pad(f.hour, n)
      case .hour12(let n): pad(f.hour % 12 == 0 ? 12 : f.hour % 12, n)
      case .minute(let n): pad(f.minute, n)
      case .second(let n): pad(f.second, n)
      case .fraction(let n):
        var digits = String(f.nanosecond)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        out += n <= 9 ? String(digits.prefix(n)) : digits + String(repeating: "0", count: n - 9)
      case .ampm: out += f.hour < 12 ? "AM" : "PM"
      case .zone(let c, let n):
        // As ICU: Z–ZZZ "-0800", ZZZZZ "-08:00" or "Z"; X "-08" (minutes when not zero),
        // XX "-0800", XXX "-08:00", "Z" at zero offset; x, xx, xxx likewise but never "Z".
        if zoneOffset == 0 && (c == "X" || (c == "Z" && n >= 5)) {
          out += "Z"
        } else {
          let sign = zoneOffset < 0 ? "-" : "+"
          let a = abs(zoneOffset)
          out += sign
          pad(a / 3600, 2)
          let colon = c == "Z" ? n >= 4 : n >= 3
          if colon { out += ":" }
          if c == "Z" || n > 1 || a / 60 % 60 != 0 { pad(a / 60 % 60, 2) }
        }
      case .weekday(let n):
        let days = Int(((t + CivilDate.referenceOffset + Double(zoneOffset)) / 86_400).rounded(.down))
        let name = Self.weekdayNames[((days % 7) + 7) % 7]
        out += n >= 4 ? name : String(name.prefix(3))
      }
    }
    return out
  }
}
