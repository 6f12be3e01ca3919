import MapRuntime

/// Key paths with a variable as a key (`$a.$b`) have no known archived form in Xcode's mapping
/// models (Specs/expressions.md §9), so `mapc export` refuses them.
extension MapRuntime.Expression {
  /// Whether a key path in this tree has a variable as a key.
  var hasVariableKey: Bool {
    switch kind {
    case .constant, .evaluatedObject, .variable: return false
    case .keyPath(let base, let components):
      return components.contains { $0.hasPrefix("$") } || base.hasVariableKey
    case .index(let base, let sub):
      if case .expression(let i) = sub, i.hasVariableKey { return true }
      return base.hasVariableKey
    case .function(_, let arguments), .aggregate(let arguments):
      return arguments.contains { $0.hasVariableKey }
    case .selector(let target, _, let arguments):
      return target.hasVariableKey || arguments.contains { $0.hasVariableKey }
    case .fetch(let request, let context, _): return request.hasVariableKey || context.hasVariableKey
    case .cast(let value, _), .assignment(_, let value): return value.hasVariableKey
    case .ternary(let condition, let then, let else_):
      return condition.hasVariableKey || then.hasVariableKey || else_.hasVariableKey
    case .subquery(let collection, _, let predicate): return collection.hasVariableKey || predicate.hasVariableKey
    case .setOperation(_, let a, let b): return a.hasVariableKey || b.hasVariableKey
    }
  }
}

extension MapRuntime.Predicate {
  var hasVariableKey: Bool {
    switch kind {
    case .constant: return false
    case .not(let p): return p.hasVariableKey
    case .and(let ps), .or(let ps): return ps.contains { $0.hasVariableKey }
    case .comparison(let c): return c.lhs.hasVariableKey || c.rhs.hasVariableKey
    }
  }
}
