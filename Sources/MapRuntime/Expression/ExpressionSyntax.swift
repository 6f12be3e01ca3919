/// Lexical facts of the NSExpression / NSPredicate language shared by the parser (MapCompiler)
/// and the printer (MapRuntime). Normative text: `Specs/expressions.md`.
package enum ExpressionSyntax {
  /// Words that are keywords wherever they appear, compared case-insensitively. To use one as a
  /// key, escape it with `#` (`$source.#size`). Stored here in upper case.
  package static let reservedWords: Set<String> = [
    "AND", "OR", "NOT", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "BETWEEN",
    "ANY", "ALL", "NONE", "SOME", "NULL", "NIL", "TRUE", "FALSE", "YES", "NO", "SELF",
    "FIRST", "LAST", "SIZE", "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY", "FETCH", "CAST",
    "FUNCTION", "TERNARY", "UNION", "INTERSECT", "MINUS", "ANYKEY", "CASEINSENSITIVE", "CI",
  ]

  /// True when `word` is a reserved word in any letter case.
  package static func isReservedWord(_ word: String) -> Bool {
    reservedWords.contains(word.uppercased())
  }

  /// Key-value coding collection operators allowed as key-path components (case-sensitive).
  package static let collectionOperators: Set<String> = [
    "@count", "@sum", "@avg", "@min", "@max",
    "@distinctUnionOfObjects", "@distinctUnionOfArrays", "@distinctUnionOfSets",
    "@unionOfObjects", "@unionOfArrays", "@unionOfSets",
  ]

  /// The built-in functions written as infix operators, with their spelling (Foundation prints
  /// these functions with the same operators).
  package static let arithmeticOperators: [String: String] = [
    "add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/",
    "raise:toPower:": "**", "bitwiseAnd:with:": "&", "bitwiseOr:with:": "|",
    "bitwiseXor:with:": "^", "leftshift:by:": "<<", "rightshift:by:": ">>",
  ]

  /// The number of arguments a selector or built-in function name takes: its colon count.
  package static func arity(ofSelector name: String) -> Int {
    name.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: ":") ? 1 : 0) }
  }

  /// May `scalar` start an identifier? ASCII letters, `_`, and any alphabetic non-ASCII scalar.
  package static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
    }
    return scalar.properties.isAlphabetic
  }

  /// May `scalar` continue an identifier? Identifier starts, ASCII digits, and non-ASCII
  /// alphabetic or numeric scalars and combining marks.
  package static func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return isIdentifierStart(scalar) || (scalar >= "0" && scalar <= "9") }
    switch scalar.properties.generalCategory {
    case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark: return true
    default: return scalar.properties.isAlphabetic
    }
  }

  /// True when `text` is an identifier: an identifier start followed by identifier scalars.
  package static func isIdentifier(_ text: String) -> Bool {
    var scalars = text.unicodeScalars.makeIterator()
    guard let first = scalars.next(), isIdentifierStart(first) else { return false }
    while let next = scalars.next() {
      if !isIdentifierContinue(next) { return false }
    }
    return true
  }

  /// True when `text` is a selector the `FUNCTION` form accepts: `name`, or one or more
  /// `part:` pieces (`valueForKey:`, `dateFromString:format:`).
  package static func isSelector(_ text: String) -> Bool {
    if isIdentifier(text) { return true }
    guard text.hasSuffix(":") else { return false }
    let parts = text.dropLast().split(separator: ":", omittingEmptySubsequences: false)
    return parts.allSatisfy { isIdentifier(String($0)) }
  }
}
