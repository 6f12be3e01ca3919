import MapRuntime

/// A JSON value with ordered object keys, written deterministically: two-space indentation,
/// `": "` after keys, only `"`, `\` and control characters escaped (`rendered()`), or on one
/// line (`line()`), or as Foundation's pretty printer lays it out (`foundationPretty()`). Used
/// by the lint reporters, the baseline file, lock files, reports and plans.
public indirect enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  /// Written as Python's `repr` writes it (`PythonFloatFormatter`); a NaN or infinity, which
  /// JSON has no number for, as `null`.
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (a: JSONValue, b: JSONValue) -> Bool { a.rendered() == b.rendered() }
  public func hash(into hasher: inout Hasher) { hasher.combine(rendered()) }

  /// The text, ending with a newline.
  public func rendered() -> String {
    var out = ""
    write(into: &out, indent: 0)
    out += "\n"
    return out
  }

  /// The text on one line, no spaces, no newline at the end: a line of a JSON Lines file.
  public func line() -> String {
    switch self {
    case .null, .bool, .int, .double, .string:
      var out = ""
      write(into: &out, indent: 0)
      return out
    case .array(let items): return "[" + items.map { $0.line() }.joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.line() }.joined(separator: ",") + "}"
    }
  }

  /// The text as Foundation's JSON encoder pretty-prints it (the layout of `mapc migrate
  /// --plan --format json` and of `--report` files since they were first written): `"key" : value`,
  /// two-space indentation, an empty container as an opening line, an empty line and the closing
  /// bracket at the container's indentation; no newline at the end. Strings are escaped as in
  /// `rendered()` (Foundation's escaping with `.withoutEscapingSlashes`).
  public func foundationPretty() -> String {
    var out = ""
    writeFoundationPretty(into: &out, indent: 0)
    return out
  }

  private func writeFoundationPretty(into out: inout String, indent: Int) {
    let (open, close, count): (String, String, Int) =
      switch self {
      case .array(let items): ("[", "]", items.count)
      case .object(let members): ("{", "}", members.count)
      default: ("", "", -1)
      }
    if count < 0 {
      write(into: &out, indent: indent)
      return
    }
    let inner = String(repeating: " ", count: indent + 2)
    out += open + "\n"
    if count == 0 { out += "\n" }
    switch self {
    case .array(let items):
      for (i, item) in items.enumerated() {
        out += inner
        item.writeFoundationPretty(into: &out, indent: indent + 2)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
    case .object(let members):
      for (i, (key, value)) in members.enumerated() {
        out += inner + Self.quoted(key) + " : "
        value.writeFoundationPretty(into: &out, indent: indent + 2)
        out += i + 1 < members.count ? ",\n" : "\n"
      }
    default: break
    }
    out += String(repeating: " ", count: indent) + close
  }

  /// The UTF-8 text Foundation's JSON encoder writes by default (what SwiftData keeps in a
  /// composite attribute's array): no whitespace, `/` escaped as `\/`, other characters as
  /// `rendered()` escapes them; a whole double below 10^15 as an integer, another as Swift
  /// prints it (`1.5`, `1e+16`).
  public func foundationCompact() -> [UInt8] {
    var out: [UInt8] = []
    writeFoundationCompact(into: &out)
    return out
  }

  private func writeFoundationCompact(into out: inout [UInt8]) {
    switch self {
    case .null: out += Array("null".utf8)
    case .bool(let b): out += Array((b ? "true" : "false").utf8)
    case .int(let i): out += Array(String(i).utf8)
    case .double(let d):
      if d == d.rounded(), abs(d) < 1e15 {
        out += Array(String(Int64(d)).utf8)
      } else {
        out += Array("\(d)".utf8)
      }
    case .string(let s):
      for byte in Self.quoted(s).utf8 {
        if byte == 0x2F { out.append(ASCII.backslash) }  // `/`
        out.append(byte)
      }
    case .array(let items):
      out.append(ASCII.openBracket)
      for (k, item) in items.enumerated() {
        if k > 0 { out.append(ASCII.comma) }
        item.writeFoundationCompact(into: &out)
      }
      out.append(ASCII.closeBracket)
    case .object(let members):
      out.append(ASCII.openBrace)
      for (k, (key, value)) in members.enumerated() {
        if k > 0 { out.append(ASCII.comma) }
        JSONValue.string(key).writeFoundationCompact(into: &out)
        out.append(ASCII.colon)
        value.writeFoundationCompact(into: &out)
      }
      out.append(ASCII.closeBrace)
    }
  }

  private func write(into out: inout String, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d): out += PythonFloatFormatter.string(d) ?? "null"
    case .string(let s): out += Self.quoted(s)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += String(repeating: " ", count: indent + 2)
        item.write(into: &out, indent: indent + 2)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += String(repeating: " ", count: indent) + "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{\n"
      for (i, (key, value)) in members.enumerated() {
        out += String(repeating: " ", count: indent + 2)
        out += Self.quoted(key)
        out += ": "
        value.write(into: &out, indent: indent + 2)
        out += i + 1 < members.count ? ",\n" : "\n"
      }
      out += String(repeating: " ", count: indent) + "}"
    }
  }

  /// `s` as a JSON string literal, escaped as the store writer escapes (only `"`, `\` and
  /// U+0000–U+001F; everything else raw).
  public static func quoted(_ s: String) -> String {
    var writer = JSONOutput(style: .compact, initialCapacity: s.utf8.count + 2)
    writer.writeString(s)
    return writer.string
  }
}
