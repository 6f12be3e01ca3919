import Foundation
import MapJSON
import MapRuntime

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

  /// The text on one line, no spaces, no newline at the end: a line of a JSON Lines file.
  public func line() -> String {
    switch self {
    case .null, .bool, .int, .string:
      var out = ""
      write(into: &out, indent: 0)
      return out
    case .array(let items): return "[" + items.map { $0.line() }.joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { Self.quoted($0.0) + ":" + $0.1.line() }.joined(separator: ",") + "}"
    }
  }

  private func write(into out: inout String, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
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
