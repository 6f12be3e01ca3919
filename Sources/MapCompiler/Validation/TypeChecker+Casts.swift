import MapRuntime

/// `CAST(x, "Type")` and `castObject:toType:`, `BETWEEN`, `IN` and `CONTAINS`: the checks that
/// need more than an operand's kind.
extension TypeChecker {
  /// `CAST(value, type)`: the class it converts to (`Specs/functions.md` §4).
  mutating func castResult(_ v: Typed, to type: String, _ span: SourceSpan) -> Typed {
    switch type {
    case "NSDate":
      if !(v.type.isNumeric || v.type == .date || v.type == .unknown || v.type == .null) {
        error("map-cast", "CAST to NSDate needs a number of seconds since 2001-01-01, not \(v.type)", span)
      }
      return Typed(.date, mayBeNil: v.mayBeNil)
    case "NSNumber": return Typed(v.type == .integer ? .integer : .double, mayBeNil: v.mayBeNil || v.type == .string)
    case "NSDecimalNumber": return Typed(.decimal, mayBeNil: v.mayBeNil || v.type == .string)
    case "NSString": return Typed(.string, mayBeNil: v.mayBeNil)
    default:
      warning(
        "map-cast",
        "CAST to \(type) does not convert the value; mapc converts only to \(KnownFunctions.castTypes.sorted().joined(separator: ", "))",
        span)
      return v
    }
  }

  /// `castObject:toType:(value, type)`, the function `CAST` is: checked as `CAST` when the type
  /// is a string literal; a type computed at run time gives an unknown result.
  mutating func castObject(_ value: Typed, _ type: Expression, _ span: SourceSpan) -> Typed {
    if case .constant(.string(let name)) = type.kind { return castResult(value, to: name, span) }
    let t = check(type)
    if t.type != .string && t.type != .unknown && t.type != .null {
      error("map-type-mismatch", "castObject:toType: needs a class name string as argument 2, not \(t.type)", type.span)
    }
    return .unknown
  }

  /// `x BETWEEN {low, high}`: two bounds, each comparable with `x`.
  mutating func checkBetween(_ lhs: StaticType, _ rhs: Expression, _ r: Typed, _ span: SourceSpan) {
    if case .aggregate(let bounds) = rhs.kind {
      guard bounds.count == 2 else {
        error("map-type-mismatch", "BETWEEN needs two bounds {low, high}, not \(bounds.count)", rhs.span)
        return
      }
      for bound in bounds {
        let b = check(bound)
        if !comparable(lhs, b.type) { error("map-type-mismatch", "cannot order \(lhs) and \(b.type)", bound.span) }
      }
    } else if !r.type.mayBeCollection {
      error("map-type-mismatch", "BETWEEN needs a collection of two bounds, not \(r.type)", rhs.span)
    }
  }

  /// The container side of `IN` (its right) and `CONTAINS` (its left): a collection or a string.
  mutating func checkContainer(_ t: Typed, _ e: Expression, _ op: String) {
    if !(t.type.mayBeCollection || t.type == .string) {
      error("map-type-mismatch", "\(op) needs a collection or a string, not \(t.type)", e.span)
    }
  }
}

extension StaticType {
  /// False only for types known not to be collections (numbers, strings, dates, booleans, …).
  var mayBeCollection: Bool {
    switch self {
    case .unknown, .null, .collection, .userInfo: true
    default: false
    }
  }
}
