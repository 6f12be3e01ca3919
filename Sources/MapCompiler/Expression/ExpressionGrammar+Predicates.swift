import MapRuntime

/// Predicate productions. A parenthesis in predicate position may hold either a predicate or
/// the start of an expression (`(a + b) * 2 > 3`); `parseOr` returns whichever it found and the
/// caller decides, so no backtracking is needed.
extension ExpressionGrammar {
  enum PredicateOrExpression {
    case predicate(Predicate)
    case expression(Expression)
  }

  /// A whole predicate: an OR-list that must be a predicate.
  mutating func parsePredicateArgument() throws(ExpressionSyntaxError) -> Predicate {
    let parsed = try parseOr()
    return try requirePredicate(parsed)
  }

  /// (Call it with an already evaluated argument: `self` is read before the arguments are.)
  func requirePredicate(_ parsed: PredicateOrExpression) throws(ExpressionSyntaxError) -> Predicate {
    switch parsed {
    case .predicate(let predicate):
      return predicate
    case .expression(let expression):
      throw ExpressionSyntaxError(
        .syntax,
        "expected a comparison operator (==, !=, <, <=, >, >=, IN, CONTAINS, BEGINSWITH, "
          + "ENDSWITH, LIKE, MATCHES, BETWEEN) after '\(excerpt(expression.span))' "
          + "but found \(current.quoted)",
        span: current.span)
    }
  }

  private var atOr: Bool { current.isKeyword("OR") || current.isSymbol(.or) }
  private var atAnd: Bool { current.isKeyword("AND") || current.isSymbol(.and) }
  private var atNot: Bool { current.isKeyword("NOT") || current.isSymbol(.not) }

  /// or ::= and { ("OR" | "||") and }
  mutating func parseOr() throws(ExpressionSyntaxError) -> PredicateOrExpression {
    let first = try parseAnd()
    guard atOr else { return first }
    var operands = [try requirePredicate(first)]
    while atOr {
      advance()
      let next = try parseAnd()
      operands.append(try requirePredicate(next))
    }
    let span = operands[0].span.union(operands[operands.count - 1].span)
    return .predicate(Predicate(.or(operands), span: span))
  }

  /// and ::= not { ("AND" | "&&") not }
  private mutating func parseAnd() throws(ExpressionSyntaxError) -> PredicateOrExpression {
    let first = try parseNot()
    guard atAnd else { return first }
    var operands = [try requirePredicate(first)]
    while atAnd {
      advance()
      let next = try parseNot()
      operands.append(try requirePredicate(next))
    }
    let span = operands[0].span.union(operands[operands.count - 1].span)
    return .predicate(Predicate(.and(operands), span: span))
  }

  /// not ::= ("NOT" | "!") not | primaryPredicate
  private mutating func parseNot() throws(ExpressionSyntaxError) -> PredicateOrExpression {
    guard atNot else { return try parsePrimaryPredicate() }
    let not = advance()
    try descend()
    defer { depth -= 1 }
    let parsed = try parseNot()
    let operand = try requirePredicate(parsed)
    return .predicate(Predicate(.not(operand), span: span(from: not.span)))
  }

