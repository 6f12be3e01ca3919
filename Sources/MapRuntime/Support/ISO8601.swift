/// ISO 8601 UTC text for dates (seconds since 2001-01-01T00:00:00Z).
/// TEMPORARY: replaced by the store codec's date writer when it lands.
public enum ISO8601 {
  /// `2018-01-02T00:00:00Z`, with up to 6 fractional digits when non-zero.
  public static func format(_ t: Double) -> String {
    let f = CivilDate.fields(t)
    func pad(_ v: Int, _ n: Int) -> String {
      let s = String(v)
      return s.count >= n ? s : String(repeating: "0", count: n - s.count) + s
    }
    var s = "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2))"
    let micros = (f.nanosecond + 500) / 1000
    if micros > 0 {
      var frac = pad(micros, 6)
      while frac.hasSuffix("0") { frac.removeLast() }
      s += "." + frac
    }
    return s + "Z"
  }
}
