import Foundation

/// Escaping of text mapc writes into XML it generates (model `contents`, mapping XML).
///
/// XML 1.0 holds tab, line feed, carriage return and every character from U+0020 on except
/// U+FFFE and U+FFFF; DEL, the C1 controls and U+2028/U+2029 are allowed but invisible, so they
/// are written as character references (`&#x1B;` is not allowed even as a reference). What XML
/// 1.0 cannot hold at all (NUL, ESC and the other C0 controls, U+FFFE, U+FFFF) is left as it is
/// here: a writer refuses such a document (`unwritable(in:)`) instead of writing a file no XML
/// reader, mapc's included, would read.
///
/// The one XML escaper: models, mappings, Xcode mapping models and JUnit reports all use it.
/// A report (JUnit) cannot refuse to be written because a value it quotes holds such a
/// character, so it asks for them to be shown as `\u{…}` instead (`Unholdable.shown`).
package enum XMLEscaping {
  /// What becomes of a character XML 1.0 cannot hold.
  package enum Unholdable {
    /// Kept, for the writer to refuse the document (`unwritable(in:)`).
    case kept
    /// Written as the text `\u{1b}`: a report quoting user data.
    case shown
  }

  /// Text for an attribute value: `&`, `<`, `>`, `"` and the white space XML would normalise
  /// escaped.
  package static func attribute(_ s: String, unholdable: Unholdable = .kept) -> String {
    escaped(s, inAttribute: true, unholdable: unholdable)
  }

  /// Text for element content: `&`, `<` and `>` escaped, and CR kept as a reference.
  package static func content(_ s: String, unholdable: Unholdable = .kept) -> String {
    escaped(s, inAttribute: false, unholdable: unholdable)
  }

  package static func escaped(_ s: String, inAttribute: Bool, unholdable: Unholdable = .kept) -> String {
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
        } else if unholdable == .shown && isUnwritable(ch) {
          out += "\\u{" + String(ch.value, radix: 16) + "}"
        } else {
          out.unicodeScalars.append(ch)
        }
      }
    }
    return out
  }

  /// Whether XML 1.0 cannot hold `s`, not even as a character reference.
  package static func isUnwritable(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s != "\t" && s != "\n" && s != "\r") || s.value == 0xFFFE || s.value == 0xFFFF
  }

  /// The first character of `document` (XML this module wrote) that XML 1.0 cannot hold, with
  /// the line it is on; nil when there is none.
  package static func unwritable(in document: String) -> (character: Unicode.Scalar, line: Int, text: String)? {
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
