import Foundation

extension MigrationManager {
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
    case (.json(let x), _):
      return equal((try? parseJSON(x)) ?? .null, b, options: options)
    case (_, .json(let y)):
      return equal(a, (try? parseJSON(y)) ?? .null, options: options)
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
  func compare(_ l: Value, _ op: ComparisonOperator, _ r: Value, _ options: ComparisonOptions) throws(MigrationError) -> Bool {
    switch op {
    case .equal: return equal(l, r, options: options)
    case .notEqual: return !equal(l, r, options: options)
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
      guard let c = order(l, r, options: options) else { return false }
      switch op {
      case .lessThan: return c < 0
      case .lessThanOrEqual: return c <= 0
      case .greaterThan: return c > 0
      default: return c >= 0
      }
    case .between:
      let bounds = elements(r)
      guard bounds.count == 2, let lo = order(l, bounds[0]), let hi = order(l, bounds[1]) else { return false }
      return lo >= 0 && hi <= 0
    case .in:
      switch r {
      case .string(let t):
        guard case .string(let lt) = l else { return false }
        return fold(string(t), options).contains(fold(string(lt), options))
      case .null: return false
      default: return elements(r).contains { equal(l, $0, options: options) }
      }
    case .contains:
      switch l {
      case .string(let t):
        guard case .string(let rt) = r else { return false }
        return fold(string(t), options).contains(fold(string(rt), options))
      case .null: return false
      default: return elements(l).contains { equal($0, r, options: options) }
      }
    case .beginsWith, .endsWith, .like, .matches:
      guard case .string(let lt) = l, case .string(let rt) = r else { return false }
      let s = fold(string(lt), options)
      let p = fold(string(rt), options)
      switch op {
      case .beginsWith: return s.hasPrefix(p)
      case .endsWith: return s.hasSuffix(p)
      case .like: return Wildcard.matches(pattern: Array(p.unicodeScalars), Array(s.unicodeScalars))
      default: return RegexCache.shared.matches(p, s)
      }
    }
  }
}

/// LIKE patterns: `*` any run of characters, `?` one character.
enum Wildcard {
  static func matches(pattern p: [Unicode.Scalar], _ s: [Unicode.Scalar]) -> Bool {
    var pi = 0
    var si = 0
    var star = -1
    var mark = 0
    while si < s.count {
      if pi < p.count && (p[pi] == "?" || (p[pi] != "*" && p[pi] == s[si])) {
        pi += 1
        si += 1
      } else if pi < p.count && p[pi] == "*" {
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
    while pi < p.count && p[pi] == "*" { pi += 1 }
    return pi == p.count
  }
}
