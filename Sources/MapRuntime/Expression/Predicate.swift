/// An NSPredicate: filters, `FETCH` predicate strings, `TERNARY` conditions, `SUBQUERY` bodies.
/// Equality and hashing look at `kind` only.
public struct Predicate: Sendable, Hashable, Codable {
  public var kind: Kind
  public var span: SourceSpan

  public init(_ kind: Kind, span: SourceSpan = .synthesized) {
    self.kind = kind
    self.span = span
  }

  public indirect enum Kind: Sendable, Hashable, Codable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    case not(Predicate)
    /// Two or more operands.
    case and([Predicate])
    /// Two or more operands.
    case or([Predicate])
    case comparison(Comparison)
  }

  public static func == (lhs: Predicate, rhs: Predicate) -> Bool { lhs.kind == rhs.kind }
  public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

  public static let truePredicate = Predicate(.constant(true))
}

/// `lhs op rhs`, possibly with an `ANY`/`ALL`/`NONE` modifier and `[cdn]` options.
public struct Comparison: Sendable, Hashable, Codable {
  public var lhs: Expression
  public var op: ComparisonOperator
  public var rhs: Expression
  public var modifier: ComparisonModifier
  public var options: ComparisonOptions

  public init(
    lhs: Expression, op: ComparisonOperator, rhs: Expression,
    modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
  ) {
    self.lhs = lhs
    self.op = op
    self.rhs = rhs
    self.modifier = modifier
    self.options = options
  }
}

public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
  case lessThan = "<"
  case lessThanOrEqual = "<="
  case greaterThan = ">"
  case greaterThanOrEqual = ">="
  case equal = "=="
  case notEqual = "!="
  case matches = "MATCHES"
  case like = "LIKE"
  case beginsWith = "BEGINSWITH"
  case endsWith = "ENDSWITH"
  case `in` = "IN"
  case contains = "CONTAINS"
  case between = "BETWEEN"

  /// True for the operators that take `[c]`, `[d]`, `[n]` options.
  public var acceptsOptions: Bool {
    switch self {
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between: false
    default: true
    }
  }
}

public enum ComparisonModifier: String, Sendable, Hashable, Codable, CaseIterable {
  case direct = ""
  case any = "ANY"
  case all = "ALL"
  case none = "NONE"
}

/// `[c]` case-insensitive, `[d]` diacritic-insensitive, `[n]` normalized.
public struct ComparisonOptions: OptionSet, Sendable, Hashable, Codable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let caseInsensitive = ComparisonOptions(rawValue: 1)
  public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
  public static let normalized = ComparisonOptions(rawValue: 4)
}
