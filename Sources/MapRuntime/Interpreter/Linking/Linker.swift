/// Turns the expression trees of a plan into closures, once, before a run: variables,
/// mapping names, predicates and functions are resolved here so that evaluating an expression
/// for each of a million objects does no lookup by name that can be avoided.
final class Linker {
  /// The run being linked. Not owned: the context owns the closures made here, and a FETCH
  /// keeps this linker (`FilterCache`) to link its predicate when first run.
  unowned let m: MigrationContext
  /// The text being linked, for error locations.
  var source: ExpressionSource?
  var fallbackLocation: SourceLocation?
  /// Whether the mapping being linked uses the default policy (so built-in policy functions
  /// can be resolved now).
  var policyIsDefault = true

  init(context: MigrationContext) { self.m = context }

  func link(_ em: EntityMapping, index: Int) throws(MigrationError) -> LinkedMapping {
    fallbackLocation = em.location
    policyIsDefault = m.usesDefaultPolicy[index]
    let dest = em.destinationEntity.flatMap { m.destination.layout.entityIndex($0) }
    if let name = em.destinationEntity, dest == nil {
      throw MigrationError(
        "run-plan-inconsistent",
        "entity mapping \(em.name) names destination entity \(name), which the plan's destination model lacks",
        at: em.location)
    }
    let src = em.sourceEntity.flatMap { m.source.layout.entityIndex($0) }
    var attributes: [(name: String, column: Int, code: LinkedCode, location: SourceLocation?)] = []
    var relationships:
      [(name: String, column: Int, code: LinkedCode, location: SourceLocation?, isToMany: Bool, link: Int)] = []
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
      m.usesDefaultPolicy[i]  // a custom policy may associate other objects
    else { return -1 }
    return i
  }

  /// A relationship mapping's expression. The usual
  /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "M", $source)`
  /// gives the single instance itself rather than a one-element array: the value goes straight
  /// into the relationship, where both mean the same, and no array is made per object.
  private func topRelationship(_ e: CompiledExpression, _ loc: SourceLocation?) throws(MigrationError) -> LinkedCode {
    guard
      case .selector(let target, "destinationInstancesForEntityMappingNamed:sourceInstances:", let args) = e.expression
        .kind,
      case .variable("manager") = target.kind, args.count == 2, case .constant(.string(let name)) = args[0].kind,
      let i = m.plan.entityMappings.firstIndex(where: { $0.name == name })
    else { return try top(e, loc) }
    let general = try top(e, loc)
    let instances = try code(args[1])
    return { (m: MigrationContext, frame: inout Frame) throws(MigrationError) -> Value in
      let s = try instances(m, &frame)
      guard case .sourceObject(let ref) = s else { return try general(m, &frame) }
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

  private func top(_ e: CompiledExpression, _ loc: SourceLocation?) throws(MigrationError) -> LinkedCode {
    source = e.source
    fallbackLocation = loc
    return try code(e.expression)
  }

  func location(_ span: SourceSpan) -> SourceLocation? {
    if let source, !span.isSynthesized { return source.location(ofOffset: span.start) }
    return source?.location ?? fallbackLocation
  }
}
