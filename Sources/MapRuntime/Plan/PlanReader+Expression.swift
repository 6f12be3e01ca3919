/// Decoding of expression and predicate trees (`Specs/plan-format.md` §8). Nesting is bounded
/// by `PlanFormat.maximumExpressionDepth`, so hostile plans cannot exhaust the stack.
/// Keep in step with `PlanWriter+Expression.swift` in MapCompiler.
extension PlanDecoder {
  private mutating func enterNode() throws(BinaryReadError) {
    depth += 1
    if depth > PlanFormat.maximumExpressionDepth {
      throw r.error("expression nesting is deeper than \(PlanFormat.maximumExpressionDepth)")
    }
  }

  mutating func expression() throws(BinaryReadError) -> Expression {
    try enterNode()
    defer { depth -= 1 }
    let span = try span()
    let kind = try expressionKind()
    return Expression(kind, span: span)
  }

  mutating func span() throws(BinaryReadError) -> SourceSpan {
    let start = try int("span start")
    let end = try int("span end")
    return SourceSpan(start: start, end: end)
  }

  mutating func expressions(_ what: String) throws(BinaryReadError) -> [Expression] {
    try array(what) { (d) throws(BinaryReadError) in try d.expression() }
  }

  mutating func expressionKind() throws(BinaryReadError) -> Expression.Kind {
    switch try tag("expression", PlanFormat.ExpressionTag.init(rawValue:)) {
    case .constant:
      return .constant(try constant())
    case .evaluatedObject:
      return .evaluatedObject
    case .variable:
      return .variable(try string("variable name"))
    case .keyPath:
      let base = try expression()
      return .keyPath(base: base, components: try stringArray("key path components"))
    case .index:
      let base = try expression()
      return .index(base: base, try subscriptValue())
    case .function:
      let name = try string("function name")
      return .function(name: name, arguments: try expressions("function arguments"))
    case .selector:
      let target = try expression()
      let selector = try string("selector")
      return .selector(target: target, selector: selector, arguments: try expressions("selector arguments"))
    case .aggregate:
      return .aggregate(try expressions("aggregate elements"))
    case .fetch:
      let request = try expression()
      let context = try expression()
      return .fetch(request: request, context: context, countOnly: try bool("countOnly"))
    case .cast:
      let value = try expression()
      return .cast(value: value, type: try string("cast type"))
    case .ternary:
      let condition = try predicate()
      let then = try expression()
      return .ternary(condition: condition, then: then, else: try expression())
    case .subquery:
      let collection = try expression()
      let variable = try string("subquery variable")
      return .subquery(collection: collection, variable: variable, predicate: try predicate())
    case .assignment:
      let variable = try string("assigned variable")
      return .assignment(variable: variable, value: try expression())
    case .setOperation:
      let op = try tag("set operator", Expression.SetOperator.init(planTag:))
      let lhs = try expression()
      return .setOperation(op, lhs, try expression())
    }
  }

  mutating func constant() throws(BinaryReadError) -> Expression.Constant {
    switch try tag("constant", PlanFormat.ConstantTag.init(rawValue:)) {
    case .null: return .null
    case .bool: return .bool(try bool("boolean constant"))
    case .integer: return .integer(try r.readVarInt("integer constant"))
    case .double: return .double(try r.readDouble("double constant"))
    case .decimal: return .decimal(try string("decimal constant"))
    case .string: return .string(try string("string constant"))
    }
  }

  mutating func subscriptValue() throws(BinaryReadError) -> Expression.Subscript {
    switch try tag("subscript", PlanFormat.SubscriptTag.init(rawValue:)) {
    case .expression: return .expression(try expression())
    case .first: return .first
    case .last: return .last
    case .size: return .size
    }
  }

  mutating func predicate() throws(BinaryReadError) -> Predicate {
    try enterNode()
    defer { depth -= 1 }
    let span = try span()
    let kind = try predicateKind()
    return Predicate(kind, span: span)
  }

  mutating func predicateKind() throws(BinaryReadError) -> Predicate.Kind {
    switch try tag("predicate", PlanFormat.PredicateTag.init(rawValue:)) {
    case .constant: return .constant(try bool("predicate constant"))
    case .not: return .not(try predicate())
    case .and: return .and(try predicates("AND operands"))
    case .or: return .or(try predicates("OR operands"))
    case .comparison: return .comparison(try comparison())
    }
  }

  mutating func predicates(_ what: String) throws(BinaryReadError) -> [Predicate] {
    try array(what) { (d) throws(BinaryReadError) in try d.predicate() }
  }

  mutating func comparison() throws(BinaryReadError) -> Comparison {
    let lhs = try expression()
    let op = try tag("comparison operator", ComparisonOperator.init(planTag:))
    let rhs = try expression()
    let modifier = try tag("comparison modifier", ComparisonModifier.init(planTag:))
    let options = ComparisonOptions(rawValue: try r.readU8("comparison options"))
    return Comparison(lhs: lhs, op: op, rhs: rhs, modifier: modifier, options: options)
  }
}
