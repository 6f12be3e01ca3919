/// Visiting every node of an expression tree, predicates included.
package enum ExpressionWalk {
  /// Calls `visit` for `e` and every expression inside it, parents first.
  package static func each(_ e: Expression, _ visit: (Expression) -> Void) {
    visit(e)
    switch e.kind {
    case .constant, .evaluatedObject, .variable: break
    case .keyPath(let base, _): each(base, visit)
    case .index(let base, let sub):
      each(base, visit)
      if case .expression(let i) = sub { each(i, visit) }
    case .function(_, let args), .aggregate(let args): for a in args { each(a, visit) }
    case .selector(let target, _, let args):
      each(target, visit)
      for a in args { each(a, visit) }
    case .fetch(let request, let context, _):
      each(request, visit)
      each(context, visit)
    case .cast(let value, _): each(value, visit)
    case .ternary(let condition, let a, let b):
      each(condition, visit)
      each(a, visit)
      each(b, visit)
    case .subquery(let collection, _, let predicate):
      each(collection, visit)
      each(predicate, visit)
    case .assignment(_, let value): each(value, visit)
    case .setOperation(_, let a, let b):
      each(a, visit)
      each(b, visit)
    }
  }

  package static func each(_ p: Predicate, _ visit: (Expression) -> Void) {
    switch p.kind {
    case .constant: break
    case .not(let inner): each(inner, visit)
    case .and(let parts), .or(let parts): for x in parts { each(x, visit) }
    case .comparison(let c):
      each(c.lhs, visit)
      each(c.rhs, visit)
    }
  }

  /// `$source.k1.k2…`: the components after `$source`, or nil for any other expression.
  package static func sourceKeyPath(_ e: Expression) -> [String]? {
    guard case .keyPath(let base, let components) = e.kind, case .variable("source") = base.kind else { return nil }
    return components
  }

  /// The string literal arguments of `FUNCTION($manager, selector, …)` calls.
  package static func managerCalls(in e: Expression, selector: String) -> [(name: String, span: SourceSpan)] {
    var result: [(String, SourceSpan)] = []
    each(e) { x in
      if case .selector(let target, let s, let args) = x.kind, s == selector, case .variable("manager") = target.kind,
        let first = args.first, case .constant(.string(let name)) = first.kind
      {
        result.append((name, first.span))
      }
    }
    return result
  }
}
