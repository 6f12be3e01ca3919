import MapRuntime

typealias TallExpression = Tall<Expression>

/// Expression productions: assignment, binary operators, unary minus, postfix key paths and
/// subscripts, primaries.
extension ExpressionGrammar {
  /// expression ::= variable ":=" expression | binary
  mutating func parseExpression() throws(ExpressionSyntaxError) -> TallExpression {
    try descend()
    defer { nesting -= 1 }
    if case .variable(let name) = current.kind, peek(1).isSymbol(.assign) {
      let start = advance().span
      advance()
      let value = try parseExpression()
      return try tall(
        Expression(.assignment(variable: name, value: value.node), span: span(from: start)),
        span: span(from: start), over: value.height)
    }
    return try parseBinary(minimumLevel: 1, leading: nil)
  }

  /// The binary operators, loosest first: 1 = UNION INTERSECT MINUS, 2 = `& | ^ << >>`,
  /// 3 = `+ -`, 4 = `* /`, 5 = `**`. All are left-associative.
  private func binaryOperator(_ token: ExpressionToken) -> (level: Int, kind: BinaryKind)? {
    switch token.kind {
    case .symbol(.bitAnd): (2, .function("bitwiseAnd:with:"))
    case .symbol(.bitOr): (2, .function("bitwiseOr:with:"))
    case .symbol(.bitXor): (2, .function("bitwiseXor:with:"))
    case .symbol(.shiftLeft): (2, .function("leftshift:by:"))
    case .symbol(.shiftRight): (2, .function("rightshift:by:"))
    case .symbol(.plus): (3, .function("add:to:"))
    case .symbol(.minus): (3, .function("from:subtract:"))
    case .symbol(.times): (4, .function("multiply:by:"))
    case .symbol(.divide): (4, .function("divide:by:"))
    case .symbol(.power): (5, .function("raise:toPower:"))
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
  mutating func parseBinary(minimumLevel: Int, leading: TallExpression?)
    throws(ExpressionSyntaxError) -> TallExpression
  {
    var lhs: TallExpression
    if let leading {
      lhs = try parsePostfix(leading)
    } else {
      lhs = try parseUnary()
    }
    while let (level, kind) = binaryOperator(current), level >= minimumLevel {
      advance()
      let rhs = try parseBinary(minimumLevel: level + 1, leading: nil)
      let span = lhs.node.span.union(rhs.node.span)
      let node: Expression
      switch kind {
      case .function(let name):
        node = Expression(.function(name: name, arguments: [lhs.node, rhs.node]), span: span)
      case .set(let op):
        node = Expression(.setOperation(op, lhs.node, rhs.node), span: span)
      }
      lhs = try tall(node, span: span, over: lhs.height, rhs.height)
    }
    return lhs
  }

  /// unary ::= "-" number | "-" unary | "~" unary | postfix. A minus directly before a numeric
  /// literal is part of the literal; any other is `from:subtract:(0, x)`; `~x` is
  /// `onesComplement:(x)`.
  mutating func parseUnary() throws(ExpressionSyntaxError) -> TallExpression {
    if current.isSymbol(.onesComplement) {
      let tilde = advance()
      try descend()
      defer { nesting -= 1 }
      let operand = try parseUnary()
      let span = span(from: tilde.span)
      return try tall(
        Expression(.function(name: "onesComplement:", arguments: [operand.node]), span: span),
        span: span, over: operand.height)
    }
    guard current.isSymbol(.minus) else {
      let primary = try parsePrimary()
      return try parsePostfix(primary)
    }
    let minus = advance()
    if case .number(let literal) = current.kind {
      let number = advance()
      let constant = try constant(of: literal, negative: true, at: minus.span.union(number.span))
      let node = Expression(.constant(constant), span: span(from: minus.span))
      return try parsePostfix(Tall(node: node, height: 1))
    }
    try descend()
    defer { nesting -= 1 }
    let operand = try parseUnary()
    let span = span(from: minus.span)
    return try tall(
      Expression(
        .function(name: "from:subtract:", arguments: [.constant(.integer(0)), operand.node]),
        span: span),
      span: span, over: 1, operand.height)
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
  mutating func parsePostfix(_ base: TallExpression) throws(ExpressionSyntaxError)
    -> TallExpression
  {
    var result = base
    var keyBase = base
    var components: [String] = []  // keys read since `keyBase`, not yet in `result`
    while true {
      if current.isSymbol(.dot) {
        advance()
        let component = try parseKeyComponent()
        if components.isEmpty {
          if case .keyPath(let existingBase, let existing) = result.node.kind {
            keyBase = Tall(node: existingBase, height: result.height - 1)
            components = existing
          } else {
            keyBase = result
          }
        }
        components.append(component)
      } else if current.isSymbol(.leftBracket) {
        if !components.isEmpty {
          result = try keyPath(keyBase, components, start: result.node.span)
          components = []
        }
        result = try parseSubscript(of: result)
      } else {
        break
      }
    }
    if !components.isEmpty {
      result = try keyPath(keyBase, components, start: result.node.span)
    }
    return result
  }

  private func keyPath(_ base: TallExpression, _ components: [String], start: SourceSpan)
    throws(ExpressionSyntaxError) -> TallExpression
  {
    let span = span(from: start)
    return try tall(
      Expression(.keyPath(base: base.node, components: components), span: span),
      span: span, over: base.height)
  }

  /// `[index]`, `[FIRST]`, `[LAST]`, `[SIZE]` after `base`; `current` is the `[`.
  private mutating func parseSubscript(of base: TallExpression) throws(ExpressionSyntaxError)
    -> TallExpression
  {
    let open = advance()
    let subscript_: Expression.Subscript
    var indexHeight = 0
    if case .keyword(let word) = current.kind, peek(1).isSymbol(.rightBracket),
      let symbolic = Self.symbolicSubscripts[word]
    {
      advance()
      subscript_ = symbolic
    } else {
      let index = try parseExpression()
      subscript_ = .expression(index.node)
      indexHeight = index.height
    }
    try expectClosing(.rightBracket, opener: open, "[")
    let span = span(from: base.node.span)
    return try tall(
      Expression(.index(base: base.node, subscript_), span: span),
      span: span, over: base.height, indexHeight)
  }

  private static let symbolicSubscripts: [String: Expression.Subscript] = [
    "FIRST": .first, "LAST": .last, "SIZE": .size,
  ]

  /// A key after `.`: a name, a `#`-escaped name, a collection operator, or a variable whose
  /// value is the key (`$a.$b`, kept as the component `$b`).
  private mutating func parseKeyComponent() throws(ExpressionSyntaxError) -> String {
    switch current.kind {
    case .identifier(let name), .escapedIdentifier(let name), .collectionOperator(let name):
      advance()
      return name
    case .variable(let name):
      advance()
      return "$" + name
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
  mutating func parsePrimary() throws(ExpressionSyntaxError) -> TallExpression {
    let token = current
    switch token.kind {
    case .number(let literal):
      advance()
      let constant = try constant(of: literal, negative: false, at: token.span)
      return Tall(node: Expression(.constant(constant), span: token.span), height: 1)
    case .string(let value):
      advance()
      return Tall(node: Expression(.constant(.string(value)), span: token.span), height: 1)
    case .variable(let name):
      advance()
      return Tall(node: Expression(.variable(name), span: token.span), height: 1)
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
      try expectClosing(.rightParen, opener: token, "(")
      return inner
    case .symbol(.leftBrace):
      return try parseAggregate()
    default:
      throw unexpected("an expression")
    }
  }

  private static func key(_ name: String, span: SourceSpan) -> TallExpression {
    let node = Expression(
      .keyPath(base: Expression(.evaluatedObject, span: span), components: [name]), span: span)
    return Tall(node: node, height: 2)
  }

  private mutating func parseKeywordPrimary(_ word: String) throws(ExpressionSyntaxError)
    -> TallExpression
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
    return Tall(node: Expression(kind, span: token.span), height: 1)
  }

  /// aggregate ::= "{" [ expression { "," expression } ] "}"
  private mutating func parseAggregate() throws(ExpressionSyntaxError) -> TallExpression {
    let open = advance()
    var elements: [Expression] = []
    var height = 0
    if !current.isSymbol(.rightBrace) {
      repeat {
        if !elements.isEmpty { advance() }
        let element = try parseExpression()
        elements.append(element.node)
        height = max(height, element.height)
      } while current.isSymbol(.comma)
    }
    try expectClosing(.rightBrace, opener: open, "{")
    let span = span(from: open.span)
    return try tall(Expression(.aggregate(elements), span: span), span: span, over: height)
  }
}
