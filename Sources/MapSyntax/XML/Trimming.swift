extension StringProtocol {
  /// The text without leading and trailing XML whitespace (space, tab, CR, LF).
  package var trimmedXMLSpace: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }

  /// True when the text is empty or only XML whitespace: when `trimmedXMLSpace` is empty,
  /// without building it.
  package var isXMLSpaceOnly: Bool {
    utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }
}
