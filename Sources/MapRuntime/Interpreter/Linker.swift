/// Turns the expression trees of a plan into closures, once, before a run: variables,
/// mapping names, predicates and functions are resolved here so that evaluating an expression
/// for each of a million objects does no lookup by name that can be avoided.
final class Linker {
  unowned(unsafe) let m: MigrationManager
  /// The text being linked, for error locations.
  var source: ExpressionSource?
  var fallbackLocation: SourceLocation?
  /// Whether the mapping being linked uses the default policy (so built-in policy functions
  /// can be resolved now).
  var policyIsDefault = true

  init(manager: MigrationManager) { self.m = manager }

  func link(_ em: EntityMapping, index: Int) throws(MigrationError) -> LinkedMapping {
    fallbackLocation = em.location
    policyIsDefault = m.policies[index] is DefaultEntityMigrationPolicy
    let dest = em.destinationEntity.flatMap { m.destination.layout.entityIndex($0) }
    if let name = em.destinationEntity, dest == nil {
      throw MigrationError("run-plan-inconsistent", "entity mapping \(em.name) names destination entity \(name), which the plan's destination model lacks", at: em.location)
    }
    let src = em.sourceEntity.flatMap { m.source.layout.entityIndex($0) }
    var attributes: [(name: String, column: Int, code: Code, location: SourceLocation?)] = []
    var relationships: [(name: String, column: Int, code: Code, location: SourceLocation?, isToMany: Bool, link: Int)] = []
    if let dest {
      let layout = m.destination.layout.entities[dest]
      for pm in em.attributeMappings {
        guard let column = layout.propertyIndex(pm.name), layout.properties[column].attribute != nil,
          let expr = pm.valueExpression
        else { continue }
        let loc = pm.location ?? em.location
        attributes.append((pm.name, column, try top(expr, loc), loc))
      }
      for pm in em.relationshipMappings {
        guard let column = layout.propertyIndex(pm.name), let r = layout.properties[column].relationship,
          let expr = pm.valueExpression
        else { continue }
        let loc = pm.location ?? em.location
        relationships.append(
          (pm.name, column, try topRelationship(expr, loc), loc, r.isToMany, associationLink(expr.expression, r, dest)))
      }
    }
    var ops: [AttributeOp] = []
    if let dest {
      let table = m.destination.tables[dest]
      for pm in em.attributeMappings {
        guard let column = table.layout.propertyIndex(pm.name), let type = table.attributeTypes[column],
          let expr = pm.valueExpression
        else { continue }
        ops.append(attributeOp(expr.expression, column: table.columns[column], type: type, sourceEntity: src))
      }
    }
    let sourceLoc = em.sourceExpression?.source?.location ?? em.location
    let linked = LinkedMapping(
      mapping: em, sourceEntity: src, destinationEntity: dest,
      sourceExpression: try em.sourceExpression.map { (e) throws(MigrationError) in try top(e, sourceLoc) },
      sourceLocation: sourceLoc,
      forEach: try em.forEach.map { (e) throws(MigrationError) in try top(e, e.source?.location ?? em.location) },
      attributes: attributes, relationships: relationships)
    linked.attributeOps = ops.count == attributes.count ? ops : attributes.map { _ in .code }
    if let src, let e = em.forEach?.expression, let p = sourceAttribute(e, sourceEntity: src),
      m.source.layout.entities[src].properties[p].attribute?.type == .transformable
    {
      linked.forEachColumn = p
    }
    return linked
  }

  /// Recognises attribute expressions that need no evaluation per object.
  /// The column of `$source.key` when `key` is an attribute of the mapping's source entity.
  private func sourceAttribute(_ e: Expression, sourceEntity: Int?) -> Int? {
    guard let sourceEntity, case .keyPath(let b, let components) = e.kind, components.count == 1,
      case .variable("source") = b.kind,
      let p = m.source.layout.entities[sourceEntity].propertyIndex(components[0]),
      m.source.layout.entities[sourceEntity].properties[p].attribute != nil
    else { return nil }
    return p
  }

