/// The text of a UUID attribute value, as Core Data and the stores spell it.
package enum UUIDText {
  /// 8-4-4-4-12 hexadecimal digits.
  package static func isValid(_ s: String) -> Bool {
    let u = Array(s.utf8)
    guard u.count == 36 else { return false }
    for (i, c) in u.enumerated() {
      if i == 8 || i == 13 || i == 18 || i == 23 {
        if c != UInt8(ascii: "-") { return false }
      } else if !((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)) {
        return false
      }
    }
    return true
  }
}
