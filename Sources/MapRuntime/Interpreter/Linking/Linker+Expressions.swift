/// Linking expressions: each node of an expression tree becomes a closure over the frame.
extension Linker {

  func code(_ e: Expression) throws(MigrationError) -> LinkedCode {
    let loc = location(e.span)
    func located(_ error: MigrationError) -> MigrationError {
      guard error.location == nil else { return error }
      var x = error
      x.location = loc
      x.file = loc?.file ?? x.file
      return x
    }
    switch e.kind {
    case .constant(let c):
      let v = constant(c)
      return { _, _ in v }
    case .evaluatedObject:
      return { $1.evaluated }
    case .variable(let name):
      return try variable(name, loc)
    case .keyPath(let base, let components):
      let b = try code(base)
      if components.contains(where: { $0.hasPrefix("$") }) {
        return try variableKeyPath(b, components, loc, located)
      }
      if components.count == 1, !components[0].hasPrefix("@") {
        let key = components[0]
        let cache = KeyCache()
        return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
          let v = try b(m, &frame)
          let t: EntityTable
          let row: Int
          switch v {
          case .sourceObject(let ref):
            t = m.source.tables[Int(ref.entity)]
            row = Int(ref.row)
          case .destinationObject(let ref):
            t = m.destination.tables[Int(ref.entity)]
            row = Int(ref.row)
          case .null:
            return .null
          default:
            do throws(MigrationError) { return try KeyValueCoding(m).value(of: v, key: key) } catch {
              throw located(error)
            }
          }
          let p = cache.index(t, key)
          guard p >= 0 else {
            throw located(MigrationError("run-unknown-key", "\(t.layout.name) has no property \(key)"))
          }
          return t.columns[p].read(row)
        }
      }
      let path = ArraySlice(components)
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        let v = try b(m, &frame)
        do throws(MigrationError) { return try KeyValueCoding(m).value(of: v, path: path) } catch {
          throw located(error)
        }
      }
    case .index(let base, let sub):
      return try indexCode(base, sub, located)
    case .function(let name, let args):
      guard let function = BuiltinFunction.named(name) else {
        throw MigrationError("run-unknown-function", "unknown function \(name)", at: loc)
      }
      guard function.arity == args.count else {
        throw MigrationError(
          "run-arity", "\(name) takes \(function.arity) argument(s), given \(args.count)", at: loc)
      }
      let run = function.implementation
      let codes = try args.map { (a) throws(MigrationError) in try code(a) }
      if codes.count == 2 {
        let a = codes[0]
        let c = codes[1]
        return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
          let x = try a(m, &frame)
          let y = try c(m, &frame)
          do throws(MigrationError) { return try run([x, y], m) } catch { throw located(error) }
        }
      }
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        var values: [Value] = []
        values.reserveCapacity(codes.count)
        for c in codes { values.append(try c(m, &frame)) }
        do throws(MigrationError) { return try run(values, m) } catch { throw located(error) }
      }
    case .selector(let target, let selector, let args):
      return try selectorCall(target, selector, args, loc, located)
    case .aggregate(let items):
      let codes = try items.map { (a) throws(MigrationError) in try code(a) }
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        var values: [Value] = []
        values.reserveCapacity(codes.count)
        for c in codes { values.append(try c(m, &frame)) }
        return .array(values)
      }
    case .fetch(let request, let context, let countOnly):
      return try fetch(request, context, countOnly, loc, located)
    case .cast(let value, let type):
      let v = try code(value)
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        do throws(MigrationError) { return try Casts.cast(try v(m, &frame), to: type, m) } catch {
          throw located(error)
        }
      }
    case .ternary(let condition, let a, let b):
      let t = try test(condition)
      let x = try code(a)
      let y = try code(b)
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        try t(m, &frame) ? try x(m, &frame) : try y(m, &frame)
      }
    case .subquery(let collection, let variable, let predicate):
      let c = try code(collection)
      let t = try test(predicate)
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        let items = try m.elements(try c(m, &frame))
        var out: [Value] = []
        for x in items {
          frame.locals.append((variable, x))
          let keep = try t(m, &frame)
          frame.locals.removeLast()
          if keep { out.append(x) }
        }
        return .array(out)
      }
    case .assignment(let variable, let value):
      let v = try code(value)
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        let x = try v(m, &frame)
        frame.locals.append((variable, x))
        return x
      }
    case .setOperation(let op, let a, let b):
      let x = try code(a)
      let y = try code(b)
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        let l = try m.elements(try x(m, &frame))
        let r = try m.elements(try y(m, &frame))
        switch op {
        case .union: return .array(KeyValueCoding(m).distinct(l + r))
        case .intersect: return .array(KeyValueCoding(m).distinct(l.filter { e in r.contains { m.equal(e, $0) } }))
        case .minus: return .array(KeyValueCoding(m).distinct(l.filter { e in !r.contains { m.equal(e, $0) } }))
        }
      }
    }
  }

  /// `base[subscript]`.
  private func indexCode(
    _ base: Expression, _ sub: Expression.Subscript, _ located: @escaping (MigrationError) -> MigrationError
  ) throws(MigrationError) -> LinkedCode {
    let b = try code(base)
    switch sub {
    case .first, .last, .size:
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        let v = try b(m, &frame)
        if v.isNull { throw located(Builtins.nilIndex(collection: v, index: nil, m)) }
        let items = try m.elements(v)
        switch sub {
        case .first: return items.first ?? .null
        case .last: return items.last ?? .null
        default: return .int(Int64(items.count))
        }
      }
    case .expression(let ie):
      let i = try code(ie)
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        let v = try b(m, &frame)
        let k = try i(m, &frame)
        do throws(MigrationError) { return try Builtins.element(of: v, at: k, m) } catch { throw located(error) }
      }
    }
  }

  /// A key path with variables as keys (`$a.$b`): each `$name` component is looked up when the
  /// path runs and its value, which must be a string, is the key (Foundation raises on any other).
  private func variableKeyPath(
    _ base: @escaping LinkedCode, _ components: [String], _ loc: SourceLocation?,
    _ located: @escaping (MigrationError) -> MigrationError
  ) throws(MigrationError) -> LinkedCode {
    enum Step {
      case keys(ArraySlice<String>)
      case variable(String, LinkedCode)
    }
    var steps: [Step] = []
    var run: [String] = []
    for component in components {
      guard component.hasPrefix("$") else {
        run.append(component)
        continue
      }
      if !run.isEmpty { steps.append(.keys(ArraySlice(run))) }
      run = []
      let name = String(component.dropFirst())
      steps.append(.variable(name, try variable(name, loc)))
    }
    if !run.isEmpty { steps.append(.keys(ArraySlice(run))) }
    return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
      var v = try base(m, &frame)
      for step in steps {
        switch step {
        case .keys(let path):
          do throws(MigrationError) { v = try KeyValueCoding(m).value(of: v, path: path) } catch {
            throw located(error)
          }
        case .variable(let name, let code):
          let key = try code(m, &frame)
          guard case .string(let t) = key else {
            throw located(
              MigrationError(
                "run-type-mismatch", "the key $\(name) must be a string, got \(m.describe(key)) (Foundation raises)"))
          }
          if v.isNull { return .null }
          do throws(MigrationError) { v = try KeyValueCoding(m).value(of: v, key: m.string(t)) } catch {
            throw located(error)
          }
        }
      }
      return v
    }
  }

  func constant(_ c: Expression.Constant) -> Value {
    switch c {
    case .null: .null
    case .bool(let b): .bool(b)
    case .integer(let i): .int(i)
    case .double(let d): .double(d)
    case .decimal(let s): .decimal(s)
    case .string(let s): .string(.native(s))
    }
  }

  private func variable(_ name: String, _ loc: SourceLocation?) throws(MigrationError) -> LinkedCode {
    switch name {
    case "source": return { $1.source }
    case "destination": return { $1.destination }
    case "item": return { $1.item }
    case "index": return { $1.index }
    case "manager": return { _, _ in .special(.manager) }
    case "entityPolicy": return { _, _ in .special(.entityPolicy) }
    case "entityMapping": return { .special(.entityMapping($1.mapping)) }
    case "propertyMapping":
      return { m, frame in .special(.propertyMapping(frame.mapping, m.propertyName(frame) ?? "")) }
    default:
      return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
        guard let v = frame.local(name) else {
          throw MigrationError("run-unknown-variable", "unknown variable $\(name)", at: loc)
        }
        return v
      }
    }
  }
}

/// Remembers a key's property index for the entity seen last.
final class KeyCache {
  @exclusivity(unchecked) var entity = -1
  @exclusivity(unchecked) var property = -1
  @inline(__always) func index(_ t: EntityTable, _ key: String) -> Int {
    if t.layout.index != entity {
      entity = t.layout.index
      property = t.layout.propertyIndex(key) ?? -1
    }
    return property
  }
}
