import MapRuntime

/// The tree with every Boolean constant replaced by the integer 1 or 0: what the canonical text
/// (which prints `YES` as `1`, as Foundation does) reads back as (Specs/expressions.md §6).
extension Expression {
  public var numericBooleans: Expression {
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
  public var numericBooleans: Predicate {
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
