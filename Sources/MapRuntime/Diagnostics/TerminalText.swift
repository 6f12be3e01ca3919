/// The one escaping of text that comes from input (names of entities, properties and files,
/// values, messages holding them) before a command prints it as text: a control character
/// (C0 but tab, DEL, C1, and the line and paragraph separators) becomes a visible escape, so
/// a name can never end a line, start a new one (a forged diagnostic, a GitHub `::error` or
/// `::add-mask::` workflow command) or send a terminal escape sequence. `\n` → `\n` (two
/// characters), `\r` → `\r`, any other → `\u{1B}`; a backslash is kept as it is. JSON, SARIF
/// and GitHub outputs have their own escaping. `Specs/diagnostics.md` §1.
public enum TerminalText {
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = String.UnicodeScalarView()
    for s in text.unicodeScalars {
      guard needsEscape(s) else {
        out.append(s)
        continue
      }
      let escape: String
      switch s {
      case "\n": escape = "\\n"
      case "\r": escape = "\\r"
      default: escape = "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
      }
      out.append(contentsOf: escape.unicodeScalars)
    }
    return String(out)
  }

  /// Each line of a text made of lines escaped on its own (the line breaks kept).
  public static func escapedLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
  }

  static func needsEscape(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\t") || (s.value >= 0x7F && s.value < 0xA0) || s.value == 0x2028 || s.value == 0x2029
  }
}
