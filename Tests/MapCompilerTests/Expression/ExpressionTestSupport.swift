import MapCompiler
import MapRuntime
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

/// The tree with every Boolean constant replaced by the integer 1 or 0: what the canonical text
/// (which prints `YES` as `1`, as Foundation does) reads back as (Specs/expressions.md §6).
extension Expression {
  var numericBooleans: Expression {
    let n = { (e: Expression) in e.numericBooleans }
    let kind: Kind
    switch self.kind {
    case .constant(.bool(let b)): kind = .constant(.integer(b ? 1 : 0))
    case .constant, .evaluatedObject, .variable: kind = self.kind
    case .keyPath(let base, let components): kind = .keyPath(base: n(base), components: components)
    case .index(let base, let sub):
      if case .expression(let i) = sub {
        kind = .index(base: n(base), .expression(n(i)))
      } else {
        kind = .index(base: n(base), sub)
      }
    case .function(let name, let arguments): kind = .function(name: name, arguments: arguments.map(n))
    case .selector(let target, let selector, let arguments):
      kind = .selector(target: n(target), selector: selector, arguments: arguments.map(n))
    case .aggregate(let elements): kind = .aggregate(elements.map(n))
    case .fetch(let request, let context, let countOnly):
      kind = .fetch(request: n(request), context: n(context), countOnly: countOnly)
    case .cast(let value, let type): kind = .cast(value: n(value), type: type)
    case .ternary(let condition, let then, let else_):
      kind = .ternary(condition: condition.numericBooleans, then: n(then), else: n(else_))
    case .subquery(let collection, let variable, let predicate):
      kind = .subquery(collection: n(collection), variable: variable, predicate: predicate.numericBooleans)
    case .assignment(let variable, let value): kind = .assignment(variable: variable, value: n(value))
    case .setOperation(let op, let a, let b): kind = .setOperation(op, n(a), n(b))
    }
    return Expression(kind, span: span)
  }
}

extension Predicate {
  var numericBooleans: Predicate {
    switch kind {
    case .constant: return self
    case .not(let p): return Predicate(.not(p.numericBooleans), span: span)
    case .and(let ps): return Predicate(.and(ps.map(\.numericBooleans)), span: span)
    case .or(let ps): return Predicate(.or(ps.map(\.numericBooleans)), span: span)
    case .comparison(var c):
      c.lhs = c.lhs.numericBooleans
      c.rhs = c.rhs.numericBooleans
      return Predicate(.comparison(c), span: span)
    }
  }
}
