import MapRuntime

/// What the expressions of an entity mapping can read: every name they mention (key path
/// components and string constants, which is how `FUNCTION` calls name properties) and the key
/// paths that start at `$source`. A conservative over-approximation: a property mentioned
/// anywhere counts as read.
struct ExpressionReads: Sendable {
  var names: Set<String> = []
  /// Key paths rooted at `$source`, without the `$source` itself.
  var sourcePaths: [[String]] = []

  /// Reads of `expressions`, following predicate strings through `predicates` (by text).
  init(_ expressions: [Expression], predicates: [String: Predicate]) {
    // Each name is looked up as a predicate once, when it is first read (looking every name up
    // again after each expression was quadratic: 20,000 attributes took 30 s).
    var pending = expressions
    var fresh: [String] = []
    while let e = pending.popLast() {
      visit(e, into: &pending, fresh: &fresh)
      for n in fresh {
        if let p = predicates[n] { pending += Self.operands(p) }
      }
      fresh.removeAll(keepingCapacity: true)
    }
  }

  private mutating func read(_ name: String, _ fresh: inout [String]) {
    if names.insert(name).inserted { fresh.append(name) }
  }

  private mutating func visit(_ e: Expression, into pending: inout [Expression], fresh: inout [String]) {
    switch e.kind {
    case .constant(.string(let s)): read(s, &fresh)
    case .constant, .evaluatedObject, .variable: break
    case .keyPath(let base, let components):
      for c in components { read(c, &fresh) }
      if case .variable("source") = base.kind { sourcePaths.append(components) }
      pending.append(base)
    case .index(let base, let position):
      pending.append(base)
      if case .expression(let i) = position { pending.append(i) }
    case .function(_, let arguments): pending += arguments
    case .selector(let target, _, let arguments): pending += [target] + arguments
    case .aggregate(let elements): pending += elements
    case .fetch(let request, let context, _): pending += [request, context]
    case .cast(let value, _): pending.append(value)
    case .ternary(let condition, let then, let otherwise): pending += Self.operands(condition) + [then, otherwise]
    case .subquery(let collection, _, let predicate): pending += [collection] + Self.operands(predicate)
    case .assignment(_, let value): pending.append(value)
    case .setOperation(_, let a, let b): pending += [a, b]
    }
  }

  /// The expressions a predicate compares.
  static func operands(_ p: Predicate) -> [Expression] {
    switch p.kind {
    case .constant: []
    case .not(let q): operands(q)
    case .and(let qs), .or(let qs): qs.flatMap(operands)
    case .comparison(let c): [c.lhs, c.rhs]
    }
  }
}