  private func attributeOp(_ e: Expression, column: Column, type: AttributeType, sourceEntity: Int?) -> AttributeOp {
    func sourceColumn(_ base: Expression) -> Int? { sourceAttribute(base, sourceEntity: sourceEntity) }
    switch e.kind {
    case .selector(let target, "dateFromString:format:", let args):
      // What the built-in function does (a custom policy may define its own).
      guard policyIsDefault, type == .date, case .variable("entityPolicy") = target.kind, args.count == 2,
        case .constant(.string(let format)) = args[1].kind, case .success(let pattern) = DatePattern.compile(format),
        let sourceEntity, let p = sourceColumn(args[0])
      else { break }
      return .sourceDate(entity: sourceEntity, column: p, pattern: pattern)
    case .variable("item"):
      return .item
    case .keyPath:
      if let sourceEntity, let p = sourceColumn(e) { return .sourceValue(entity: sourceEntity, column: p) }
    case .index(let base, .expression(let ie)):
      if case .variable("index") = ie.kind, let sourceEntity, let p = sourceColumn(base) {
        return .sourceElement(entity: sourceEntity, column: p)
      }
    case .variable("index"):
      if let ints = column as? IntColumn, type == .integer64 || type == .integer32 { return .index(ints) }
    case .constant(let c):
      guard let v = try? Coercion.coerce(constant(c), to: type, manager: m) else { break }
      if let texts = column as? TextColumn, case .string(let t) = v, case .native = t {
        return .sharedText(texts, texts.pack(t))
      }
      return .constant(v)
    default:
      break
    }
    return .code
  }

  /// For `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "M", $source)`
  /// where M creates objects the relationship can hold: M's index, so pass 2 can follow M's
  /// association table directly. -1 for any other expression.
  private func associationLink(_ e: Expression, _ r: RelationshipDescription, _ dest: Int) -> Int {
    guard case .selector(let target, "destinationInstancesForEntityMappingNamed:sourceInstances:", let args) = e.kind,
      case .variable("manager") = target.kind, args.count == 2, case .constant(.string(let name)) = args[0].kind,
      case .variable("source") = args[1].kind,
      let i = m.plan.entityMappings.firstIndex(where: { $0.name == name }),
      let made = m.plan.entityMappings[i].destinationEntity,
      m.plan.destinationModel.isKind(made, of: r.destinationEntity),
      m.plan.destinationModel.subentities(of: made).isEmpty,
      m.policies[i] is DefaultEntityMigrationPolicy  // a custom policy may associate other objects
    else { return -1 }
    return i
  }

