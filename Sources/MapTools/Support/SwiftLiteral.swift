import MapRuntime

/// The one escaping of text that goes into generated Swift source: a string literal (`"…"`)
/// whose value is the text exactly, and a `//` comment that cannot end early.
public enum SwiftLiteral {
  /// `text` as a Swift string literal: `\`, `"` and every control character (C0, DEL, C1, the
  /// line and paragraph separators) escaped, so that no input can end the literal or the line.
  public static func string(_ text: String) -> String {
    var out = "\""
    for s in text.unicodeScalars {
      switch s {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if s.value < 0x20 || (0x7F..<0xA0).contains(s.value) || s.value == 0x2028 || s.value == 0x2029 {
          out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(s)
        }
      }
    }
    return out + "\""
  }

  /// Text for a `//` comment: control characters as visible escapes (`TerminalText`), so a line
  /// break in a name cannot turn the rest of it into code.
  public static func comment(_ text: String) -> String { TerminalText.escaped(text) }
}
