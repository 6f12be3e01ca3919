import Foundation

/// What NSExpression's built-in functions (`name:(args)`, arithmetic included) share: the
/// argument checks, arithmetic, aggregates. Each function's own code is its row of
/// `BuiltinFunction.all`, which the linker binds once per call site.
enum Builtins {
  /// Argument `i` as a number (nil for nil), or `run-type-mismatch` naming function `name`.
  static func number(_ name: String, _ args: [Value], _ i: Int, _ m: MigrationContext) throws(MigrationError)
    -> Double?
  {
    if args[i].isNull { return nil }
    guard let d = m.number(args[i]) else {
      throw MigrationError("run-type-mismatch", "\(name) needs a number, got \(m.describe(args[i]))")
    }
    return d
  }

  /// Argument `i` as an integer (integral doubles and Booleans accepted; nil for nil).
  static func integer(_ name: String, _ args: [Value], _ i: Int, _ m: MigrationContext) throws(MigrationError)
    -> Int64?
  {
    switch args[i] {
    case .null: return nil
    case .int(let x): return x
    case .bool(let b): return b ? 1 : 0
    case .double(let d) where d.isFinite && d.rounded() == d && abs(d) < 9e18: return Int64(d)
    default: throw MigrationError("run-type-mismatch", "\(name) needs an integer, got \(m.describe(args[i]))")
    }
  }

  /// A function of one number giving a double (nil gives nil).
  static func double(_ name: String, _ args: [Value], _ m: MigrationContext, _ f: (Double) -> Double)
    throws(MigrationError) -> Value
  {
    try number(name, args, 0, m).map { .double(f($0)) } ?? .null
  }

  /// A function of two integers giving an integer (nil gives nil).
  static func integers(_ name: String, _ args: [Value], _ m: MigrationContext, _ f: (Int64, Int64) -> Int64)
    throws(MigrationError) -> Value
  {
    guard let a = try integer(name, args, 0, m), let b = try integer(name, args, 1, m) else { return .null }
    return .int(f(a, b))
  }

  /// A function of one string giving a string (nil gives nil).
  static func text(_ name: String, _ args: [Value], _ m: MigrationContext, _ f: (String) -> String)
    throws(MigrationError) -> Value
  {
    guard case .string(let t) = args[0] else {
      if args[0].isNull { return .null }
      throw MigrationError("run-type-mismatch", "\(name) needs a string, got \(m.describe(args[0]))")
    }
    return .string(.native(f(m.string(t))))
  }

  /// `divide:by:`: Apple divides two integers as integers (`7 / 2` is 3).
  static func divide(_ args: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    if args[0].isNull || args[1].isNull { throw nilOperand("divide:by:", args[0], args[1], m) }
    if case .int(let a) = args[0], case .int(let b) = args[1] {
      guard b != 0 else { throw MigrationError("run-arithmetic", "divide:by: of the integer \(a) by zero") }
      let (q, overflow) = a.dividedReportingOverflow(by: b)
      // Int64.min / -1 is 2^63, one past Int64.max (Foundation traps).
      guard !overflow else {
        throw MigrationError("run-arithmetic", "divide:by: of the integer \(a) by \(b) overflows a 64-bit integer")
      }
      return .int(q)
    }
    guard let a = try number("divide:by:", args, 0, m), let b = try number("divide:by:", args, 1, m) else {
      return .null
    }
    return .double(a / b)
  }

  /// `modulus:by:`: the remainder with the sign of a (fmod for doubles).
  static func modulus(_ args: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    if args[0].isNull || args[1].isNull { throw nilOperand("modulus:by:", args[0], args[1], m) }
    if case .int(let a) = args[0], case .int(let b) = args[1] {
      guard b != 0 else { throw MigrationError("run-arithmetic", "modulus:by: by zero") }
      return .int(a.remainderReportingOverflow(dividingBy: b).partialValue)
    }
    guard let a = try number("modulus:by:", args, 0, m), let b = try number("modulus:by:", args, 1, m) else {
      return .null
    }
    return .double(fmod(a, b))
  }

  /// `abs:`: integers stay integers (but Int64.min).
  static func absolute(_ args: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    if case .int(let x) = args[0], x != Int64.min { return .int(Swift.abs(x)) }
    return try double("abs:", args, m) { Swift.abs($0) }
  }

  /// `length:`: a string's UTF-16 length, a collection's count.
  static func length(_ args: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    switch args[0] {
    case .string(let t): return .int(Int64(m.utf16Length(t)))
    case .null: return .null
    case .array, .transformable: return .int(Int64(try m.elements(args[0]).count))
    default:
      throw MigrationError("run-type-mismatch", "length: needs a string or a collection, got \(m.describe(args[0]))")
    }
  }

