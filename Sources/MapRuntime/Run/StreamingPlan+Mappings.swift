/// The rules `StreamingPlan` holds the mappings over an entity to: what makes each of their
/// destination objects depend on its own source object only (or, with stubs, on it and the
/// objects it refers to through to-one relationships, which a chunk holds as stubs).
struct MappingRules {
  let plan: MigrationPlan
  let usesDefaultPolicy: [Bool]
  let stubs: Bool
  /// Per destination entity, how many mappings fill it.
  let fillers: [String: Int]
  let destinationCheck: (String) -> String?
  /// Each mapping's source entity, by the mapping's name.
  let mappingSources: [String: String?]

  init(
    plan: MigrationPlan, usesDefaultPolicy: [Bool], stubs: Bool, fillers: [String: Int],
    destinationCheck: @escaping (String) -> String?
  ) {
    self.plan = plan
    self.usesDefaultPolicy = usesDefaultPolicy
    self.stubs = stubs
    self.fillers = fillers
    self.destinationCheck = destinationCheck
    mappingSources = Dictionary(plan.entityMappings.map { ($0.name, $0.sourceEntity) }, uniquingKeysWith: { a, _ in a })
  }

  /// Why the mappings over source entity `entity` cannot run a chunk at a time, nil when they
  /// can. `asStub`: they run over stubs of its objects (`StreamingPlan.stubbed`), whose
  /// destination objects are not written, so the format's own check of the destination does
  /// not apply.
  func reason(over entity: String, asStub: Bool = false) -> String? {
    let over = plan.entityMappings.enumerated().filter { $0.element.sourceEntity == entity }
    let overNames = Set(over.map(\.element.name))
    for (i, m) in over {
      let isDefault = usesDefaultPolicy.indices.contains(i) && usesDefaultPolicy[i]
      if let why = reason(m, isDefault: isDefault, overNames: overNames, asStub: asStub) { return why }
    }
    return nil
  }

  private func reason(_ m: EntityMapping, isDefault: Bool, overNames: Set<String>, asStub: Bool) -> String? {
    let n = m.name
    if !isDefault { return "mapping \(n) has a custom policy" }
    if let d = m.destinationEntity, m.type != .remove {
      let destination = plan.destinationModel
      var why = StreamingPlan.standsAloneAsDestination(d, destination, inTree: stubs)
      if why == nil && !asStub { why = destinationCheck(d) }
      // What a chunk's objects refer to must be all their rows say (foreign keys), in the
      // destination model too.
      if why == nil && stubs && !asStub { why = StreamingPlan.relationshipProblem(d, in: destination) }
      if let why { return "destination \(d) of \(n): \(why)" }
      if fillers[d, default: 0] > 1 { return "destination \(d) of \(n) is filled by more than one mapping" }
    }
    if let e = m.sourceExpression, !StreamingPlan.isWholeFetch(e.expression, of: m.sourceEntity ?? "") {
      return "mapping \(n) selects its source objects with more than a fetch of its own entity"
    }
    let entity = m.sourceEntity.flatMap { plan.sourceModel.entity(named: $0) }
    var local = Locality(
      overNames: overNames, relationships: stubs ? (entity.map(plan.sourceModel.allRelationships) ?? []) : nil,
      mappingSources: mappingSources)
    if let f = m.forEach { local.check(f.expression) }
    for p in m.attributeMappings + m.relationshipMappings {
      if let e = p.valueExpression { local.check(e.expression) }
    }
    return local.problem.map { "mapping \(n): \($0)" }
  }
}

/// Whether expressions read only the object they are evaluated for (`StreamingPlan`). With
/// `relationships` (a run with stubs: the relationships of the mapping's source entity), they
/// may also ask `$manager` for the destination objects of `$source.<relationship>` (through the
/// relationship's name, or a mapping over its destination entity), but read nothing through a
/// relationship: a stub has no values, and the part of the store read whole lacks the members
/// that chunks hold.
private struct Locality {
  let overNames: Set<String>
  let relationships: [RelationshipDescription]?
  let mappingSources: [String: String?]
  var problem: String?

  init(overNames: Set<String>, relationships: [RelationshipDescription]?, mappingSources: [String: String?]) {
    self.overNames = overNames
    self.relationships = relationships
    self.mappingSources = mappingSources
  }

  /// The relationship `e` reads from `$source` (`$source.<relationship>`), if any.
  private func sourceRelationship(_ e: Expression) -> RelationshipDescription? {
    guard let relationships, case .keyPath(let base, let components) = e.kind, case .variable("source") = base.kind,
      components.count == 1
    else { return nil }
    return relationships.first { $0.name == components[0] }
  }

  mutating func check(_ e: Expression) {
    guard problem == nil else { return }
    switch e.kind {
    case .constant, .evaluatedObject: return
    case .variable(let v):
      if v == "manager" { problem = "it uses $manager other than to ask for $source's destination objects" }
      if v == "source" && relationships != nil { problem = "it uses $source other than for its attributes" }
    case .keyPath(let base, let components):
      if case .variable("source") = base.kind {
        if let relationships, let first = components.first, relationships.contains(where: { $0.name == first }) {
          problem = "it reads the relationship \(first) other than to ask for its destination objects"
        }
        return
      }
      check(base)
    case .index(let base, let sub):
      check(base)
      if case .expression(let x) = sub { check(x) }
    case .function(let name, let args):
      if name.hasPrefix("random") {
        problem = "it calls \(name), whose values depend on how many objects came before"
        return
      }
      args.forEach { check($0) }
    case .selector(let target, let selector, let args):
      if case .variable("manager") = target.kind {
        if !isLocalManagerCall(selector, args) {
          problem = "it calls $manager's \(selector) for objects other than $source's destinations"
        }
        return
      }
      if relationships != nil && selector.hasPrefix("valueForKey") {
        problem = "it calls \(selector), which may read a relationship"
        return
      }
      check(target)
      args.forEach { check($0) }
    case .aggregate(let items): items.forEach { check($0) }
    case .fetch: problem = "it fetches objects of the store"
    case .cast(let value, _): check(value)
    case .ternary(let condition, let then, let otherwise):
      check(condition)
      check(then)
      check(otherwise)
    case .subquery(let collection, _, let predicate):
      check(collection)
      check(predicate)
    case .assignment(_, let value): check(value)
    case .setOperation(_, let a, let b):
      check(a)
      check(b)
    }
  }

  /// `$manager` asked for `$source`'s destination objects by a mapping over its own entity,
  /// or (with stubs) for those of `$source.<relationship>`, by the relationship's name or a
  /// mapping over its destination entity.
  private func isLocalManagerCall(_ selector: String, _ args: [Expression]) -> Bool {
    guard args.count == 2, case .constant(.string(let name)) = args[0].kind else { return false }
    switch selector {
    case "destinationInstancesForEntityMappingNamed:sourceInstances:":
      if case .variable("source") = args[1].kind { return overNames.contains(name) }
      guard let r = sourceRelationship(args[1]), let over = mappingSources[name] else { return false }
      return over == r.destinationEntity
    case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
      return sourceRelationship(args[1])?.name == name
    default:
      return false
    }
  }

  mutating func check(_ p: Predicate) {
    switch p.kind {
    case .constant: return
    case .not(let q): check(q)
    case .and(let qs), .or(let qs): qs.forEach { check($0) }
    case .comparison(let c):
      check(c.lhs)
      check(c.rhs)
    }
  }
}
