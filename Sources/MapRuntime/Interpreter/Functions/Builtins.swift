import Foundation

/// NSExpression's built-in functions (`name:(args)`), arithmetic included.
enum Builtins {
  /// Every function name with its number of arguments, for the compiler's checks.
  static let arity: [String: Int] = BuiltinFunction.byName.mapValues(\.arity)

  static func call(_ name: String, _ args: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    func num(_ i: Int) throws(MigrationError) -> Double? {
      if args[i].isNull { return nil }
      guard let d = m.number(args[i]) else {
        throw MigrationError("run-type-mismatch", "\(name) needs a number, got \(m.describe(args[i]))")
      }
      return d
    }
    func int(_ i: Int) throws(MigrationError) -> Int64? {
      switch args[i] {
      case .null: return nil
      case .int(let x): return x
      case .bool(let b): return b ? 1 : 0
      case .double(let d) where d.isFinite && d.rounded() == d && abs(d) < 9e18: return Int64(d)
      default: throw MigrationError("run-type-mismatch", "\(name) needs an integer, got \(m.describe(args[i]))")
      }
    }
    switch name {
    case "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:":
      return try aggregate(name, m.elements(args[0]), m)
    case "add:to:", "from:subtract:", "multiply:by:":
      return try arithmetic(name, args[0], args[1], m)
    case "divide:by:":
      if args[0].isNull || args[1].isNull { throw nilOperand(name, args[0], args[1], m) }
      // Apple divides two integers as integers (`7 / 2` is 3).
      if case .int(let a) = args[0], case .int(let b) = args[1] {
        guard b != 0 else { throw MigrationError("run-arithmetic", "divide:by: of the integer \(a) by zero") }
        let (q, overflow) = a.dividedReportingOverflow(by: b)
        // Int64.min / -1 is 2^63, one past Int64.max (Foundation traps).
        guard !overflow else {
          throw MigrationError("run-arithmetic", "divide:by: of the integer \(a) by \(b) overflows a 64-bit integer")
        }
        return .int(q)
      }
      guard let a = try num(0), let b = try num(1) else { return .null }
      return .double(a / b)
    case "modulus:by:":
      if args[0].isNull || args[1].isNull { throw nilOperand(name, args[0], args[1], m) }
      if case .int(let a) = args[0], case .int(let b) = args[1] {
        guard b != 0 else { throw MigrationError("run-arithmetic", "modulus:by: by zero") }
        return .int(a.remainderReportingOverflow(dividingBy: b).partialValue)
      }
      guard let a = try num(0), let b = try num(1) else { return .null }
      return .double(fmod(a, b))
    case "raise:toPower:":
      if args[0].isNull || args[1].isNull { throw nilOperand(name, args[0], args[1], m) }
      guard let a = try num(0), let b = try num(1) else { return .null }
      return .double(pow(a, b))
    case "sqrt:": return try num(0).map { .double(sqrt($0)) } ?? .null
    case "log:": return try num(0).map { .double(log10($0)) } ?? .null
    case "ln:": return try num(0).map { .double(log($0)) } ?? .null
    case "exp:": return try num(0).map { .double(exp($0)) } ?? .null
    case "floor:": return try num(0).map { .double(floor($0)) } ?? .null
    case "ceiling:": return try num(0).map { .double(ceil($0)) } ?? .null
    case "trunc:": return try num(0).map { .double(trunc($0)) } ?? .null
    case "abs:":
      if case .int(let x) = args[0], x != Int64.min { return .int(Swift.abs(x)) }
      return try num(0).map { .double(Swift.abs($0)) } ?? .null
    case "uppercase:", "lowercase:", "canonical:":
      guard case .string(let t) = args[0] else {
        if args[0].isNull { return .null }
        throw MigrationError("run-type-mismatch", "\(name) needs a string, got \(m.describe(args[0]))")
      }
      let s = m.string(t)
      switch name {
      case "uppercase:": return .string(.native(s.uppercased()))
      case "lowercase:": return .string(.native(s.lowercased()))
      default:
        return .string(.native(s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)))
      }
    case "length:":
      switch args[0] {
      case .string(let t): return .int(Int64(m.utf16Length(t)))
      case .null: return .null
      case .array, .transformable: return .int(Int64(m.elements(args[0]).count))
      default:
        throw MigrationError("run-type-mismatch", "length: needs a string or a collection, got \(m.describe(args[0]))")
      }
    case "now": return .date(m.options.now)
    case "random": return .double(m.nextRandom())
    case "random:", "randomn:":
      guard let n = try int(0), n > 0 else { return .null }
      return .int(Int64(m.nextRandom() * Double(n)))
    case "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:":
      guard let a = try int(0), let b = try int(1) else { return .null }
      switch name {
      case "bitwiseAnd:with:": return .int(a & b)
      case "bitwiseOr:with:": return .int(a | b)
      case "bitwiseXor:with:": return .int(a ^ b)
      case "leftshift:by:": return .int(a << b)
      default: return .int(a >> b)
      }
    case "onesComplement:": return try int(0).map { .int(~$0) } ?? .null
    case "noindex:": return args[0]
    case "castObject:toType:":
      guard case .string(let type) = args[1] else {
        throw MigrationError(
          "run-type-mismatch", "castObject:toType: needs a class name string, got \(m.describe(args[1]))")
      }
      return try Casts.cast(args[0], to: m.string(type), m)
    case "objectFrom:withIndex:": return try element(of: args[0], at: args[1], m)
    case "distanceToLocation:fromLocation:": return try Geodesy.distance(args[0], args[1], m)
    default:
      throw MigrationError("run-unknown-function", "unknown function \(name)")
    }
  }

  /// `add:to:`, `from:subtract:`, `multiply:by:`: integers stay integers unless they overflow;
  /// a date plus or minus seconds is a date; two dates subtract to seconds.
  static func arithmetic(_ name: String, _ a: Value, _ b: Value, _ m: MigrationContext) throws(MigrationError) -> Value
  {
    if a.isNull || b.isNull { throw nilOperand(name, a, b, m) }
    if case .int(let x) = a, case .int(let y) = b {
      let (r, overflow): (Int64, Bool)
      switch name {
      case "add:to:": (r, overflow) = x.addingReportingOverflow(y)
      case "from:subtract:": (r, overflow) = x.subtractingReportingOverflow(y)
      default: (r, overflow) = x.multipliedReportingOverflow(by: y)
      }
      if !overflow { return .int(r) }
    }
    switch (a, b, name) {
    case (.date(let t), _, "add:to:"), (_, .date(let t), "add:to:"):
      let other = { if case .date = a { return b } else { return a } }()
      guard let s = m.number(other) else { break }
      return .date(t + s)
    case (.date(let t), .date(let u), "from:subtract:"): return .double(t - u)
    case (.date(let t), _, "from:subtract:"):
      guard let s = m.number(b) else { break }
      return .date(t - s)
    default: break
    }
    guard let x = m.number(a), let y = m.number(b) else {
      throw MigrationError("run-type-mismatch", "\(name) needs numbers, got \(m.describe(a)) and \(m.describe(b))")
    }
    switch name {
    case "add:to:": return .double(x + y)
    case "from:subtract:": return .double(x - y)
    default: return .double(x * y)
    }
  }

  /// Foundation raises when an operand of `+ - * / **` or `modulus:by:` is nil
  /// (`12.845 * x + y` with `y` missing); so does a migration.
  static func nilOperand(_ name: String, _ a: Value, _ b: Value, _ m: MigrationContext) -> MigrationError {
    let which = a.isNull && b.isNull ? "both operands are" : a.isNull ? "the first operand is" : "the second operand is"
    let other = a.isNull && b.isNull ? "" : " (the other is \(m.describe(a.isNull ? b : a)))"
    return MigrationError(
      "run-nil-arithmetic",
      "\(name) cannot compute with nil: \(which) nil\(other), as Foundation raises; "
        + "give a default with FUNCTION($entityPolicy, \"defaultValue:for:\", 0, value) or test for nil with TERNARY")
  }

  /// Aggregates over a collection (nil elements are skipped).
  static func aggregate(_ name: String, _ items: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    if name == "count:" { return .int(Int64(items.count)) }
    let present = items.filter { !$0.isNull }
    switch name {
    case "min:", "max:":
      var best: Value?
      for x in present {
        guard let b = best else {
          best = x
          continue
        }
        guard let c = m.order(x, b) else {
          throw MigrationError("run-type-mismatch", "\(name) cannot order \(m.describe(x)) and \(m.describe(b))")
        }
        if (name == "min:" && c < 0) || (name == "max:" && c > 0) { best = x }
      }
      return best ?? .null
    case "sum:":
      if present.allSatisfy({ if case .int = $0 { return true } else { return false } }) {
        var total: Int64 = 0
        var overflow = false
        for case .int(let x) in present {
          let (r, o) = total.addingReportingOverflow(x)
          total = r
          overflow = overflow || o
        }
        if !overflow { return .int(total) }
      }
      return .double(try numbers(name, present, m).reduce(0, +))
    default:
      let xs = try numbers(name, present, m)
      guard !xs.isEmpty else { return .null }
      switch name {
      case "average:": return .double(xs.reduce(0, +) / Double(xs.count))
      case "median:":
        let s = xs.sorted()
        return .double(s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2)
      case "mode:":
        var counts: [Double: Int] = [:]
        for x in xs { counts[x, default: 0] += 1 }
        let top = counts.values.max() ?? 0
        return .array(
          xs.filter { counts[$0] == top }.reduce(into: [Double]()) { if !$0.contains($1) { $0.append($1) } }.map {
            .double($0)
          })
      case "stddev:":
        let mean = xs.reduce(0, +) / Double(xs.count)
        let v = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
        return .double(v.squareRoot())
      default:
        throw MigrationError("run-unknown-function", "unknown function \(name)")
      }
    }
  }

  private static func numbers(_ name: String, _ items: [Value], _ m: MigrationContext) throws(MigrationError)
    -> [Double]
  {
    var out: [Double] = []
    for x in items {
      guard let d = m.number(x) else {
        throw MigrationError("run-type-mismatch", "\(name) needs numbers, got \(m.describe(x))")
      }
      out.append(d)
    }
    return out
  }
}
