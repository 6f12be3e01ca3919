import MapRuntime

/// Encoding of expression and predicate trees (`Specs/plan-format.md` §8).
/// Keep in step with `PlanReader+Expression.swift` in MapRuntime.
extension PlanEncoder {
  mutating func expression(_ x: Expression) {
    span(x.span)
    expressionKind(x.kind)
  }

  mutating func span(_ s: SourceSpan) {
    let s = sourcePositions ? s : .synthesized
    int(s.start)
    int(s.end)
  }

  mutating func expressions(_ xs: [Expression]) { array(xs) { e, x in e.expression(x) } }

  private mutating func tag(_ t: PlanFormat.ExpressionTag) { out.writeU8(t.rawValue) }

  mutating func expressionKind(_ k: Expression.Kind) {
    switch k {
    case .constant(let c):
      tag(.constant)
      constant(c)
    case .evaluatedObject:
      tag(.evaluatedObject)
    case .variable(let name):
      tag(.variable)
      string(name)
    case .keyPath(let base, let components):
      tag(.keyPath)
      expression(base)
      stringArray(components)
    case .index(let base, let sub):
      tag(.index)
      expression(base)
      subscriptValue(sub)
    case .function(let name, let arguments):
      tag(.function)
      string(name)
      expressions(arguments)
    case .selector(let target, let selector, let arguments):
      tag(.selector)
      expression(target)
      string(selector)
      expressions(arguments)
    case .aggregate(let elements):
      tag(.aggregate)
      expressions(elements)
    case .fetch(let request, let context, let countOnly):
      tag(.fetch)
      expression(request)
      expression(context)
      bool(countOnly)
    case .cast(let value, let type):
      tag(.cast)
      expression(value)
      string(type)
    case .ternary(let condition, let then, let otherwise):
      tag(.ternary)
      predicate(condition)
      expression(then)
      expression(otherwise)
    case .subquery(let collection, let variable, let body):
      tag(.subquery)
      expression(collection)
      string(variable)
      predicate(body)
    case .assignment(let variable, let value):
      tag(.assignment)
      string(variable)
      expression(value)
    case .setOperation(let op, let lhs, let rhs):
      tag(.setOperation)
      out.writeU8(op.planTag)
      expression(lhs)
      expression(rhs)
    }
  }

  mutating func constant(_ c: Expression.Constant) {
    typealias Tag = PlanFormat.ConstantTag
    switch c {
    case .null:
      out.writeU8(Tag.null.rawValue)
    case .bool(let b):
      out.writeU8(Tag.bool.rawValue)
      bool(b)
    case .integer(let i):
      out.writeU8(Tag.integer.rawValue)
      out.writeVarInt(i)
    case .double(let d):
      out.writeU8(Tag.double.rawValue)
      out.writeDouble(d)
    case .decimal(let text):
      out.writeU8(Tag.decimal.rawValue)
      string(text)
    case .string(let s):
      out.writeU8(Tag.string.rawValue)
      string(s)
    }
  }

  mutating func subscriptValue(_ s: Expression.Subscript) {
    typealias Tag = PlanFormat.SubscriptTag
    switch s {
    case .expression(let x):
      out.writeU8(Tag.expression.rawValue)
      expression(x)
    case .first: out.writeU8(Tag.first.rawValue)
    case .last: out.writeU8(Tag.last.rawValue)
    case .size: out.writeU8(Tag.size.rawValue)
    }
  }

  mutating func predicate(_ p: Predicate) {
    span(p.span)
    predicateKind(p.kind)
  }

  mutating func predicateKind(_ k: Predicate.Kind) {
    typealias Tag = PlanFormat.PredicateTag
    switch k {
    case .constant(let b):
      out.writeU8(Tag.constant.rawValue)
      bool(b)
    case .not(let p):
      out.writeU8(Tag.not.rawValue)
      predicate(p)
    case .and(let ps):
      out.writeU8(Tag.and.rawValue)
      array(ps) { e, p in e.predicate(p) }
    case .or(let ps):
      out.writeU8(Tag.or.rawValue)
      array(ps) { e, p in e.predicate(p) }
    case .comparison(let c):
      out.writeU8(Tag.comparison.rawValue)
      comparison(c)
    }
  }

  mutating func comparison(_ c: Comparison) {
    expression(c.lhs)
    out.writeU8(c.op.planTag)
    expression(c.rhs)
    out.writeU8(c.modifier.planTag)
    out.writeU8(c.options.rawValue)
  }
}
