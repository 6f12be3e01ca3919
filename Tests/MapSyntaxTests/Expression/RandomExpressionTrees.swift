import MapTestSupport
import MapRuntime

/// Random canonical trees (the shapes the parser produces, `Specs/expressions.md` "Canonical
/// trees") of bounded depth, for property tests.
struct RandomExpressionTrees<R: RandomNumberGenerator> {
  var rng: R

  static var keys: [String] {
    [
      "a", "b", "name", "title", "_x", "x1", "naïve", "größe", "size", "first", "AND", "Self", "in",
      "count", "nilValue", "subquery",
    ]
  }
  static var variables: [String] { ["source", "manager", "x", "in", "SELF", "item", "index", "é"] }
  static var types: [String] { ["NSDate", "NSNumber", "NSString", "Class", "NSDecimalNumber"] }
  static var selectors: [String] {
    [
      "valueForKey:", "uuid", "dateFromString:format:", "a:b:c:", "sourceContext",
      "destinationInstancesForEntityMappingNamed:sourceInstances:",
    ]
  }
  static var stringPieces: [String] {
    [
      "a", "Z", "'", "\"", "\\", "\n", "\t", "\r", "\u{1}", "\u{7F}", "é", "🎸", "%@", " ", "e\u{301}", "$x",
      "\u{2028}", "\u{0}",
    ]
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
  mutating func pick<T>(_ list: [T]) -> T { list[int(0...(list.count - 1))] }

  mutating func digits(_ count: Int) -> String {
    String((0..<count).map { _ in Character(String(int(0...9))) })
  }

  mutating func constant() -> Expression.Constant {
    switch int(0...9) {
    case 0: return .null
    case 1: return .bool(chance(0.5))
    case 2: return .integer(Int64(int(-1000...1000)))
    case 3: return .integer(Int64.random(in: .min ... .max, using: &rng))
    case 4: return .integer(pick([.min, .max, 0, -1]))
    case 5:
      let value = Double(bitPattern: UInt64.random(in: .min ... .max, using: &rng))
      return .double(value.isFinite ? value : 0.5)
    case 6:
      return .double(
        pick([0.1, 32.0, 1.8, -2.5, 1e100, .leastNonzeroMagnitude, 1.7976931348623157e308, 1e16, 1e15, 123456.789]))
    case 7:
      // More digits than a Double keeps, or beyond Int64: stays exact text.
      let sign = chance(0.3) ? "-" : ""
      switch int(0...2) {
      case 0: return .decimal(sign + String(int(1...9)) + digits(int(19...30)))
      case 1: return .decimal(sign + digits(int(1...3)) + "." + digits(int(20...25)) + String(int(1...9)))
      default:
        return .decimal(sign + String(int(1...9)) + "." + digits(20) + String(int(1...9)) + "e" + String(int(-50...50)))
      }
    default:
      return .string((0..<int(0...6)).map { _ in pick(Self.stringPieces) }.joined())
    }
  }

  mutating func leaf() -> Expression {
    switch int(0...5) {
    case 0: return Expression(.evaluatedObject)
    case 1: return .variable(pick(Self.variables))
    case 2: return Expression(.keyPath(base: Expression(.evaluatedObject), components: components()))
    default: return .constant(constant())
    }
  }

  mutating func components() -> [String] {
    (0..<int(1...3)).map { _ in
      chance(0.2) ? pick(ExpressionSyntax.collectionOperators.sorted()) : pick(Self.keys)
    }
  }

  mutating func list(_ range: ClosedRange<Int>, depth: Int) -> [Expression] {
    (0..<int(range)).map { _ in expression(depth: depth - 1) }
  }

  mutating func expression(depth: Int) -> Expression {
    guard depth > 0, chance(0.85) else { return leaf() }
    switch int(0...13) {
    case 0:
      var base = expression(depth: depth - 1)
      if case .keyPath = base.kind { base = Expression(.evaluatedObject) }
      return Expression(.keyPath(base: base, components: components()))
    case 1:
      let sub: Expression.Subscript =
        switch int(0...4) {
        case 0: .first
        case 1: .last
        case 2: .size
        default: .expression(expression(depth: depth - 1))
        }
      return Expression(.index(base: expression(depth: depth - 1), sub))
    case 2, 3:
      let name = pick(ExpressionSyntax.arithmeticOperators.keys.sorted())
      return Expression(.function(name: name, arguments: list(2...2, depth: depth)))
    case 4:
      let name = pick(ExpressionSyntax.builtinFunctions.sorted())
      let arity = ExpressionSyntax.arity(ofSelector: name)
      return Expression(.function(name: name, arguments: list(arity...arity, depth: depth)))
    case 5:
      let selector = pick(Self.selectors)
      let arity = ExpressionSyntax.arity(ofSelector: selector)
      return Expression(
        .selector(
          target: expression(depth: depth - 1), selector: selector,
          arguments: list(arity...arity, depth: depth)))
    case 6:
      return Expression(.aggregate(list(0...3, depth: depth)))
    case 7:
      return Expression(
        .fetch(
          request: expression(depth: depth - 1), context: expression(depth: depth - 1),
          countOnly: chance(0.5)))
    case 8:
      return Expression(.cast(value: expression(depth: depth - 1), type: pick(Self.types)))
    case 9:
      return Expression(
        .ternary(
          condition: predicate(depth: depth - 1), then: expression(depth: depth - 1),
          else: expression(depth: depth - 1)))
    case 10:
      return Expression(
        .subquery(
          collection: expression(depth: depth - 1), variable: pick(Self.variables),
          predicate: predicate(depth: depth - 1)))
    case 11:
      return Expression(.assignment(variable: pick(Self.variables), value: expression(depth: depth - 1)))
    case 12:
      return Expression(
        .setOperation(
          pick([.union, .intersect, .minus]), expression(depth: depth - 1), expression(depth: depth - 1)))
    default:
      return leaf()
    }
  }

  mutating func predicate(depth: Int) -> Predicate {
    guard depth > 0 else { return Predicate(.constant(chance(0.5))) }
    switch int(0...7) {
    case 0: return Predicate(.constant(chance(0.5)))
    case 1: return Predicate(.not(predicate(depth: depth - 1)))
    case 2: return Predicate(.and(chain(of: depth, or: false)))
    case 3: return Predicate(.or(chain(of: depth, or: true)))
    default:
      let op = pick(ComparisonOperator.allCases)
      var options: ComparisonOptions = []
      if op.acceptsOptions, chance(0.4) { options = ComparisonOptions(rawValue: UInt8(int(1...7))) }
      return Predicate(
        .comparison(
          Comparison(
            lhs: expression(depth: depth - 1), op: op, rhs: expression(depth: depth - 1),
            modifier: pick([.direct, .any, .all]), options: options)))
    }
  }

  /// Operands of a canonical AND / OR: the first is not a chain of the same kind (the parser
  /// continues `(p AND q) AND r` as one chain); NONE is not a modifier (it parses as NOT ANY).
  private mutating func chain(of depth: Int, or: Bool) -> [Predicate] {
    var list = (0..<int(2...4)).map { _ in predicate(depth: depth - 1) }
    if Self.isChain(list[0], or: or) { list[0] = Predicate(.not(list[0])) }
    return list
  }

  static func isChain(_ p: Predicate, or: Bool) -> Bool {
    switch p.kind {
    case .and: !or
    case .or: or
    default: false
    }
  }
}

extension Expression {
  /// The expressions directly inside this one (for shrinking failed property cases).
  var children: [Expression] {
    switch kind {
    case .constant, .evaluatedObject, .variable: []
    case .keyPath(let base, _): [base]
    case .index(let base, .expression(let i)): [base, i]
    case .index(let base, _): [base]
    case .function(_, let arguments), .aggregate(let arguments): arguments
    case .selector(let target, _, let arguments): [target] + arguments
    case .fetch(let request, let context, _): [request, context]
    case .cast(let value, _): [value]
    case .ternary(_, let a, let b): [a, b]
    case .subquery(let collection, _, _): [collection]
    case .assignment(_, let value): [value]
    case .setOperation(_, let a, let b): [a, b]
    }
  }
}

extension Predicate {
  var children: [Predicate] {
    switch kind {
    case .constant, .comparison: []
    case .not(let p): [p]
    case .and(let list), .or(let list): list
    }
  }
}

/// Trees of an exact height: a random chain of node kinds, each holding the chain so far in a
/// random place and leaves elsewhere. They reach the height limit with every kind of nesting.
extension RandomExpressionTrees {
  mutating func spine(height target: Int) -> Expression {
    var e: Expression = .constant(constant())
    var p: Predicate? = nil  // when set, the chain's top is this predicate
    while true {
      if let predicate = p {
        if predicate.height == target - 1 || chance(0.5) {
          e =
            chance(0.5)
            ? Expression(.ternary(condition: predicate, then: leaf(), else: leaf()))
            : Expression(.subquery(collection: leaf(), variable: "x", predicate: predicate))
          p = nil
        } else {
          switch int(0...2) {
          case 0: p = Predicate(.not(predicate))
          case 1:
            let left = chance(0.5) && !Self.isChain(predicate, or: false)
            p = Predicate(.and(left ? [predicate, .truePredicate] : [.truePredicate, predicate]))
          default:
            let left = chance(0.5) && !Self.isChain(predicate, or: true)
            p = Predicate(.or(left ? [predicate, .truePredicate] : [.truePredicate, predicate]))
          }
        }
      } else {
        if e.height == target { return e }
        if e.height < target - 1, chance(0.15) {
          p = Predicate(.comparison(Comparison(lhs: e, op: .equal, rhs: leaf())))
          continue
        }
        e = wrap(e)
      }
    }
  }