  /// primaryPredicate ::= TRUEPREDICATE | FALSEPREDICATE | "(" or ")" | comparison
  private mutating func parsePrimaryPredicate() throws(ExpressionSyntaxError)
    -> PredicateOrExpression
  {
    let token = current
    switch token.kind {
    case .keyword("TRUEPREDICATE"), .keyword("FALSEPREDICATE"):
      advance()
      return .predicate(Predicate(.constant(token.isKeyword("TRUEPREDICATE")), span: token.span))
    case .keyword("ANY"), .keyword("SOME"), .keyword("ALL"), .keyword("NONE"):
      advance()
      let modifier: ComparisonModifier =
        switch token.kind {
        case .keyword("ALL"): .all
        case .keyword("NONE"): .none
        default: .any
        }
      let lhs = try parseExpression()
      guard case .predicate(let predicate) = try parseComparison(lhs: lhs, modifier: modifier, start: token.span)
      else {
        throw unexpected("a comparison operator after '\(excerpt(span(from: token.span)))'")
      }
      return .predicate(predicate)
    case .symbol(.leftParen):
      advance()
      try descend()
      defer { depth -= 1 }
      let inner = try parseOr()
      _ = try expectClosing(.rightParen, opener: token, "(")
      switch inner {
      case .predicate(let predicate):
        return .predicate(predicate)
      case .expression(let expression):
        // A parenthesized expression: it may go on (`(a + b) * 2`) and be compared.
        let lhs = try parseBinary(minimumLevel: 1, leading: expression)
        return try parseComparison(lhs: lhs, modifier: .direct, start: token.span)
      }
    default:
      let lhs = try parseExpression()
      return try parseComparison(lhs: lhs, modifier: .direct, start: lhs.span)
    }
  }

  func comparisonOperator(_ token: ExpressionToken) -> ComparisonOperator? {
    switch token.kind {
    case .symbol(.equal): .equal
    case .symbol(.notEqual): .notEqual
    case .symbol(.less): .lessThan
    case .symbol(.lessOrEqual): .lessThanOrEqual
    case .symbol(.greater): .greaterThan
    case .symbol(.greaterOrEqual): .greaterThanOrEqual
    case .keyword("IN"): .in
    case .keyword("CONTAINS"): .contains
    case .keyword("BEGINSWITH"): .beginsWith
    case .keyword("ENDSWITH"): .endsWith
    case .keyword("LIKE"): .like
    case .keyword("MATCHES"): .matches
    case .keyword("BETWEEN"): .between
    default: nil
    }
  }

  /// `lhs op[options] rhs` when a comparison operator follows `lhs`; otherwise `lhs` itself.
  private mutating func parseComparison(
    lhs: Expression, modifier: ComparisonModifier, start: SourceSpan
  ) throws(ExpressionSyntaxError) -> PredicateOrExpression {
    guard let op = comparisonOperator(current) else { return .expression(lhs) }
    let opToken = advance()
    let options = try parseOptions(for: op, opToken: opToken)
    let rhs = try parseExpression()
    let comparison = Comparison(lhs: lhs, op: op, rhs: rhs, modifier: modifier, options: options)
    return .predicate(Predicate(.comparison(comparison), span: span(from: start)))
  }

  /// `[c]`, `[d]`, `[n]` and their combinations, right after the operator.
  private mutating func parseOptions(for op: ComparisonOperator, opToken: ExpressionToken)
    throws(ExpressionSyntaxError) -> ComparisonOptions
  {
    guard current.isSymbol(.leftBracket) else { return [] }
    let open = advance()
    guard op.acceptsOptions else {
      throw ExpressionSyntaxError(
        .syntax, "comparison options are not allowed with '\(excerpt(opToken.span))'",
        span: open.span)
    }
    let letters: String
    switch current.kind {
    case .identifier(let word), .keyword(let word): letters = word
    default: throw unexpected("comparison options such as 'c', 'd' or 'cd' after '['")
    }
    var options: ComparisonOptions = []
    for letter in letters.lowercased() {
      let option: ComparisonOptions
      switch letter {
      case "c": option = .caseInsensitive
      case "d": option = .diacriticInsensitive
      case "n": option = .normalized
      default:
        throw ExpressionSyntaxError(
          .unknownKeyword,
          "unknown comparison option '\(letter)' in '[\(excerpt(current.span))]'; "
            + "the options are c (case), d (diacritics) and n (normalized)",
          span: current.span)
      }
      if options.contains(option) {
        throw ExpressionSyntaxError(
          .unknownKeyword, "comparison option '\(letter)' is given twice", span: current.span)
      }
      options.insert(option)
    }
    advance()
    _ = try expectClosing(.rightBracket, opener: open, "[")
    return options
  }
}
