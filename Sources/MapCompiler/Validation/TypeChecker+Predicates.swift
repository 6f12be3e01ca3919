import MapRuntime
import MapSyntax

/// Predicates: comparisons, operators, regexes and predicate strings.
extension TypeChecker {
  mutating func withSelf(_ t: Typed, _ body: (inout TypeChecker) -> Void) {
    let saved = selfType
    selfType = t
    body(&self)
    selfType = saved
  }

  mutating func checkPredicate(_ p: Predicate) {
    switch p.kind {
    case .constant: break
    case .not(let inner): checkPredicate(inner)
    case .and(let parts), .or(let parts): for x in parts { checkPredicate(x) }
    case .comparison(let c):
      let l = check(c.lhs)
      let r = check(c.rhs)
      if c.modifier != .direct, case .collection = l.type {
      } else if c.modifier != .direct, l.type != .unknown {
        error("map-type-mismatch", "\(c.modifier.rawValue) needs a collection on its left, not \(l.type)", p.span)
      }
      let lt = c.modifier == .direct ? l.type : l.type.elementType
      switch c.op {
      case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
        if !comparable(lt, r.type) {
          error("map-type-mismatch", "cannot order \(lt) and \(r.type)", p.span)
        }
      case .beginsWith, .endsWith, .like, .matches:
        for (t, x) in [(lt, c.lhs), (r.type, c.rhs)] where t != .string && t != .unknown && t != .null {
          error("map-type-mismatch", "\(c.op.rawValue) compares strings, not \(t)", x.span)
        }
        if c.op == .matches, case .constant(.string(let pattern)) = c.rhs.kind, !Self.validRegex(pattern) {
          error("map-regex", "invalid regular expression \"\(pattern)\"", c.rhs.span)
        }
      case .equal, .notEqual:
        if !comparable(lt, r.type) && !(lt == r.type) {
          error("map-type-mismatch", "comparing \(lt) with \(r.type) is never true", p.span)
        }
      case .between: checkBetween(lt, c.rhs, r, p.span)
      case .in: checkContainer(r, c.rhs, "IN")
      case .contains: checkContainer(Typed(lt), c.lhs, "CONTAINS")
      }
    }
  }

  func comparable(_ a: StaticType, _ b: StaticType) -> Bool {
    if a == .unknown || b == .unknown || a == .null || b == .null { return true }
    if a.isNumeric && b.isNumeric { return true }
    return a == b
  }

  static func validRegex(_ pattern: String) -> Bool { RegexSyntax.isValid(pattern) }

  /// A predicate written as a string literal (fetch requests, `<filter>`): parsed now, checked
  /// against the entity, and recorded so the runtime never parses text.
  mutating func checkPredicateString(_ predicateText: String, on selfType: StaticType, literal: Expression) {
    let inner = self.predicateText(predicateText, inLiteral: literal)
    switch ExpressionParsing.parsePredicate(predicateText) {
    case .failure(let e):
      diagnostics.append(
        .error(e.id, "in predicate \"\(predicateText)\": \(e.message)", at: inner.location(ofOffset: e.offset)))
    case .success(let p):
      let savedSelf = self.selfType
      let savedText = self.text
      self.selfType = Typed(selfType)
      self.text = inner
      checkPredicate(p)
      self.selfType = savedSelf
      self.text = savedText
      if !predicates.contains(where: { $0.text == predicateText }) {
        predicates.append(PrecompiledPredicate(text: predicateText, predicate: p))
      }
    }
  }
}

/// " (did you mean X?)" for the closest name, when one is close.
package func suggestion<S: Sequence>(_ name: String, _ candidates: S) -> String where S.Element == String {
  var best: (String, Int)?
  let limit = max(2, name.count / 3)
  for c in candidates {
    let d = editDistance(name.lowercased(), c.lowercased())
    if d <= limit && (best == nil || d < best!.1 || (d == best!.1 && c < best!.0)) { best = (c, d) }
  }
  return best.map { "; did you mean \($0.0)?" } ?? ""
}

func editDistance(_ a: String, _ b: String) -> Int {
  let x = Array(a.unicodeScalars)
  let y = Array(b.unicodeScalars)
  if x.isEmpty { return y.count }
  if y.isEmpty { return x.count }
  var previous = Array(0...y.count)
  var current = previous
  for i in 1...x.count {
    current[0] = i
    for j in 1...y.count {
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
    }
    swap(&previous, &current)
  }
  return previous[y.count]
}

extension TypeChecker {
  /// Checks a predicate whose SELF is an object of the given type (filters).
  mutating func checkPredicateAt(_ p: Predicate, selfType: StaticType) {
    withSelf(Typed(selfType)) { $0.checkPredicate(p) }
  }
}
