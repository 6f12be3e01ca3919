import Foundation

extension MigrationContext {
  /// NSPredicate equality: numbers by value (1 == 1.0 == YES), strings by characters, dates by
  /// time, objects by identity, collections element-wise.
  func equal(_ a: Value, _ b: Value, options: ComparisonOptions = []) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.null, _), (_, .null): return false
    case (.string(let x), .string(let y)):
      if options.isEmpty, case .slice(let sx) = x, case .slice(let sy) = y, !sx.hasEscapes, !sy.hasEscapes,
        let input = source.input
      {
        return sx.count == sy.count && input.buffer(sx).elementsEqual(input.buffer(sy))
      }
      return fold(string(x), options) == fold(string(y), options)
    case (.date(let x), .date(let y)): return x == y
    case (.sourceObject(let x), .sourceObject(let y)): return x == y
    case (.destinationObject(let x), .destinationObject(let y)): return x == y
    case (.data(let x), .data(let y)): return x == y
    case (.transformable(let x), _) where unreadable(x) != nil:
      // Not nil and not known: equal only to itself (`compare` refuses such a value).
      if case .transformable(let y) = b { return x.start == y.start }
      return false
    case (_, .transformable(let y)) where unreadable(y) != nil:
      return false
    case (.transformable(let x), _):
      return equal((try? transformableValue(x)) ?? .null, b, options: options)
    case (_, .transformable(let y)):
      return equal(a, (try? transformableValue(y)) ?? .null, options: options)
    case (.array(let xs), .array(let ys)):
      return xs.count == ys.count && zip(xs, ys).allSatisfy { equal($0, $1, options: options) }
    case (.dictionary(let xs), .dictionary(let ys)):
      return xs.count == ys.count
        && zip(xs, ys).allSatisfy { $0.0 == $1.0 && equal($0.1, $1.1, options: options) }
    default:
      if let x = number(a), let y = number(b) { return x == y }
      return false
    }
  }

  /// Ordering for `<`, `>`, BETWEEN and sorting: numbers, strings, dates. nil when unordered.
  func order(_ a: Value, _ b: Value, options: ComparisonOptions = []) -> Int? {
    switch (a, b) {
    case (.string(let x), .string(let y)):
      let sx = fold(string(x), options)
      let sy = fold(string(y), options)
      return sx < sy ? -1 : (sx == sy ? 0 : 1)
    case (.date(let x), .date(let y)):
      return x < y ? -1 : (x == y ? 0 : 1)
    case (.int(let x), .int(let y)):
      return x < y ? -1 : (x == y ? 0 : 1)
    default:
      guard let x = number(a), let y = number(b) else { return nil }
      return x < y ? -1 : (x == y ? 0 : 1)
    }
  }

  /// A number as a Double (Booleans are numbers, as NSNumber makes them).
  func number(_ v: Value) -> Double? {
    switch v {
    case .int(let i): Double(i)
    case .double(let d): d
    case .bool(let b): b ? 1 : 0
    case .decimal(let s): Double(s)
    default: nil
    }
  }

  func fold(_ s: String, _ options: ComparisonOptions) -> String {
    var o: String.CompareOptions = []
    if options.contains(.caseInsensitive) { o.insert(.caseInsensitive) }
    if options.contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
    var r = o.isEmpty ? s : s.folding(options: o, locale: nil)
    if options.contains(.normalized) || !o.isEmpty { r = r.precomposedStringWithCanonicalMapping }
    return r
  }

  /// One comparison of two values (no ANY/ALL modifier).
  func compare(_ l: Value, _ op: ComparisonOperator, _ r: Value, _ options: ComparisonOptions) throws(MigrationError)
    -> Bool
  {
    // A value kept in a file that is missing is not nil, and nothing else is known of it.
    if !((op == .equal || op == .notEqual) && (l.isNull || r.isNull)) {
      try requireReadable(l)
      try requireReadable(r)
    }
    switch op {
    case .equal: return equal(l, r, options: options)
    case .notEqual: return !equal(l, r, options: options)
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
      if l.isNull || r.isNull { return false }
      guard let c = order(l, r, options: options) else {
        // Foundation raises: the values have no `compare:` with each other.
        throw MigrationError("run-type-mismatch", "cannot order \(describe(l)) and \(describe(r)) with \(op.rawValue)")
      }
      switch op {
      case .lessThan: return c < 0
      case .lessThanOrEqual: return c <= 0
      case .greaterThan: return c > 0
      default: return c >= 0
      }
    case .between:
      if l.isNull { return false }
      let bounds = try elements(r)
      guard bounds.count == 2 else {
        throw MigrationError("run-type-mismatch", "BETWEEN needs two bounds {lower, upper}, got \(describe(r))")
      }
      guard let lo = order(l, bounds[0]), let hi = order(l, bounds[1]) else { return false }
      return lo >= 0 && hi <= 0
    case .in:
      switch r {
      case .string(let t):
        guard case .string(let lt) = l else {
          if l.isNull { return false }
          throw notAString(l, op, r)
        }
        return fold(string(t), options).contains(fold(string(lt), options))
      case .null: return false
      default:
        return try elements(r).contains { equal(l, $0, options: options) }
      }
    case .contains:
      switch l {
      case .string(let t):
        guard case .string(let rt) = r else {
          if r.isNull { return false }
          throw notAString(l, op, r)
        }
        return fold(string(t), options).contains(fold(string(rt), options))
      case .null: return false
      default: return try elements(l).contains { equal($0, r, options: options) }
      }
    case .beginsWith, .endsWith, .like, .matches:
      if l.isNull || r.isNull { return false }
      guard case .string(let lt) = l, case .string(let rt) = r else { throw notAString(l, op, r) }
      let s = fold(string(lt), options)
      let p = fold(string(rt), options)
      switch op {
      case .beginsWith: return s.hasPrefix(p)
      case .endsWith: return s.hasSuffix(p)
      case .like: return Wildcard.matches(pattern: Array(p.unicodeScalars), Array(s.unicodeScalars))
      default: return try RegexCache.shared.match(p, s)
      }
    }
  }
}