  /// `child` inside a new node one level higher.
  private mutating func wrap(_ child: Expression) -> Expression {
    switch int(0...11) {
    case 0:
      if case .keyPath = child.kind { return Expression(.index(base: child, .last)) }
      return Expression(.keyPath(base: child, components: components()))
    case 1: return Expression(.index(base: leaf(), .expression(child)))
    case 2:
      let name = pick(ExpressionSyntax.arithmeticOperators.keys.sorted())
      return Expression(.function(name: name, arguments: chance(0.5) ? [child, leaf()] : [leaf(), child]))
    case 3: return Expression(.function(name: "abs:", arguments: [child]))
    case 4: return Expression(.selector(target: child, selector: "valueForKey:", arguments: [leaf()]))
    case 5: return Expression(.aggregate([leaf(), child]))
    case 6: return Expression(.fetch(request: leaf(), context: child, countOnly: false))
    case 7: return Expression(.cast(value: child, type: "NSDate"))
    case 8: return Expression(.assignment(variable: "v", value: child))
    case 9:
      return Expression(.setOperation(.union, chance(0.5) ? child : leaf(), chance(0.5) ? leaf() : child))
    case 10: return Expression(.ternary(condition: .truePredicate, then: leaf(), else: child))
    default: return Expression(.index(base: child, .expression(leaf())))
    }
  }
}

extension Expression {
  /// 1 for a node without children, else 1 more than the highest child (predicates included).
  var height: Int {
    switch kind {
    case .ternary(let condition, _, _): 1 + max(condition.height, children.map(\.height).max() ?? 0)
    case .subquery(_, _, let predicate): 1 + max(predicate.height, children.map(\.height).max() ?? 0)
    default: 1 + (children.map(\.height).max() ?? 0)
    }
  }
}

extension Predicate {
  var height: Int {
    if case .comparison(let c) = kind { return 1 + max(c.lhs.height, c.rhs.height) }
    return 1 + (children.map(\.height).max() ?? 0)
  }
}
