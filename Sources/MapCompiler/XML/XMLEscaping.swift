import Foundation

/// Escaping of text mapc writes into XML it generates (model `contents`, mapping XML).
///
/// XML 1.0 holds tab, line feed, carriage return and every character from U+0020 on except
/// U+FFFE and U+FFFF; DEL, the C1 controls and U+2028/U+2029 are allowed but invisible, so they
/// are written as character references (`&#x1B;` is not allowed even as a reference). What XML
/// 1.0 cannot hold at all (NUL, ESC and the other C0 controls, U+FFFE, U+FFFF) is left as it is
/// here: a writer refuses such a document (`unwritable(in:)`) instead of writing a file no XML
/// reader, mapc's included, would read.
enum XMLEscaping {
  /// Text for an attribute value: `&`, `<`, `>`, `"` and the white space XML would normalise
  /// escaped.
  static func attribute(_ s: String) -> String { escaped(s, inAttribute: true) }

  /// Text for element content: `&`, `<` and `>` escaped, and CR kept as a reference.
  static func content(_ s: String) -> String { escaped(s, inAttribute: false) }

  static func escaped(_ s: String, inAttribute: Bool) -> String {
    var out = ""
    for ch in s.unicodeScalars {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\r": out += "&#13;"
      case "\"" where inAttribute: out += "&quot;"
      case "\n" where inAttribute: out += "&#10;"
      case "\t" where inAttribute: out += "&#9;"
      default:
        if (ch.value >= 0x7F && ch.value < 0xA0) || ch.value == 0x2028 || ch.value == 0x2029 {
          out += "&#x" + String(ch.value, radix: 16, uppercase: true) + ";"
        } else {
          out.unicodeScalars.append(ch)
        }
      }
    }
    return out
  }

  /// Whether XML 1.0 cannot hold `s`, not even as a character reference.
  static func isUnwritable(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\t" && s != "\n" && s != "\r") || s.value == 0xFFFE || s.value == 0xFFFF
  }

  /// The first character of `document` (XML this module wrote) that XML 1.0 cannot hold, with
  /// the line it is on; nil when there is none.
  static func unwritable(in document: String) -> (character: Unicode.Scalar, line: Int, text: String)? {
    var line = 1
    var lineStart = document.unicodeScalars.startIndex
    var i = lineStart
    let scalars = document.unicodeScalars
    while i < scalars.endIndex {
      let s = scalars[i]
      if s == "\n" {
        line += 1
        lineStart = scalars.index(after: i)
      } else if isUnwritable(s) {
        let end = scalars[i...].firstIndex(of: "\n") ?? scalars.endIndex
        let text = String(scalars[lineStart..<end]).trimmingCharacters(in: .whitespaces)
        return (s, line, text)
      }
      i = scalars.index(after: i)
    }
    return nil
  }
}
