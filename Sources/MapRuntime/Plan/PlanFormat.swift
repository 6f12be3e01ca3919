/// Constants of the `.cdm` plan format (`Specs/plan-format.md`), shared by `PlanWriter`
/// (MapCompiler) and `PlanReader` so the two cannot drift apart.
import Crypto

package enum PlanFormat {
  /// `\x89 C D M \r \n \x1a \n`: a non-ASCII first byte, then line-ending and end-of-file
  /// bytes that text-mode transfers mangle, as PNG does.
  package static let magic: [UInt8] = [0x89, 0x43, 0x44, 0x4D, 0x0D, 0x0A, 0x1A, 0x0A]
  /// The format version this mapc writes and the only one it reads.
  package static let version: UInt16 = 1
  /// Flags this mapc understands (none in version 1).
  package static let knownFlags: UInt16 = 0
  /// magic (8) + version (2) + flags (2) + body length (8) + SHA-256 of the body (32).
  package static let headerSize = 52
  /// Deepest nesting of expression and predicate nodes a plan may hold; the reader refuses
  /// deeper trees, so the compiler must reject them before writing.
  package static let maximumExpressionDepth = 256

  /// SHA-256 of a plan body, as the header records it.
  package static func checksum(of body: some Collection<UInt8>) -> [UInt8] {
    Array(SHA256.hash(data: Array(body)))
  }

  /// How deeply expression and predicate nodes nest (a lone constant is 1). The compiler
  /// refuses expressions deeper than `maximumExpressionDepth` before writing a plan.
  package static func nestingDepth(of expression: Expression) -> Int {
    let e = nestingDepth(of:) as (Expression) -> Int
    let p = nestingDepth(of:) as (Predicate) -> Int
    let below: Int
    switch expression.kind {
    case .constant, .evaluatedObject, .variable: below = 0
    case .keyPath(let base, _), .cast(let base, _), .assignment(_, let base): below = e(base)
    case .index(let base, let sub):
      if case .expression(let x) = sub { below = max(e(base), e(x)) } else { below = e(base) }
    case .function(_, let arguments), .aggregate(let arguments): below = arguments.map(e).max() ?? 0
    case .selector(let target, _, let arguments): below = max(e(target), arguments.map(e).max() ?? 0)
    case .fetch(let request, let context, _): below = max(e(request), e(context))
    case .ternary(let condition, let then, let otherwise): below = max(p(condition), e(then), e(otherwise))
    case .subquery(let collection, _, let predicate): below = max(e(collection), p(predicate))
    case .setOperation(_, let lhs, let rhs): below = max(e(lhs), e(rhs))
    }
    return below + 1
  }

  package static func nestingDepth(of predicate: Predicate) -> Int {
    let below: Int
    switch predicate.kind {
    case .constant: below = 0
    case .not(let p): below = nestingDepth(of: p)
    case .and(let ps), .or(let ps): below = ps.map { nestingDepth(of: $0) }.max() ?? 0
    case .comparison(let c): below = max(nestingDepth(of: c.lhs), nestingDepth(of: c.rhs))
    }
    return below + 1
  }

  /// Body sections, in the order they must appear.
  package enum Section: UInt8, CaseIterable, Sendable {
    case strings = 1
    case planInfo = 2
    case sourceModel = 3
    case destinationModel = 4
    case sourceHashes = 5
    case destinationHashes = 6
    case entityMappings = 7
    case predicates = 8

    package var title: String {
      switch self {
      case .strings: "string table"
      case .planInfo: "plan info section"
      case .sourceModel: "source model section"
      case .destinationModel: "destination model section"
      case .sourceHashes: "source hashes section"
      case .destinationHashes: "destination hashes section"
      case .entityMappings: "entity mappings section"
      case .predicates: "predicates section"
      }
    }
  }

  package enum ExpressionTag: UInt8, Sendable {
    case constant = 1
    case evaluatedObject = 2
    case variable = 3
    case keyPath = 4
    case index = 5
    case function = 6
    case selector = 7
    case aggregate = 8
    case fetch = 9
    case cast = 10
    case ternary = 11
    case subquery = 12
    case assignment = 13
    case setOperation = 14
  }

  package enum ConstantTag: UInt8, Sendable {
    case null = 1
    case bool = 2
    case integer = 3
    case double = 4
    case decimal = 5
    case string = 6
  }

  package enum SubscriptTag: UInt8, Sendable {
    case expression = 1
    case first = 2
    case last = 3
    case size = 4
  }

  package enum PredicateTag: UInt8, Sendable {
    case constant = 1
    case not = 2
    case and = 3
    case or = 4
    case comparison = 5
  }

  package enum ModelConstantTag: UInt8, Sendable {
    case integer = 1
    case double = 2
    case decimal = 3
    case boolean = 4
    case string = 5
    case date = 6
    case binary = 7
  }
}

