import MapRuntime

/// Expression productions: assignment, binary operators, unary minus, postfix key paths and
/// subscripts, primaries.
extension ExpressionGrammar {
  /// expression ::= variable ":=" expression | binary
  mutating func parseExpression() throws(ExpressionSyntaxError) -> Expression {
    try descend()
    defer { depth -= 1 }
    if case .variable(let name) = current.kind, peek(1).isSymbol(.assign) {
      let start = advance().span
      advance()
      let value = try parseExpression()
      return Expression(.assignment(variable: name, value: value), span: span(from: start))
    }
    return try parseBinary(minimumLevel: 1, leading: nil)
  }

  /// The binary operators, loosest first: 1 = UNION INTERSECT MINUS, 2 = `+ -`,
  /// 3 = `* /`, 4 = `**`. All are left-associative.
  private func binaryOperator(_ token: ExpressionToken) -> (level: Int, kind: BinaryKind)? {
    switch token.kind {
    case .symbol(.plus): (2, .function("add:to:"))
    case .symbol(.minus): (2, .function("from:subtract:"))
    case .symbol(.times): (3, .function("multiply:by:"))
    case .symbol(.divide): (3, .function("divide:by:"))
    case .symbol(.power): (4, .function("raise:toPower:"))
    case .keyword("UNION"): (1, .set(.union))
    case .keyword("INTERSECT"): (1, .set(.intersect))
    case .keyword("MINUS"): (1, .set(.minus))
    default: nil
    }
  }

  private enum BinaryKind {
    case function(String)
    case set(Expression.SetOperator)
  }

  /// Operators of `minimumLevel` or tighter. `leading`, when given, is an already parsed
  /// parenthesized primary that starts the expression.
  mutating func parseBinary(minimumLevel: Int, leading: Expression?)
    throws(ExpressionSyntaxError) -> Expression
  {
    var lhs: Expression
    if let leading {
      lhs = try parsePostfix(leading)
    } else {
      lhs = try parseUnary()
    }
    let savedDepth = depth
    defer { depth = savedDepth }
    while let (level, kind) = binaryOperator(current), level >= minimumLevel {
      advance()
      try descend()  // each operator of a chain makes the tree one level deeper
      let rhs = try parseBinary(minimumLevel: level + 1, leading: nil)
      let span = lhs.span.union(rhs.span)
      switch kind {
      case .function(let name):
        lhs = Expression(.function(name: name, arguments: [lhs, rhs]), span: span)
      case .set(let op):
        lhs = Expression(.setOperation(op, lhs, rhs), span: span)
      }
    }
    return lhs
  }

  /// unary ::= "-" number | "-" unary | postfix. A minus directly before a numeric literal is
  /// part of the literal; any other is `from:subtract:(0, x)`.
  mutating func parseUnary() throws(ExpressionSyntaxError) -> Expression {
    guard current.isSymbol(.minus) else {
      let primary = try parsePrimary()
      return try parsePostfix(primary)
    }
    let minus = advance()
    if case .number(let literal) = current.kind {
      let number = advance()
      let constant = try constant(of: literal, negative: true, at: minus.span.union(number.span))
      return try parsePostfix(Expression(.constant(constant), span: span(from: minus.span)))
    }
    try descend()
    defer { depth -= 1 }
    let operand = try parseUnary()
    return Expression(
      .function(name: "from:subtract:", arguments: [.constant(.integer(0)), operand]),
      span: span(from: minus.span))
  }

  func constant(of literal: NumberLiteral, negative: Bool, at span: SourceSpan)
    throws(ExpressionSyntaxError) -> Expression.Constant
  {
    guard let constant = literal.constant(negative: negative) else {
      throw ExpressionSyntaxError(
        .badNumber,
        "'\(negative ? "-" : "")\(literal.text)' does not fit in a 64-bit signed integer",
        span: span)
    }
    return constant
  }

