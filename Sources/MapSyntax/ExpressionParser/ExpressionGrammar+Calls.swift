import MapRuntime

/// Calls: built-in `name:(args)` functions and the `FUNCTION`, `FETCH`, `CAST`, `TERNARY`,
/// `SUBQUERY` forms. Each form has its own small function to keep stack frames small.
extension ExpressionGrammar {
  /// `name(args)` after its name token; `current` is the `(`.
  mutating func parseBuiltinCall(name: String, nameToken: ExpressionToken)
    throws(ExpressionSyntaxError) -> TallExpression
  {
    let open = advance()
    let arguments = try parseArguments(opener: open, openerText: name + "(", first: nil)
    // Foundation reads a one-argument built-in without its colon as the function itself
    // (`sum({1, 2})` is `sum:({1, 2})`, `sqrt(x)` is `sqrt:(x)`).
    var name = name
    if !ExpressionSyntax.builtinFunctions.contains(name), !name.hasSuffix(":"),
      arguments.node.count == 1, ExpressionSyntax.builtinFunctions.contains(name + ":")
    {
      name += ":"
    }
    guard ExpressionSyntax.builtinFunctions.contains(name) else {
      throw unknownFunction(name, at: nameToken.span)
    }
    try checkArity(of: name, arguments.node.count, at: nameToken.span, what: "function")
    let span = span(from: nameToken.span)
    return try tall(
      Expression(.function(name: name, arguments: arguments.node), span: span),
      span: span, over: arguments.height)
  }

  private func unknownFunction(_ name: String, at span: SourceSpan) -> ExpressionSyntaxError {
    var message = "unknown function '\(name)'"
    if !name.hasSuffix(":"), ExpressionSyntax.builtinFunctions.contains(name + ":") {
      message += "; did you mean '\(name):'?"
    } else {
      message += "; call a method with FUNCTION(target, \"selector:\", …)"
    }
    return ExpressionSyntaxError(.unknownFunction, message, span: span)
  }

  /// Comma-separated expressions up to the `)` that closes `opener`. With `first`, the list
  /// continues after an already parsed element (`current` is then `,` or `)`).
  private mutating func parseArguments(
    opener: ExpressionToken, openerText: String, first: TallExpression?
  ) throws(ExpressionSyntaxError) -> Tall<[Expression]> {
    var arguments: [Expression] = []
    var height = 0
    if let first {
      arguments.append(first.node)
      height = first.height
    }
    if first != nil || !current.isSymbol(.rightParen) {
      if first == nil {
        let argument = try parseExpression()
        arguments.append(argument.node)
        height = argument.height
      }
      while current.isSymbol(.comma) {
        advance()
        let argument = try parseExpression()
        arguments.append(argument.node)
        height = max(height, argument.height)
      }
    }
    try expectClosing(.rightParen, opener: opener, openerText)
    return Tall(node: arguments, height: height)
  }

  private func checkArity(of name: String, _ count: Int, at span: SourceSpan, what: String)
    throws(ExpressionSyntaxError)
  {
    let expected = ExpressionSyntax.arity(ofSelector: name)
    guard count != expected else { return }
    throw ExpressionSyntaxError(
      .arity,
      "\(what) '\(name)' takes \(expected) argument\(expected == 1 ? "" : "s") "
        + "but \(count) \(count == 1 ? "was" : "were") given",
      span: span)
  }

  /// `FUNCTION(…)`, `FETCH(…)`, `CAST(…)`, `TERNARY(…)`, `SUBQUERY(…)`; `current` is the keyword.
  mutating func parseSpecialForm(_ word: String) throws(ExpressionSyntaxError) -> TallExpression {
    let keyword = advance()
    guard current.isSymbol(.leftParen) else { throw unexpected("'(' after \(word)") }
    let open = advance()
    switch word {
    case "FUNCTION": return try parseFunction(keyword: keyword, open: open)
    case "FETCH": return try parseFetch(keyword: keyword, open: open)
    case "CAST": return try parseCast(keyword: keyword, open: open)
    case "TERNARY": return try parseTernary(keyword: keyword, open: open)
    default: return try parseSubquery(keyword: keyword, open: open)
    }
  }

