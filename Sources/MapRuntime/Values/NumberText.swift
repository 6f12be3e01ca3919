/// Number ⇄ text conversions used by expressions (not by the JSON store, which has its own
/// exact rules).
package enum NumberText {
  /// Shortest text that reads back to `d`, as NSNumber's `description`: `17`, `0.1`, `1e+100`.
  package static func shortest(_ d: Double) -> String {
    if d.isFinite, d == d.rounded(), Swift.abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

  /// Plain decimal text without exponent: `17`, `0.1`, `12345678901234567890`, `0.000001`.
  package static func decimalText(_ d: Double) -> String {
    guard d.isFinite else { return d.isNaN ? "NaN" : (d < 0 ? "-Infinity" : "Infinity") }
    if d == d.rounded(), Swift.abs(d) < 9e18 { return String(Int64(d)) }
    let s = "\(d)"
    guard let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return s }
    let mantissa = s[..<e]
    guard let exp = Int(s[s.index(after: e)...]) else { return s }
    let negative = mantissa.hasPrefix("-")
    let digitsPart = negative ? mantissa.dropFirst() : mantissa[...]
    let pointIndex = digitsPart.firstIndex(of: ".")
    let intDigits = pointIndex.map { String(digitsPart[..<$0]) } ?? String(digitsPart)
    let fracDigits = pointIndex.map { String(digitsPart[digitsPart.index(after: $0)...]) } ?? ""
    var all = intDigits + fracDigits
    var point = intDigits.count + exp
    while all.hasSuffix("0") && all.count > point { all.removeLast() }
    var out: String
    if point <= 0 {
      out = "0." + String(repeating: "0", count: -point) + all
    } else if point >= all.count {
      out = all + String(repeating: "0", count: point - all.count)
    } else {
      let idx = all.index(all.startIndex, offsetBy: point)
      out = String(all[..<idx]) + "." + String(all[idx...])
    }
    point = 0
    return (negative ? "-" : "") + out
  }

  /// `numberFromString:`: an integer when the text is one, else a double; nil for non-numbers.
  package static func parseNumber(_ s: String) -> Value? {
    if s.isEmpty { return nil }
    if let i = Int64(s) { return .int(i) }
    let allowed = s.allSatisfy { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
    guard allowed, let d = Double(s), d.isFinite else { return nil }
    return .double(d)
  }

  /// NSString's `integerValue`: leading whitespace, optional sign, digits; 0 when none.
  package static func leadingInteger(_ s: String) -> Int64 {
    let t = s.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
    var digits = ""
    for (i, c) in t.enumerated() {
      if c.isASCII && c.isNumber || (i == 0 && (c == "-" || c == "+")) { digits.append(c) } else { break }
    }
    return Int64(digits) ?? 0
  }

  /// NSString's `doubleValue`: the longest leading number; 0 when none.
  package static func leadingDouble(_ s: String) -> Double {
    let t = String(s.drop { $0 == " " || $0 == "\t" || $0 == "\n" })
    var best = 0.0
    var prefix = ""
    for c in t {
      prefix.append(c)
      if let d = Double(prefix) { best = d } else if !"+-.eE".contains(c) { break }
    }
    return best
  }

  /// NSString's `boolValue`: true for a leading Y, y, T, t or non-zero digit.
  package static func boolValue(_ s: String) -> Bool {
    guard let c = s.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "0" || $0 == "+" || $0 == "-" }).first
    else { return false }
    return "YyTt123456789".contains(c)
  }
}
