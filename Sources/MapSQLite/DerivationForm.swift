/// The shape of a derived attribute's expression as Core Data's SQLite store reads it
/// (`Specs/sqlite-store.md` §9, "Derived attributes"): the current time, a key path of one or
/// two steps, or one function of a key path. Core Data's store supports nothing else, so a text
/// of another shape is not read (nil) and gets no trigger.
enum DerivationForm: Equatable {
  /// `now()`.
  case now
  /// `name`, `author.name`.
  case keyPath([String])
  /// `canonical:(name)`, `uppercase:(author.name)`; `items.@count`, `items.price.@sum` and
  /// `count:(items)` are `count`/`sum`/`min`/`max` of the key path before the operator.
  case function(String, [String])

  /// The functions Core Data's store turns into SQL (its `NSSQLDerivedAttributeSQLGenerator`).
  static let functions: Set<String> = ["canonical", "uppercase", "lowercase", "count", "sum", "min", "max"]

  /// Reads `text`, spaces allowed around each part; nil for any other shape.
  init?(_ text: String) {
    let s = text.filter { !$0.isWhitespace }
    if s == "now()" {
      self = .now
      return
    }
    if let colon = s.firstIndex(of: ":") {
      let name = String(s[..<colon])
      let rest = s[s.index(after: colon)...]
      guard Self.functions.contains(name), rest.hasPrefix("("), rest.hasSuffix(")"), rest.count > 2,
        let path = Self.keyPath(String(rest.dropFirst().dropLast()))
      else { return nil }
      self = .function(name, path)
      return
    }
    var parts = s.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    if let last = parts.last, last.hasPrefix("@") {
      let name = String(last.dropFirst())
      guard ["count", "sum", "min", "max"].contains(name) else { return nil }
      parts.removeLast()
      guard let path = Self.keyPath(parts.joined(separator: ".")) else { return nil }
      self = .function(name, path)
      return
    }
    guard let path = Self.keyPath(s) else { return nil }
    self = .keyPath(path)
  }

  /// One or two identifiers joined by `.`.
  private static func keyPath(_ s: String) -> [String]? {
    let parts = s.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard (1...2).contains(parts.count), parts.allSatisfy(isIdentifier) else { return nil }
    return parts
  }

  private static func isIdentifier(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
    return s.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }
}
