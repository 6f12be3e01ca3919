/// Text as XML writes it: what the mapping text writer and the model XML writer escape.
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
      default: out.unicodeScalars.append(ch)
      }
    }
    return out
  }
}