  /// `random:` and `randomn:`: an integer in [0, n); nil for n ≤ 0.
  static func random(_ name: String, _ args: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    guard let n = try integer(name, args, 0, m), n > 0 else { return .null }
    return .int(Int64(BuiltinPolicyFunctions.nextRandom(m) * Double(n)))
  }

  /// `castObject:toType:`.
  static func cast(_ args: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    guard case .string(let type) = args[1] else {
      throw MigrationError(
        "run-type-mismatch", "castObject:toType: needs a class name string, got \(m.describe(args[1]))")
    }
    return try Casts.cast(args[0], to: m.string(type), m)
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

  /// `add:to:`, `from:subtract:`, `multiply:by:`.
  enum Arithmetic: String {
    case add = "add:to:"
    case subtract = "from:subtract:"
    case multiply = "multiply:by:"
  }

  /// `add:to:`, `from:subtract:`, `multiply:by:`: integers stay integers unless they overflow;
  /// a date plus or minus seconds is a date; two dates subtract to seconds.
  static func arithmetic(_ op: Arithmetic, _ a: Value, _ b: Value, _ m: MigrationContext) throws(MigrationError)
    -> Value
  {
    if a.isNull || b.isNull { throw nilOperand(op.rawValue, a, b, m) }
    if case .int(let x) = a, case .int(let y) = b {
      let (r, overflow): (Int64, Bool)
      switch op {
      case .add: (r, overflow) = x.addingReportingOverflow(y)
      case .subtract: (r, overflow) = x.subtractingReportingOverflow(y)
      case .multiply: (r, overflow) = x.multipliedReportingOverflow(by: y)
      }
      if !overflow { return .int(r) }
    }
    switch (a, b, op) {
    case (.date(let t), _, .add), (_, .date(let t), .add):
      let other = { if case .date = a { return b } else { return a } }()
      guard let s = m.number(other) else { break }
      return .date(t + s)
    case (.date(let t), .date(let u), .subtract): return .double(t - u)
    case (.date(let t), _, .subtract):
      guard let s = m.number(b) else { break }
      return .date(t - s)
    default: break
    }
    guard let x = m.number(a), let y = m.number(b) else {
      throw MigrationError(
        "run-type-mismatch", "\(op.rawValue) needs numbers, got \(m.describe(a)) and \(m.describe(b))")
    }
    switch op {
    case .add: return .double(x + y)
    case .subtract: return .double(x - y)
    case .multiply: return .double(x * y)
    }
  }

  // MARK: - Aggregates over a collection (nil elements are skipped, except by count:)

  /// `min:` (`smallest`) and `max:`: numbers, strings or dates; nil for none.
  static func extreme(_ name: String, smallest: Bool, _ items: [Value], _ m: MigrationContext)
    throws(MigrationError) -> Value
  {
    var best: Value?
    for x in items where !x.isNull {
      guard let b = best else {
        best = x
        continue
      }
      guard let c = m.order(x, b) else {
        throw MigrationError("run-type-mismatch", "\(name) cannot order \(m.describe(x)) and \(m.describe(b))")
      }
      if (smallest && c < 0) || (!smallest && c > 0) { best = x }
    }
    return best ?? .null
  }

  static func minimum(_ items: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    try extreme("min:", smallest: true, items, m)
  }

  static func maximum(_ items: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    try extreme("max:", smallest: false, items, m)
  }

  /// `sum:`: an integer when every element is one and the sum fits.
  static func sum(_ items: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    let present = items.filter { !$0.isNull }
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
    return .double(try numbers("sum:", present, m).reduce(0, +))
  }

  /// A statistic of the numbers of a collection; nil for none.
  static func statistic(
    _ name: String, _ items: [Value], _ m: MigrationContext, _ f: ([Double]) -> Value
  ) throws(MigrationError) -> Value {
    let xs = try numbers(name, items.filter { !$0.isNull }, m)
    return xs.isEmpty ? .null : f(xs)
  }

  static func average(_ items: [Value], _ m: MigrationContext) throws(MigrationError) -> Value {
    try statistic("average:", items, m) { xs in .double(xs.reduce(0, +) / Double(xs.count)) }
  }

  static func median(_ xs: [Double]) -> Value {
    let s = xs.sorted()
    return .double(s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2)
  }

  static func mode(_ xs: [Double]) -> Value {
    var counts: [Double: Int] = [:]
    for x in xs { counts[x, default: 0] += 1 }
    let top = counts.values.max() ?? 0
    return .array(
      xs.filter { counts[$0] == top }.reduce(into: [Double]()) { if !$0.contains($1) { $0.append($1) } }.map {
        .double($0)
      })
  }

  static func standardDeviation(_ xs: [Double]) -> Value {
    let mean = xs.reduce(0, +) / Double(xs.count)
    let v = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
    return .double(v.squareRoot())
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
