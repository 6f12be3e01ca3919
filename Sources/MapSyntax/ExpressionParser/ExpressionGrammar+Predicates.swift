import MapRuntime

typealias TallPredicate = Tall<Predicate>

/// Predicate productions. A parenthesis in predicate position may hold either a predicate or
/// the start of an expression (`(a + b) * 2 > 3`); `parseOr` returns whichever it found and the
/// caller decides, so no backtracking is needed.
extension ExpressionGrammar {
  enum PredicateOrExpression {
    case predicate(TallPredicate)
    case expression(TallExpression)
  }

  /// A whole predicate: an OR-list that must be a predicate.
  mutating func parsePredicateArgument() throws(ExpressionSyntaxError) -> TallPredicate {
    let parsed = try parseOr()
    return try requirePredicate(parsed)
  }

  /// (Call it with an already evaluated argument: `self` is read before the arguments are.)
  func requirePredicate(_ parsed: PredicateOrExpression) throws(ExpressionSyntaxError)
    -> TallPredicate
  {
    switch parsed {
    case .predicate(let predicate):
      return predicate
    case .expression(let expression):
      throw ExpressionSyntaxError(
        .syntax,
        "expected a comparison operator (==, !=, <, <=, >, >=, IN, CONTAINS, BEGINSWITH, "
          + "ENDSWITH, LIKE, MATCHES, BETWEEN) after '\(excerpt(expression.node.span))' "
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
    var operands = chainStart(try requirePredicate(first), or: true)
    while atOr {
      advance()
      let next = try parseAnd()
      operands.append(try requirePredicate(next))
    }
    return .predicate(try compound(operands, or: true))
  }

  /// and ::= not { ("AND" | "&&") not }
  private mutating func parseAnd() throws(ExpressionSyntaxError) -> PredicateOrExpression {
    let first = try parseNot()
    guard atAnd else { return first }
    var operands = chainStart(try requirePredicate(first), or: false)
    while atAnd {
      advance()
      let next = try parseNot()
      operands.append(try requirePredicate(next))
    }
    return .predicate(try compound(operands, or: false))
  }

  /// The first operands of a chain: a parenthesized chain of the same kind on the left is
  /// continued, so `(p AND q) AND r` — Foundation's text for `p AND q AND r` — is the same one
  /// node as `p AND q AND r`.
  private func chainStart(_ first: TallPredicate, or: Bool) -> [TallPredicate] {
    switch first.node.kind {
    case .and(let parts) where !or, .or(let parts) where or:
      return parts.map { Tall(node: $0, height: first.height - 1) }
    default:
      return [first]
    }
  }

  private func compound(_ operands: [TallPredicate], or: Bool) throws(ExpressionSyntaxError)
    -> TallPredicate
  {
    let span = operands[0].node.span.union(operands[operands.count - 1].node.span)
    let nodes = operands.map(\.node)
    let predicate = Predicate(or ? .or(nodes) : .and(nodes), span: span)
    return try tall(predicate, span: span, over: operands.map(\.height).max() ?? 0)
  }

  /// not ::= ("NOT" | "!") not | primaryPredicate
  private mutating func parseNot() throws(ExpressionSyntaxError) -> PredicateOrExpression {
    guard atNot else { return try parsePrimaryPredicate() }
    let not = advance()
    try descend()
    defer { nesting -= 1 }
    let parsed = try parseNot()
    let operand = try requirePredicate(parsed)
    let span = span(from: not.span)
    return .predicate(
      try tall(Predicate(.not(operand.node), span: span), span: span, over: operand.height))
  }

  /// primaryPredicate ::= TRUEPREDICATE | FALSEPREDICATE | "(" or ")" | comparison
  private mutating func parsePrimaryPredicate() throws(ExpressionSyntaxError)
    -> PredicateOrExpression
  {
    let token = current
    switch token.kind {
    case .keyword("TRUEPREDICATE"), .keyword("FALSEPREDICATE"):
      advance()
      let predicate = Predicate(.constant(token.isKeyword("TRUEPREDICATE")), span: token.span)
      return .predicate(Tall(node: predicate, height: 1))
    case .keyword("ANY"), .keyword("SOME"), .keyword("ALL"), .keyword("NONE"):
      return try parseModifiedComparison()
    case .symbol(.leftParen):
      advance()
      try descend()
      defer { nesting -= 1 }
      let inner = try parseOr()
      try expectClosing(.rightParen, opener: token, "(")
      switch inner {
      case .predicate:
        return inner
      case .expression(let expression):
        // A parenthesized expression: it may go on (`(a + b) * 2`) and be compared.
        let lhs = try parseBinary(minimumLevel: 1, leading: expression)
        return try parseComparison(lhs: lhs, modifier: .direct, start: token.span)
      }
    default:
      let lhs = try parseExpression()
      return try parseComparison(lhs: lhs, modifier: .direct, start: lhs.node.span)
    }
  }

  /// `ANY|SOME|ALL|NONE lhs op rhs`; `current` is the modifier.
  private mutating func parseModifiedComparison() throws(ExpressionSyntaxError)
    -> PredicateOrExpression
  {
    let token = advance()
    let modifier: ComparisonModifier =
      switch token.kind {
      case .keyword("ALL"): .all
      default: .any  // ANY, SOME, and NONE, which is NOT ANY (below)
      }
    let lhs = try parseExpression()
    let result = try parseComparison(lhs: lhs, modifier: modifier, start: token.span)
    guard case .predicate(let comparison) = result else {
      throw unexpected("a comparison operator after '\(excerpt(span(from: token.span)))'")
    }
    guard token.isKeyword("NONE") else { return result }
    // Foundation has no NONE modifier: `NONE p` is `NOT (ANY p)`.
    let span = span(from: token.span)
    return .predicate(
      try tall(Predicate(.not(comparison.node), span: span), span: span, over: comparison.height))
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
    lhs: TallExpression, modifier: ComparisonModifier, start: SourceSpan
  ) throws(ExpressionSyntaxError) -> PredicateOrExpression {
    guard let op = comparisonOperator(current) else { return .expression(lhs) }
    let opToken = advance()
    let options = try parseOptions(for: op, opToken: opToken)
    let rhs = try parseExpression()
    let comparison = Comparison(
      lhs: lhs.node, op: op, rhs: rhs.node, modifier: modifier, options: options)
    let span = span(from: start)
    return .predicate(
      try tall(
        Predicate(.comparison(comparison), span: span), span: span, over: lhs.height, rhs.height))
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
    try expectClosing(.rightBracket, opener: open, "[")
    return options
  }
}
