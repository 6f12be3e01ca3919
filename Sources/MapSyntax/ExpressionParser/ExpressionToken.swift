import MapRuntime

/// One token of expression text, with the UTF-8 byte offsets it covers.
package struct ExpressionToken: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    /// A plain identifier that is not a reserved word.
    case identifier(String)
    /// `#name`: an identifier even if it is a reserved word. Holds the name without `#`.
    case escapedIdentifier(String)
    /// A reserved word, upper-cased.
    case keyword(String)
    /// `$name`, without `$`.
    case variable(String)
    /// `@name`, with `@`.
    case collectionOperator(String)
    /// `name:` or `name:part:…` (a built-in function name; `(` must follow).
    case functionName(String)
    case string(String)
    case number(NumberLiteral)
    case symbol(Symbol)
    case end
  }

  /// Punctuation and operators, by their canonical spelling (`=` is `==`, `<>` is `!=`,
  /// `=<` is `<=`, `=>` is `>=`).
  package enum Symbol: String, Sendable, Equatable {
    case leftParen = "(", rightParen = ")", leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]", comma = ",", dot = "."
    case assign = ":="
    case plus = "+", minus = "-", times = "*", divide = "/", power = "**"
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">"
    case greaterOrEqual = ">="
    case and = "&&", or = "||", not = "!"
    case bitAnd = "&", bitOr = "|", bitXor = "^", onesComplement = "~"
    case shiftLeft = "<<", shiftRight = ">>"
  }

  var kind: Kind
  package var span: SourceSpan

  package func isSymbol(_ symbol: Symbol) -> Bool { kind == .symbol(symbol) }
  func isKeyword(_ word: String) -> Bool { kind == .keyword(word) }

  /// How the token is named in error messages.
  var quoted: String {
    switch kind {
    case .identifier(let name): "'\(name)'"
    case .escapedIdentifier(let name): "'#\(name)'"
    case .keyword(let word): "'\(word)'"
    case .variable(let name): "'$\(name)'"
    case .collectionOperator(let name): "'\(name)'"
    case .functionName(let name): "'\(name)'"
    case .string: "a string"
    case .number(let literal): "'\(literal.text)'"
    case .symbol(let symbol): "'\(symbol.rawValue)'"
    case .end: "the end of the text"
    }
  }
}

/// A numeric literal as written (without sign); `ExpressionParser` decides its constant kind.
struct NumberLiteral: Sendable, Equatable {
  enum Form: Sendable, Equatable {
    /// Decimal digits only.
    case integer
    /// Decimal digits with a fraction and/or an exponent.
    case real
    /// `0x…`, `0o…`, `0b…`: the magnitude, when it fits in UInt64 (nil when it does not).
    case radix(UInt64?)
  }
  var text: String
  var form: Form
}

extension ExpressionToken {
  /// A token that can be a key of a key path.
  package var isKey: Bool {
    switch kind {
    case .identifier, .escapedIdentifier, .collectionOperator: true
    default: false
    }
  }
}
