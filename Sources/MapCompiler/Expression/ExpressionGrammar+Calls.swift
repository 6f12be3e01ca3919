import MapRuntime

/// Calls: built-in `name:(args)` functions and the `FUNCTION`, `FETCH`, `CAST`, `TERNARY`,
/// `SUBQUERY` forms.
extension ExpressionGrammar {
  /// `name(args)` after its name token; `current` is the `(`.
  mutating func parseBuiltinCall(name: String, nameToken: ExpressionToken)
    throws(ExpressionSyntaxError) -> Expression
  {
    guard ExpressionSyntax.builtinFunctions.contains(name) else {
      var message = "unknown function '\(name)'"
      if !name.hasSuffix(":"), ExpressionSyntax.builtinFunctions.contains(name + ":") {
        message += "; did you mean '\(name):'?"
      } else {
        message += "; call a method with FUNCTION(target, \"selector:\", …)"
      }
      throw ExpressionSyntaxError(.unknownFunction, message, span: nameToken.span)
    }
    let open = advance()
    let arguments = try parseArguments(opener: open, openerText: name + "(")
    try checkArity(of: name, arguments.count, at: nameToken.span, what: "function")
    return Expression(.function(name: name, arguments: arguments), span: span(from: nameToken.span))
  }

  /// Comma-separated expressions up to the `)` that closes `opener` (already consumed).
  private mutating func parseArguments(opener: ExpressionToken, openerText: String)
    throws(ExpressionSyntaxError) -> [Expression]
  {
    var arguments: [Expression] = []
    if !current.isSymbol(.rightParen) {
      arguments.append(try parseExpression())
      while current.isSymbol(.comma) {
        advance()
        arguments.append(try parseExpression())
      }
    }
    _ = try expectClosing(.rightParen, opener: opener, openerText)
    return arguments
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
  mutating func parseSpecialForm(_ word: String) throws(ExpressionSyntaxError) -> Expression {
    let keyword = advance()
    guard current.isSymbol(.leftParen) else { throw unexpected("'(' after \(word)") }
    let open = advance()
    let opener = word + "("
    let kind: Expression.Kind
    switch word {
    case "FUNCTION":
      let target = try parseExpression()
      try expectComma(after: "the target of FUNCTION")
      let selectorToken = current
      guard case .string(let selector) = selectorToken.kind else {
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
          span: selectorToken.span)
      }
      advance()
      var arguments: [Expression] = []
      while current.isSymbol(.comma) {
        advance()
        arguments.append(try parseExpression())
      }
      _ = try expectClosing(.rightParen, opener: open, opener)
      try checkArity(of: selector, arguments.count, at: selectorToken.span, what: "selector")
      kind = .selector(target: target, selector: selector, arguments: arguments)
    case "FETCH":
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
      _ = try expectClosing(.rightParen, opener: open, opener)
      kind = .fetch(request: request, context: context, countOnly: countOnly)
    case "CAST":
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
      _ = try expectClosing(.rightParen, opener: open, opener)
      kind = .cast(value: value, type: type)
    case "TERNARY":
      let condition = try parsePredicateArgument()
      try expectComma(after: "the condition of TERNARY")
      let then = try parseExpression()
      try expectComma(after: "the second argument of TERNARY")
      let else_ = try parseExpression()
      _ = try expectClosing(.rightParen, opener: open, opener)
      kind = .ternary(condition: condition, then: then, else: else_)
    default:  // SUBQUERY
      let collection = try parseExpression()
      try expectComma(after: "the collection of SUBQUERY")
      guard case .variable(let variable) = current.kind else {
        throw unexpected("a variable such as '$x' as the second argument of SUBQUERY")
      }
      advance()
      try expectComma(after: "the variable of SUBQUERY")
      let predicate = try parsePredicateArgument()
      _ = try expectClosing(.rightParen, opener: open, opener)
      kind = .subquery(collection: collection, variable: variable, predicate: predicate)
    }
    return Expression(kind, span: span(from: keyword.span))
  }

  private mutating func expectComma(after what: String) throws(ExpressionSyntaxError) {
    guard current.isSymbol(.comma) else { throw unexpected("',' after \(what)") }
    advance()
  }
}