  /// postfix ::= primary { "." key | "[" subscript "]" }
  ///
  /// Consecutive keys make one key path; keys after a key path extend it (`(a.b).c` is `a.b.c`).
  mutating func parsePostfix(_ base: Expression) throws(ExpressionSyntaxError) -> Expression {
    var result = base
    var keyBase = base
    var components: [String] = []  // keys read since `keyBase`, not yet in `result`
    let savedDepth = depth
    defer { depth = savedDepth }
    while true {
      if current.isSymbol(.dot) {
        advance()
        let component = try parseKeyComponent()
        if components.isEmpty {
          if case .keyPath(let existingBase, let existing) = result.kind {
            keyBase = existingBase
            components = existing
          } else {
            try descend()
            keyBase = result
          }
        }
        components.append(component)
      } else if current.isSymbol(.leftBracket) {
        if !components.isEmpty {
          result = Expression(
            .keyPath(base: keyBase, components: components), span: span(from: result.span))
          components = []
        }
        let open = advance()
        try descend()
        let subscript_: Expression.Subscript
        if case .keyword(let word) = current.kind, peek(1).isSymbol(.rightBracket),
          let symbolic = Self.symbolicSubscripts[word]
        {
          advance()
          subscript_ = symbolic
        } else {
          subscript_ = .expression(try parseExpression())
        }
        _ = try expectClosing(.rightBracket, opener: open, "[")
        result = Expression(.index(base: result, subscript_), span: span(from: result.span))
      } else {
        break
      }
    }
    if !components.isEmpty {
      result = Expression(
        .keyPath(base: keyBase, components: components), span: span(from: result.span))
    }
    return result
  }

  private static let symbolicSubscripts: [String: Expression.Subscript] = [
    "FIRST": .first, "LAST": .last, "SIZE": .size,
  ]

  /// A key after `.`: a name, a `#`-escaped name, or a collection operator.
  private mutating func parseKeyComponent() throws(ExpressionSyntaxError) -> String {
    switch current.kind {
    case .identifier(let name), .escapedIdentifier(let name), .collectionOperator(let name):
      advance()
      return name
    case .keyword:
      throw reservedWordError()
    default:
      throw unexpected("a key after '.'")
    }
  }

  /// The error for a reserved word used where a key or value is expected.
  func reservedWordError() -> ExpressionSyntaxError {
    let word = excerpt(current.span)
    return ExpressionSyntaxError(
      .reservedWord, "'\(word)' is a reserved word; write '#\(word)' to use it as a key",
      span: current.span)
  }

  /// primary ::= literal | variable | key | "@op" | SELF | call | "(" expression ")" | aggregate
  mutating func parsePrimary() throws(ExpressionSyntaxError) -> Expression {
    let token = current
    switch token.kind {
    case .number(let literal):
      advance()
      return Expression(
        .constant(try constant(of: literal, negative: false, at: token.span)), span: token.span)
    case .string(let value):
      advance()
      return Expression(.constant(.string(value)), span: token.span)
    case .variable(let name):
      advance()
      return Expression(.variable(name), span: token.span)
    case .identifier(let name):
      advance()
      if current.isSymbol(.leftParen) { return try parseBuiltinCall(name: name, nameToken: token) }
      return Self.key(name, span: token.span)
    case .escapedIdentifier(let name), .collectionOperator(let name):
      advance()
      return Self.key(name, span: token.span)
    case .functionName(let name):
      advance()
      guard current.isSymbol(.leftParen) else { throw unexpected("'(' after '\(name)'") }
      return try parseBuiltinCall(name: name, nameToken: token)
    case .keyword(let word):
      return try parseKeywordPrimary(word)
    case .symbol(.leftParen):
      advance()
      let inner = try parseExpression()
      _ = try expectClosing(.rightParen, opener: token, "(")
      return inner
    case .symbol(.leftBrace):
      return try parseAggregate()
    default:
      throw unexpected("an expression")
    }
  }

  private static func key(_ name: String, span: SourceSpan) -> Expression {
    Expression(.keyPath(base: Expression(.evaluatedObject, span: span), components: [name]), span: span)
  }

  private mutating func parseKeywordPrimary(_ word: String) throws(ExpressionSyntaxError)
    -> Expression
  {
    let token = current
    let kind: Expression.Kind
    switch word {
    case "TRUE", "YES": kind = .constant(.bool(true))
    case "FALSE", "NO": kind = .constant(.bool(false))
    case "NULL", "NIL": kind = .constant(.null)
    case "SELF": kind = .evaluatedObject
    case "FUNCTION", "FETCH", "CAST", "TERNARY", "SUBQUERY":
      return try parseSpecialForm(word)
    case "FIRST", "LAST", "SIZE", "ANYKEY", "CASEINSENSITIVE", "CI":
      throw reservedWordError()
    default:
      throw unexpected("an expression")
    }
    advance()
    return Expression(kind, span: token.span)
  }

  /// aggregate ::= "{" [ expression { "," expression } ] "}"
  private mutating func parseAggregate() throws(ExpressionSyntaxError) -> Expression {
    let open = advance()
    var elements: [Expression] = []
    if !current.isSymbol(.rightBrace) {
      elements.append(try parseExpression())
      while current.isSymbol(.comma) {
        advance()
        elements.append(try parseExpression())
      }
    }
    _ = try expectClosing(.rightBrace, opener: open, "{")
    return Expression(.aggregate(elements), span: span(from: open.span))
  }
}