extension MigrationContext {
  /// Foundation's exception for a string operator on something else.
  func notAString(_ l: Value, _ op: ComparisonOperator, _ r: Value) -> MigrationError {
    MigrationError(
      "run-type-mismatch",
      "\(op.rawValue) needs strings on both sides, got \(describe(l)) and \(describe(r)) (Foundation: Can't do a substring operation with something that isn't a string)"
    )
  }
}

/// LIKE patterns: `*` any run of characters, `?` one character, `\` makes the next character
/// literal (`\*` is a star).
enum Wildcard {
  private enum Piece: Equatable {
    case any, one
    case literal(Unicode.Scalar)
  }

  static func matches(pattern: [Unicode.Scalar], _ s: [Unicode.Scalar]) -> Bool {
    var p: [Piece] = []
    var i = 0
    while i < pattern.count {
      switch pattern[i] {
      case "*": p.append(.any)
      case "?": p.append(.one)
      case "\\" where i + 1 < pattern.count:
        i += 1
        p.append(.literal(pattern[i]))
      default: p.append(.literal(pattern[i]))
      }
      i += 1
    }
    // Greedy matching with one backtrack point: linear in practice, O(n·m) at worst.
    var pi = 0
    var si = 0
    var star = -1
    var mark = 0
    while si < s.count {
      if pi < p.count, p[pi] == .one || p[pi] == .literal(s[si]) {
        pi += 1
        si += 1
      } else if pi < p.count, p[pi] == .any {
        star = pi
        mark = si
        pi += 1
      } else if star >= 0 {
        pi = star + 1
        mark += 1
        si = mark
      } else {
        return false
      }
    }
    while pi < p.count, p[pi] == .any { pi += 1 }
    return pi == p.count
  }
}
