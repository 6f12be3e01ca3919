import Foundation

/// A JSON value with ordered object keys, written deterministically: two-space indentation,
/// `": "` after keys, only `"`, `\` and control characters escaped. Used by the lint
/// reporters and the baseline file.
public indirect enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
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

  private func write(into out: inout String, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .string(let s): Self.quote(s, into: &out)
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
        Self.quote(key, into: &out)
        out += ": "
        value.write(into: &out, indent: indent + 2)
        out += i + 1 < members.count ? ",\n" : "\n"
      }
      out += String(repeating: " ", count: indent) + "}"
    }
  }

  static func quote(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\u{08}": out += "\\b"
      case "\t": out += "\\t"
      case "\n": out += "\\n"
      case "\u{0C}": out += "\\f"
      case "\r": out += "\\r"
      case "\u{00}"..."\u{1F}": out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
