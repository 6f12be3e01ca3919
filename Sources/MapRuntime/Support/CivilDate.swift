/// Proleptic Gregorian calendar arithmetic in UTC, without Foundation: days since 1970-01-01
/// to and from year, month, day (the days-from-civil algorithm).
package enum CivilDate {
  /// Seconds from 1970-01-01T00:00:00Z to 2001-01-01T00:00:00Z.
  package static let referenceOffset: Double = 978_307_200

  package static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  package static func civil(days z0: Int) -> (year: Int, month: Int, day: Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  package static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

  package static func daysInMonth(_ y: Int, _ m: Int) -> Int {
    switch m {
    case 2: isLeap(y) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Broken-down UTC time of a reference-date interval.
  package struct Fields: Sendable, Equatable {
    package var year, month, day, hour, minute, second: Int
    /// Nanoseconds within the second.
    package var nanosecond: Int
  }

  /// Reference-date intervals that `fields` can break down: finite and within about
  /// ±3 million years of 2001 (far past any calendar date a store holds; `Int` arithmetic on
  /// the seconds cannot overflow there).
  package static let supportedSeconds: ClosedRange<Double> = -1e14...1e14

  /// Whether `fields(t)` is defined: `t` is finite and in `supportedSeconds`.
  package static func canBreakDown(_ t: Double) -> Bool { supportedSeconds.contains(t) }

  /// Broken-down fields of `t`, which must satisfy `canBreakDown` (callers check and report).
  package static func fields(_ t: Double) -> Fields {
    precondition(canBreakDown(t), "CivilDate.fields of a date out of range")
    let unix = t + referenceOffset
    let whole = unix.rounded(.down)
    var nanos = Int(((unix - whole) * 1e9).rounded())
    var secs = Int(whole)
    if nanos >= 1_000_000_000 {
      nanos -= 1_000_000_000
      secs += 1
    }
    let days = secs >= 0 ? secs / 86_400 : (secs - 86_399) / 86_400
    let rem = secs - days * 86_400
    let (y, m, d) = civil(days: days)
    return Fields(
      year: y, month: m, day: d, hour: rem / 3600, minute: rem / 60 % 60, second: rem % 60, nanosecond: nanos)
  }

  package static func interval(_ f: Fields) -> Double {
    let days = self.days(year: f.year, month: f.month, day: f.day)
    let secs = days * 86_400 + f.hour * 3600 + f.minute * 60 + f.second
    return Double(secs) - referenceOffset + Double(f.nanosecond) / 1e9
  }
}
