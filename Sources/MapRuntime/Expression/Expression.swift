/// An NSExpression, as mapping models write them (`$source.date`, `FUNCTION(…)`, `FETCH(…)`).
///
/// The tree is a value: `kind` says what the node is, `span` where its text was. Equality and
/// hashing look at `kind` only. The grammar and the canonical printed form are specified in
/// `Specs/expressions.md`.
public struct Expression: Sendable, Hashable, Codable {
  public var kind: Kind
  public var span: SourceSpan

  public init(_ kind: Kind, span: SourceSpan = .synthesized) {
    self.kind = kind
    self.span = span
  }

  public indirect enum Kind: Sendable, Hashable, Codable {
    /// A literal: string, number, boolean or nil.
    case constant(Constant)
    /// `SELF`: the object the expression is evaluated against.
    case evaluatedObject
    /// `$name`.
    case variable(String)
    /// `base.k1.k2…`. A bare key path such as `name` has base `.evaluatedObject`. Components
    /// may be collection operators (`@count`, `@sum`, `@distinctUnionOfSets`, …).
    case keyPath(base: Expression, components: [String])
    /// `base[index]`, `base[FIRST]`, `base[LAST]`, `base[SIZE]`.
    case index(base: Expression, Subscript)
    /// A built-in function: `name:(args)` syntax, and arithmetic, which is stored under its
    /// selector (`a + b` is `add:to:` with `[a, b]`, unary minus is `from:subtract:` with `[0, x]`
    /// unless it folds into a numeric literal). The name keeps its colons (`uppercase:`, `now`).
    case function(name: String, arguments: [Expression])
    /// `FUNCTION(target, "selector:", args…)`: a method called on an object
    /// (`$manager`, `$entityPolicy`, `$source`, …).
    case selector(target: Expression, selector: String, arguments: [Expression])
    /// `{a, b, …}`.
    case aggregate([Expression])
    /// `FETCH(request, context, countOnly)`.
    case fetch(request: Expression, context: Expression, countOnly: Bool)
    /// `CAST(value, "NSDate" | "NSNumber" | "NSString" | …)`.
    case cast(value: Expression, type: String)
    /// `TERNARY(predicate, then, else)`.
    case ternary(condition: Predicate, then: Expression, else: Expression)
    /// `SUBQUERY(collection, $variable, predicate)`; the variable name is stored without `$`.
    case subquery(collection: Expression, variable: String, predicate: Predicate)
    /// `$name := value`.
    case assignment(variable: String, value: Expression)
    /// Set arithmetic: `a UNION b`, `a INTERSECT b`, `a MINUS b`.
    case setOperation(SetOperator, Expression, Expression)
  }

  public enum Constant: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// A numeric literal too large for `Int64` or written with more digits than a `Double`
    /// keeps; the text is kept exactly.
    case decimal(String)
    case string(String)
  }

  public enum Subscript: Sendable, Hashable, Codable {
    case expression(Expression)
    case first
    case last
    case size
  }

  public enum SetOperator: String, Sendable, Hashable, Codable {
    case union = "UNION"
    case intersect = "INTERSECT"
    case minus = "MINUS"
  }

  public static func == (lhs: Expression, rhs: Expression) -> Bool { lhs.kind == rhs.kind }
  public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

extension Expression {
  public static func constant(_ c: Constant, span: SourceSpan = .synthesized) -> Expression {
    Expression(.constant(c), span: span)
  }
  public static func variable(_ name: String, span: SourceSpan = .synthesized) -> Expression {
    Expression(.variable(name), span: span)
  }
  public static func string(_ s: String, span: SourceSpan = .synthesized) -> Expression {
    Expression(.constant(.string(s)), span: span)
  }
  public static let null = Expression(.constant(.null))
}