// MARK: - Tags of the plain enums, one table each (Specs/plan-format.md §5)

extension AttributeType {
  package var planTag: UInt8 {
    switch self {
    case .undefined: 1
    case .integer16: 2
    case .integer32: 3
    case .integer64: 4
    case .decimal: 5
    case .double: 6
    case .float: 7
    case .string: 8
    case .boolean: 9
    case .date: 10
    case .binary: 11
    case .uuid: 12
    case .uri: 13
    case .transformable: 14
    case .objectID: 15
    case .composite: 16
    }
  }
  package init?(planTag: UInt8) {
    guard let t = Self.allCases.first(where: { $0.planTag == planTag }) else { return nil }
    self = t
  }
}

extension DeleteRule {
  package var planTag: UInt8 {
    switch self {
    case .noAction: 1
    case .nullify: 2
    case .cascade: 3
    case .deny: 4
    }
  }
  package init?(planTag: UInt8) {
    guard let t = Self.allCases.first(where: { $0.planTag == planTag }) else { return nil }
    self = t
  }
}

extension EntityMappingType {
  /// The `NSEntityMappingType` value (0 … 5).
  package var planTag: UInt8 { UInt8(coreDataCode) }
  package init?(planTag: UInt8) {
    guard let t = Self.allCases.first(where: { $0.planTag == planTag }) else { return nil }
    self = t
  }
}

extension FetchRequestTemplate.ResultType {
  /// The `NSFetchRequestResultType` value (0, 1, 2).
  package var planTag: UInt8 { UInt8(rawValue) }
  package init?(planTag: UInt8) { self.init(rawValue: Int(planTag)) }
}

extension ComparisonOperator {
  package var planTag: UInt8 {
    switch self {
    case .lessThan: 1
    case .lessThanOrEqual: 2
    case .greaterThan: 3
    case .greaterThanOrEqual: 4
    case .equal: 5
    case .notEqual: 6
    case .matches: 7
    case .like: 8
    case .beginsWith: 9
    case .endsWith: 10
    case .in: 11
    case .contains: 12
    case .between: 13
    }
  }
  package init?(planTag: UInt8) {
    guard let t = Self.allCases.first(where: { $0.planTag == planTag }) else { return nil }
    self = t
  }
}

extension ComparisonModifier {
  package var planTag: UInt8 {
    switch self {
    case .direct: 1
    case .any: 2
    case .all: 3
    case .none: 4
    }
  }
  package init?(planTag: UInt8) {
    guard let t = Self.allCases.first(where: { $0.planTag == planTag }) else { return nil }
    self = t
  }
}

extension Expression.SetOperator {
  package var planTag: UInt8 {
    switch self {
    case .union: 1
    case .intersect: 2
    case .minus: 3
    }
  }
  package init?(planTag: UInt8) {
    switch planTag {
    case 1: self = .union
    case 2: self = .intersect
    case 3: self = .minus
    default: return nil
    }
  }
}
