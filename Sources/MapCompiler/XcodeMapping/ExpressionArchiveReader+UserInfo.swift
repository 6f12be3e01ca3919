import MapArchives
import MapRuntime

/// User-info dictionaries (`userinfodata`): keys are strings; values that are not strings are
/// written as Foundation's `description` prints them.
extension ExpressionArchiveDecoder {
  mutating func userInfo(at index: Int) throws(ExpressionArchiveError) -> UserInfo {
    let o = try instance(index)
    guard o.classes.contains("NSDictionary") else { throw failure(o, "user info is not a dictionary") }
    try enter(index, depth: 0)
    let entries =
      try within(o) { () throws(KeyedArchiveError) in
        try archive.dictionary(.uid(UInt64(index)), "the user info")
      } ?? []
    var result: [UserInfo.Entry] = []
    for entry in entries {
      let value = try describe(entry.value, in: o, depth: 1, indent: "", quoted: false)
      result.append(UserInfo.Entry(key: entry.key, value: value))
    }
    return UserInfo(result)
  }

  /// Foundation's `description` of a value: a string as is (quoted inside collections when it
  /// holds anything but letters, digits and `_`), an integer in decimal, a double as
  /// `NSNumber` prints it (`2`, `0.5`), a boolean as `1` / `0`, a date as
  /// `2001-01-01 00:00:00 +0000`, data as `{length = 2, bytes = 0x0102}`, an array as
  /// `(\n    a,\n    b\n)` and a dictionary as `{\n    key = value;\n}`.
  mutating func describe(
    _ value: PropertyListValue, in o: ArchivedObject, depth: Int, indent: String, quoted: Bool
  ) throws(ExpressionArchiveError) -> String {
    // Each value is printed on its own line: its indent, a separator and its text.
    try spend(bytes: indent.utf8.count + 4 + { if case .string(let t) = value { t.utf8.count } else { 8 } }())
    switch value {
    case .string(let text): return quoted ? Self.quotedIfNeeded(text) : text
    case .integer(let number): return String(number)
    case .real(let number): return Self.numberDescription(number)
    case .bool(let flag): return flag ? "1" : "0"
    case .date(let seconds): return Self.dateDescription(seconds)
    case .data(let bytes): return Self.dataDescription(bytes)
    case .null: return "<null>"
    case .array, .dictionary: throw failure(o, "a user-info value is not an archived object")
    case .uid:
      if archive.isNull(value) { return "<null>" }
      let index = try within(o) { () throws(KeyedArchiveError) in try archive.reference(value, "a user-info value") }
      if case .dictionary = archive.objects[index] {
        return try describeObject(at: index, depth: depth, indent: indent, quoted: quoted)
      }
      if case .uid = archive.objects[index] { throw failure(o, "a user-info value refers to a reference") }
      return try describe(archive.objects[index], in: o, depth: depth, indent: indent, quoted: quoted)
    }
  }

  private mutating func describeObject(at index: Int, depth: Int, indent: String, quoted: Bool)
    throws(ExpressionArchiveError) -> String
  {
    try enter(index, depth: depth)
    defer { inProgress.remove(index) }
    let o = try instance(index)
    let inner = indent + "    "
    if o.classes.contains("NSString") {
      let text = try requiredString(o, "NS.string")
      try spend(bytes: text.utf8.count)
      return quoted ? Self.quotedIfNeeded(text) : text
    }
    if o.classes.contains("NSDictionary") {
      let entries =
        try within(o) { () throws(KeyedArchiveError) in try archive.dictionary(.uid(UInt64(index)), "the dictionary") }
        ?? []
      var text = "{\n"
      for entry in entries {
        let value = try describe(entry.value, in: o, depth: depth + 1, indent: inner, quoted: true)
        text += inner + Self.quotedIfNeeded(entry.key) + " = " + value + ";\n"
      }
      return text + indent + "}"
    }
    if o.classes.contains(where: { ["NSArray", "NSSet", "NSOrderedSet"].contains($0) }) {
      let items =
        try within(o) { () throws(KeyedArchiveError) in try archive.array(.uid(UInt64(index)), "the collection") } ?? []
      var parts: [String] = []
      for item in items {
        parts.append(inner + (try describe(item, in: o, depth: depth + 1, indent: inner, quoted: true)))
      }
      let (open, close) = o.classes.contains("NSSet") ? ("{(", ")}") : ("(", ")")
      return open + "\n" + parts.joined(separator: ",\n") + (parts.isEmpty ? "" : "\n") + indent + close
    }
    switch o.className {
    case "NSDate":
      guard case .real(let seconds)? = o["NS.time"] else { throw failure(o, "NS.time is not a number") }
      return Self.dateDescription(seconds)
    case "NSData", "NSMutableData":
      guard case .data(let bytes)? = o["NS.bytes"] else { throw failure(o, "NS.bytes is not data") }
      try spend(bytes: 2 * bytes.count)
      return Self.dataDescription(bytes)
    case "NSNull":
      return "<null>"
    default:
      throw failure(o, "is not a user-info value mapc can read")
    }
  }

  static func quotedIfNeeded(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.unicodeScalars.allSatisfy { s in
        (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_"
      }
    if plain { return text }
    var out = "\""
    for s in text.unicodeScalars {
      switch s {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(s)
      }
    }
    return out + "\""
  }

  /// A double as `NSNumber` prints it: whole numbers without a fraction, others in their
  /// shortest round-trip form.
  static func numberDescription(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return value.description
  }

  /// `yyyy-MM-dd HH:mm:ss +0000` of seconds since 2001-01-01 00:00:00 UTC.
  static func dateDescription(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e14 else { return String(seconds) }
    let total = Int64(seconds.rounded(.down))
    var days = total / 86_400
    var rest = total % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    // 2001-01-01 is day 11 323 after 1970-01-01.
    let (year, month, day) = CivilDate.civil(days: Int(days) + 11_323)
    func two<N: BinaryInteger>(_ n: N) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day)) \(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)) +0000"
  }

  /// `{length = n, bytes = 0x…}`: every byte up to 24, else the first and last eight.
  static func dataDescription(_ bytes: [UInt8]) -> String {
    func hex(_ slice: ArraySlice<UInt8>) -> String {
      slice.map { b in (b < 16 ? "0" : "") + String(b, radix: 16) }.joined()
    }
    let shown = bytes.count <= 24 ? hex(bytes[...]) : hex(bytes.prefix(8)) + " ... " + hex(bytes.suffix(8))
    return "{length = \(bytes.count), bytes = 0x\(shown)}"
  }
}