  /// A relationship mapping's expression. The usual
  /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "M", $source)`
  /// gives the single instance itself rather than a one-element array: the value goes straight
  /// into the relationship, where both mean the same, and no array is made per object.
  private func topRelationship(_ e: CompiledExpression, _ loc: SourceLocation?) throws(MigrationError) -> Code {
    guard case .selector(let target, "destinationInstancesForEntityMappingNamed:sourceInstances:", let args) = e.expression.kind,
      case .variable("manager") = target.kind, args.count == 2, case .constant(.string(let name)) = args[0].kind,
      let i = m.plan.entityMappings.firstIndex(where: { $0.name == name })
    else { return try top(e, loc) }
    let general = try top(e, loc)
    let instances = try code(args[1])
    let m = self.m
    return { (frame: inout Frame) throws(MigrationError) -> Value in
      let s = try instances(&frame)
      guard case .sourceObject(let ref) = s else { return try general(&frame) }
      var first: ObjectRef?
      var more: [Value] = []
      m.associations[i].forEachDestination(forSourceKey: m.sourceKey(ref)) { d in
        if first == nil {
          first = d
        } else {
          if more.isEmpty { more.append(.destinationObject(first!)) }
          more.append(.destinationObject(d))
        }
      }
      if !more.isEmpty { return .array(more) }
      return first.map { .destinationObject($0) } ?? .array([])
    }
  }

  private func top(_ e: CompiledExpression, _ loc: SourceLocation?) throws(MigrationError) -> Code {
    source = e.source
    fallbackLocation = loc
    return try code(e.expression)
  }

  func location(_ span: SourceSpan) -> SourceLocation? {
    if let source, !span.isSynthesized { return source.location(ofOffset: span.start) }
    return source?.location ?? fallbackLocation
  }

  // MARK: - Expressions

  func code(_ e: Expression) throws(MigrationError) -> Code {
    let loc = location(e.span)
    let m = self.m
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
      return { _ in v }
    case .evaluatedObject:
      return { $0.evaluated }
    case .variable(let name):
      return try variable(name, loc)
    case .keyPath(let base, let components):
      let b = try code(base)
      if components.count == 1, !components[0].hasPrefix("@") {
        let key = components[0]
        let cache = KeyCache()
        return { (frame: inout Frame) throws(MigrationError) -> Value in
          let v = try b(&frame)
          switch v {
          case .sourceObject(let ref):
            let t = m.source.tables[Int(ref.entity)]
            let p = cache.index(t, key)
            guard p >= 0 else { throw located(MigrationError("run-unknown-key", "\(t.layout.name) has no property \(key)")) }
            return t.columns[p].read(Int(ref.row))
          case .destinationObject(let ref):
            let t = m.destination.tables[Int(ref.entity)]
            let p = cache.index(t, key)
            guard p >= 0 else { throw located(MigrationError("run-unknown-key", "\(t.layout.name) has no property \(key)")) }
            return t.columns[p].read(Int(ref.row))
          case .null:
            return .null
          default:
            do throws(MigrationError) { return try m.value(of: v, key: key) } catch { throw located(error) }
          }
        }
      }
      let path = ArraySlice(components)
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        let v = try b(&frame)
        do throws(MigrationError) { return try m.value(of: v, path: path) } catch { throw located(error) }
      }
    case .index(let base, let sub):
      return try indexCode(base, sub, located)
    case .function(let name, let args):
      guard let arity = Builtins.arity[name] else {
        throw MigrationError("run-unknown-function", "unknown function \(name)", at: loc)
      }
      guard arity == args.count else {
        throw MigrationError("run-arity", "\(name) takes \(arity) argument(s), given \(args.count)", at: loc)
      }
      let codes = try args.map { (a) throws(MigrationError) in try code(a) }
      if codes.count == 2 {
        let a = codes[0]
        let c = codes[1]
        return { (frame: inout Frame) throws(MigrationError) -> Value in
          let x = try a(&frame)
          let y = try c(&frame)
          do throws(MigrationError) { return try Builtins.call(name, [x, y], m) } catch { throw located(error) }
        }
      }
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        var values: [Value] = []
        values.reserveCapacity(codes.count)
        for c in codes { values.append(try c(&frame)) }
        do throws(MigrationError) { return try Builtins.call(name, values, m) } catch { throw located(error) }
      }
    case .selector(let target, let selector, let args):
      return try selectorCall(target, selector, args, loc, located)
    case .aggregate(let items):
      let codes = try items.map { (a) throws(MigrationError) in try code(a) }
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        var values: [Value] = []
        values.reserveCapacity(codes.count)
        for c in codes { values.append(try c(&frame)) }
        return .array(values)
      }
    case .fetch(let request, let context, let countOnly):
      return try fetch(request, context, countOnly, loc, located)
    case .cast(let value, let type):
      let v = try code(value)
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        do throws(MigrationError) { return try Casts.cast(try v(&frame), to: type, m) } catch { throw located(error) }
      }
    case .ternary(let condition, let a, let b):
      let t = try test(condition)
      let x = try code(a)
      let y = try code(b)
      return { (frame: inout Frame) throws(MigrationError) -> Value in try t(&frame) ? try x(&frame) : try y(&frame) }
    case .subquery(let collection, let variable, let predicate):
      let c = try code(collection)
      let t = try test(predicate)
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        let items = m.elements(try c(&frame))
        var out: [Value] = []
        for x in items {
          frame.locals.append((variable, x))
          let keep = try t(&frame)
          frame.locals.removeLast()
          if keep { out.append(x) }
        }
        return .array(out)
      }
    case .assignment(let variable, let value):
      let v = try code(value)
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        let x = try v(&frame)
        frame.locals.append((variable, x))
        return x
      }
    case .setOperation(let op, let a, let b):
      let x = try code(a)
      let y = try code(b)
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        let l = m.elements(try x(&frame))
        let r = m.elements(try y(&frame))
        switch op {
        case .union: return .array(m.distinct(l + r))
        case .intersect: return .array(m.distinct(l.filter { e in r.contains { m.equal(e, $0) } }))
        case .minus: return .array(m.distinct(l.filter { e in !r.contains { m.equal(e, $0) } }))
        }
      }
    }
  }

  /// `base[subscript]`.
  private func indexCode(
    _ base: Expression, _ sub: Expression.Subscript, _ located: @escaping (MigrationError) -> MigrationError
  ) throws(MigrationError) -> Code {
    let m = self.m
    let b = try code(base)
    switch sub {
    case .first, .last, .size:
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        let v = try b(&frame)
        if v.isNull { return .null }
        let items = m.elements(v)
        switch sub {
        case .first: return items.first ?? .null
        case .last: return items.last ?? .null
        default: return .int(Int64(items.count))
        }
      }
    case .expression(let ie):
      let i = try code(ie)
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        let v = try b(&frame)
        let k = try i(&frame)
        do throws(MigrationError) { return try Builtins.element(of: v, at: k, m) } catch { throw located(error) }
      }
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

  private func variable(_ name: String, _ loc: SourceLocation?) throws(MigrationError) -> Code {
    switch name {
    case "source": return { $0.source }
    case "destination": return { $0.destination }
    case "item": return { $0.item }
    case "index": return { $0.index }
    case "manager": return { _ in .special(.manager) }
    case "entityPolicy": return { _ in .special(.entityPolicy) }
    case "entityMapping": return { .special(.entityMapping($0.mapping)) }
    case "propertyMapping": return { [m] in .special(.propertyMapping($0.mapping, m.propertyName($0) ?? "")) }
    default:
      return { (frame: inout Frame) throws(MigrationError) -> Value in
        guard let v = frame.local(name) else {
          throw MigrationError("run-unknown-variable", "unknown variable $\(name)", at: loc)
        }
        return v
      }
    }
  }

  // MARK: - Predicates

  func test(_ p: Predicate) throws(MigrationError) -> Test {
    let m = self.m
    switch p.kind {
    case .constant(let b):
      return { _ in b }
    case .not(let inner):
      let t = try test(inner)
      return { (frame: inout Frame) throws(MigrationError) -> Bool in try !t(&frame) }
    case .and(let parts):
      let tests = try parts.map { (x) throws(MigrationError) in try test(x) }
      return { (frame: inout Frame) throws(MigrationError) -> Bool in
        for t in tests where try !t(&frame) { return false }
        return true
      }
    case .or(let parts):
      let tests = try parts.map { (x) throws(MigrationError) in try test(x) }
      return { (frame: inout Frame) throws(MigrationError) -> Bool in
        for t in tests where try t(&frame) { return true }
        return false
      }
    case .comparison(let c):
      let l = try code(c.lhs)
      let r = try code(c.rhs)
      let op = c.op
      let options = c.options
      let loc = location(p.span)
      func located(_ error: MigrationError) -> MigrationError {
        guard error.location == nil else { return error }
        var x = error
        x.location = loc
        return x
      }
      switch c.modifier {
      case .direct:
        return { (frame: inout Frame) throws(MigrationError) -> Bool in
          let a = try l(&frame)
          let b = try r(&frame)
          do throws(MigrationError) { return try m.compare(a, op, b, options) } catch { throw located(error) }
        }
      case .any, .all, .none:
        let modifier = c.modifier
        return { (frame: inout Frame) throws(MigrationError) -> Bool in
          let items = m.elements(try l(&frame))
          let b = try r(&frame)
          do throws(MigrationError) {
            switch modifier {
            case .all:
              for x in items where try !m.compare(x, op, b, options) { return false }
              return true
            case .any:
              for x in items where try m.compare(x, op, b, options) { return true }
              return false
            default:
              for x in items where try m.compare(x, op, b, options) { return false }
              return true
            }
          } catch { throw located(error) }
        }
      }
    }
  }
}

/// Remembers a key's property index for the entity seen last.
final class KeyCache: @unchecked Sendable {
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
