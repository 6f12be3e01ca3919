import MapRuntime

/// Parses the textual values an Xcode model writes (defaults, validation bounds) for an
/// attribute's type. Returns nil when the text is not a valid value of that type.
package enum ModelValueParser {
  /// A default value (`defaultValueString`) for `type`.
  static func defaultValue(_ text: String, for type: AttributeType) -> ModelConstant? {
    switch type {
    case .integer16, .integer32, .integer64:
      return integer(text, in: type.integerRange!).map(ModelConstant.integer)
    case .double, .float:
      return double(text).map(ModelConstant.double)
    case .decimal:
      return isDecimal(text) ? .decimal(text.trimmingXMLSpace) : nil
    case .boolean:
      return boolean(text).map(ModelConstant.boolean)
    case .string:
      return .string(text)
    case .date:
      return date(text).map(ModelConstant.date)
    case .uuid:
      return isUUID(text) ? .string(text.trimmingXMLSpace) : nil
    case .uri:
      return text.trimmingXMLSpace.isEmpty ? nil : .string(text.trimmingXMLSpace)
    case .binary, .transformable, .undefined, .objectID, .composite:
      return nil
    }
  }

  /// A validation bound (`minValueString`/`maxValueString`) for `type`: numbers for numeric
  /// types, lengths for String and Binary, dates for Date. Nil when invalid or when the type
  /// has no bounds.
  package static func bound(_ text: String, for type: AttributeType) -> ModelConstant? {
    switch type {
    case .integer16, .integer32, .integer64, .double, .float, .decimal, .date:
      // A number or date bound is written as a default value of the type is.
      return defaultValue(text, for: type)
    case .string, .binary:
      return integer(text, in: 0...Int64.max).map(ModelConstant.integer)
    default:
      return nil
    }
  }

  /// Whether `type` accepts `minValueString`/`maxValueString`.
  static func hasBounds(_ type: AttributeType) -> Bool {
    type.isNumeric || type == .string || type == .binary || type == .date
  }

  /// Compares two bounds of the same type; nil when they cannot be compared.
  package static func isOrdered(_ low: ModelConstant, _ high: ModelConstant) -> Bool? {
    switch (low, high) {
    case (.integer(let a), .integer(let b)): return a <= b
    case (.double(let a), .double(let b)): return a <= b
    case (.date(let a), .date(let b)): return a <= b
    case (.decimal(let a), .decimal(let b)):
      guard let x = Double(a), let y = Double(b) else { return nil }
      return x <= y
    default: return nil
    }
  }

  static func integer(_ text: String, in range: ClosedRange<Int64>) -> Int64? {
    let t = text.trimmingXMLSpace
    if let v = Int64(t) { return range.contains(v) ? v : nil }
    // Older models sometimes write integral defaults as "0.0".
    if let d = Double(t), d.isFinite, d == d.rounded(), let v = Int64(exactly: d) {
      return range.contains(v) ? v : nil
    }
    return nil
  }

  package static func double(_ text: String) -> Double? {
    let t = text.trimmingXMLSpace
    guard let d = Double(t), d.isFinite, t.first != "+" || t.count > 1 else { return nil }
    // Swift also reads hex floats and "infinity"; models write plain decimals only.
    let allowed = Set("0123456789+-.eE")
    return t.allSatisfy(allowed.contains) ? d : nil
  }

  /// `[+-]digits[.digits][(e|E)[+-]digits]`, as NSDecimalNumber reads it.
  static func isDecimal(_ text: String) -> Bool {
    var s = Substring(text.trimmingXMLSpace)
    if s.first == "+" || s.first == "-" { s = s.dropFirst() }
    let mantissa = s.prefix { $0 != "e" && $0 != "E" }
    let exponent = s.dropFirst(mantissa.count)
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, parts.contains(where: { !$0.isEmpty }),
      parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
    else { return false }
    if exponent.isEmpty { return true }
    var e = exponent.dropFirst()
    if e.first == "+" || e.first == "-" { e = e.dropFirst() }
    return !e.isEmpty && e.allSatisfy(\.isASCIIDigit)
  }

  package static func boolean(_ text: String) -> Bool? {
    // What Xcode writes, without trimming and lowercasing.
    if text == "YES" { return true }
    if text == "NO" { return false }
    return switch text.trimmingXMLSpace.lowercased() {
    case "yes", "true", "1": true
    case "no", "false", "0": false
    default: nil
    }
  }

  static func isUUID(_ text: String) -> Bool {
    let groups = text.trimmingXMLSpace.split(separator: "-", omittingEmptySubsequences: false)
    return groups.map(\.count) == [8, 4, 4, 4, 12]
      && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
  }

  /// Seconds since 2001-01-01T00:00:00Z for `yyyy-MM-dd[ HH:mm[:ss]][ ±HHmm]` (the form Xcode
  /// writes, e.g. `2013-04-23 12:00:00 +0000`); no zone means UTC. A plain number is taken
  /// as seconds since the reference date.
  static func date(_ text: String) -> Double? {
    let t = text.trimmingXMLSpace
    if let seconds = double(t) { return seconds }
    let fields = t.split(separator: " ", omittingEmptySubsequences: true)
    guard (1...3).contains(fields.count) else { return nil }
    let ymd = fields[0].split(separator: "-", omittingEmptySubsequences: false)
    guard ymd.count == 3, let y = Int(ymd[0]), let m = Int(ymd[1]), let d = Int(ymd[2]),
      (1...12).contains(m), (1...31).contains(d), ymd[0].count == 4
    else { return nil }
    var seconds = 0
    var zoneOffset = 0
    var rest = fields.dropFirst()
    if let time = rest.first, time.contains(":") {
      let hms = time.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
      guard (2...3).contains(hms.count), hms.allSatisfy({ $0 != nil }) else { return nil }
      let h = hms[0]!
      let mi = hms[1]!
      let s = hms.count == 3 ? hms[2]! : 0
      guard (0...23).contains(h), (0...59).contains(mi), (0...60).contains(s) else { return nil }
      seconds = h * 3600 + mi * 60 + s
      rest = rest.dropFirst()
    }
    if let zone = rest.first {
      guard rest.count == 1, zone.count == 5, zone.first == "+" || zone.first == "-",
        let hh = Int(zone.dropFirst().prefix(2)), let mm = Int(zone.suffix(2))
      else { return nil }
      zoneOffset = (hh * 3600 + mm * 60) * (zone.first == "-" ? -1 : 1)
    }
    let days = CivilDate.days(year: y, month: m, day: d)
    let unix = days * 86_400 + seconds - zoneOffset
    return Double(unix) - CivilDate.referenceOffset
  }
}

extension String {
  /// Without leading and trailing XML whitespace (space, tab, CR, LF).
  var trimmingXMLSpace: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return String(self[first...last])
  }
}

extension Character {
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