  private mutating func parseFunction(keyword: ExpressionToken, open: ExpressionToken)
    throws(ExpressionSyntaxError) -> TallExpression
  {
    let target = try parseExpression()
    try expectComma(after: "the target of FUNCTION")
    let selectorToken = current
    let selector = try selectorString()
    advance()
    var arguments = Tall<[Expression]>(node: [], height: 0)
    if current.isSymbol(.comma) {
      advance()
      let first = try parseExpression()
      arguments = try parseArguments(opener: open, openerText: "FUNCTION(", first: first)
    } else {
      try expectClosing(.rightParen, opener: open, "FUNCTION(")
    }
    try checkArity(of: selector, arguments.node.count, at: selectorToken.span, what: "selector")
    let span = span(from: keyword.span)
    return try tall(
      Expression(
        .selector(target: target.node, selector: selector, arguments: arguments.node), span: span),
      span: span, over: target.height, arguments.height)
  }

  /// The selector string at `current`, checked.
  private func selectorString() throws(ExpressionSyntaxError) -> String {
    guard case .string(let selector) = current.kind else {
      throw ExpressionSyntaxError(
        .functionSelector,
        "the second argument of FUNCTION must be a selector in quotes, such as "
          + "\"valueForKey:\", but found \(current.quoted)",
        span: current.span)
    }
    guard ExpressionSyntax.isSelector(selector) else {
      throw ExpressionSyntaxError(
        .functionSelector,
        "\"\(selector)\" is not a selector; write a method name such as \"valueForKey:\"",
        span: current.span)
    }
    return selector
  }

  private mutating func parseFetch(keyword: ExpressionToken, open: ExpressionToken)
    throws(ExpressionSyntaxError) -> TallExpression
  {
    let request = try parseExpression()
    try expectComma(after: "the fetch request of FETCH")
    let context = try parseExpression()
    try expectComma(after: "the context of FETCH")
    let countOnly: Bool
    switch current.kind {
    case .keyword("YES"), .keyword("TRUE"): countOnly = true
    case .keyword("NO"), .keyword("FALSE"): countOnly = false
    default: throw unexpected("YES or NO as the third argument of FETCH")
    }
    advance()
    try expectClosing(.rightParen, opener: open, "FETCH(")
    let span = span(from: keyword.span)
    return try tall(
      Expression(
        .fetch(request: request.node, context: context.node, countOnly: countOnly), span: span),
      span: span, over: request.height, context.height)
  }

  private mutating func parseCast(keyword: ExpressionToken, open: ExpressionToken)
    throws(ExpressionSyntaxError) -> TallExpression
  {
    let value = try parseExpression()
    try expectComma(after: "the value of CAST")
    guard case .string(let type) = current.kind, ExpressionSyntax.isIdentifier(type) else {
      throw ExpressionSyntaxError(
        .castType,
        "the second argument of CAST must be a class name in quotes, such as \"NSDate\", "
          + "but found \(current.quoted)",
        span: current.span)
    }
    advance()
    try expectClosing(.rightParen, opener: open, "CAST(")
    let span = span(from: keyword.span)
    return try tall(
      Expression(.cast(value: value.node, type: type), span: span), span: span, over: value.height)
  }

  private mutating func parseTernary(keyword: ExpressionToken, open: ExpressionToken)
    throws(ExpressionSyntaxError) -> TallExpression
  {
    let condition = try parsePredicateArgument()
    try expectComma(after: "the condition of TERNARY")
    let then = try parseExpression()
    try expectComma(after: "the second argument of TERNARY")
    let else_ = try parseExpression()
    try expectClosing(.rightParen, opener: open, "TERNARY(")
    let span = span(from: keyword.span)
    return try tall(
      Expression(
        .ternary(condition: condition.node, then: then.node, else: else_.node), span: span),
      span: span, over: condition.height, then.height, else_.height)
  }

  private mutating func parseSubquery(keyword: ExpressionToken, open: ExpressionToken)
    throws(ExpressionSyntaxError) -> TallExpression
  {
    let collection = try parseExpression()
    try expectComma(after: "the collection of SUBQUERY")
    guard case .variable(let variable) = current.kind else {
      throw unexpected("a variable such as '$x' as the second argument of SUBQUERY")
    }
    advance()
    try expectComma(after: "the variable of SUBQUERY")
    let predicate = try parsePredicateArgument()
    try expectClosing(.rightParen, opener: open, "SUBQUERY(")
    let span = span(from: keyword.span)
    return try tall(
      Expression(
        .subquery(collection: collection.node, variable: variable, predicate: predicate.node),
        span: span),
      span: span, over: collection.height, predicate.height)
  }

  private mutating func expectComma(after what: String) throws(ExpressionSyntaxError) {
    guard current.isSymbol(.comma) else { throw unexpected("',' after \(what)") }
    advance()
  }
}
