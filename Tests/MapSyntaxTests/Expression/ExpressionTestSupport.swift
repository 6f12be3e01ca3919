import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// Short builders for expected trees in expression tests.
enum ExprBuild {
  static let selfObject = Expression(.evaluatedObject)

  static func key(_ components: String...) -> Expression {
    Expression(.keyPath(base: selfObject, components: components))
  }
  static func path(_ base: Expression, _ components: String...) -> Expression {
    Expression(.keyPath(base: base, components: components))
  }
  static func v(_ name: String) -> Expression { .variable(name) }
  static func int(_ value: Int64) -> Expression { .constant(.integer(value)) }
  static func dbl(_ value: Double) -> Expression { .constant(.double(value)) }
  static func dec(_ text: String) -> Expression { .constant(.decimal(text)) }
  static func str(_ value: String) -> Expression { .string(value) }
  static func bool(_ value: Bool) -> Expression { .constant(.bool(value)) }
  static func fn(_ name: String, _ arguments: Expression...) -> Expression {
    Expression(.function(name: name, arguments: arguments))
  }
  static func sel(_ target: Expression, _ selector: String, _ arguments: Expression...) -> Expression {
    Expression(.selector(target: target, selector: selector, arguments: arguments))
  }
  static func index(_ base: Expression, _ sub: Expression.Subscript) -> Expression {
    Expression(.index(base: base, sub))
  }
  static func cmp(
    _ lhs: Expression, _ op: ComparisonOperator, _ rhs: Expression,
    _ modifier: ComparisonModifier = .direct, _ options: ComparisonOptions = []
  ) -> Predicate {
    Predicate(.comparison(Comparison(lhs: lhs, op: op, rhs: rhs, modifier: modifier, options: options)))
  }
}

/// Parses or records an issue and returns nil.
func parsedExpression(
  _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Expression? {
  do {
    return try ExpressionParser.parseExpression(text)
  } catch {
    Issue.record("\(text.prefix(200)) did not parse: \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

func parsedPredicate(
  _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Predicate? {
  do {
    return try ExpressionParser.parsePredicate(text)
  } catch {
    Issue.record("\(text.prefix(200)) did not parse: \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

/// The error parsing `text` gives, or nil (recording an issue) when it parses.
func expressionError(
  _ text: String, predicate: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> ExpressionSyntaxError? {
  do {
    if predicate {
      let p = try ExpressionParser.parsePredicate(text)
      Issue.record("\(text.prefix(200)) parsed as \(p)", sourceLocation: sourceLocation)
    } else {
      let e = try ExpressionParser.parseExpression(text)
      Issue.record("\(text.prefix(200)) parsed as \(e)", sourceLocation: sourceLocation)
    }
  } catch {
    return error
  }
  return nil
}

/// Parses `text`, prints it, parses the print, and checks both trees are equal and the print
/// is a fixed point. Returns the canonical text.
@discardableResult
func checkExpressionRoundTrip(
  _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> String? {
  guard let first = parsedExpression(text, sourceLocation: sourceLocation) else { return nil }
  let printed = first.description
  guard let second = parsedExpression(printed, sourceLocation: sourceLocation) else { return nil }
  #expect(first.numericBooleans == second, "\(text) printed as \(printed)", sourceLocation: sourceLocation)
  #expect(second.description == printed, sourceLocation: sourceLocation)
  return printed
}

@discardableResult
func checkPredicateRoundTrip(
  _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> String? {
  guard let first = parsedPredicate(text, sourceLocation: sourceLocation) else { return nil }
  let printed = first.description
  guard let second = parsedPredicate(printed, sourceLocation: sourceLocation) else { return nil }
  #expect(first.numericBooleans == second, "\(text) printed as \(printed)", sourceLocation: sourceLocation)
  #expect(second.description == printed, sourceLocation: sourceLocation)
  return printed
}
