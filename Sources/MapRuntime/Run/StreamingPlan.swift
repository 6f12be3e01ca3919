/// Which source entities of a plan can go through a run a chunk of objects at a time, with the
/// same result as reading them all at once (`Specs/limits.md`, "Memory").
///
/// An entity streams when nothing any mapping computes for one of its objects depends on
/// another object of the store:
/// - the entity stands alone in the source model: no parent, no sub-entities, not abstract, no
///   relationships, and no relationship of the model points at it;
/// - every mapping over it uses the default policy, fetches it whole (a constant predicate of
///   its own attributes at most), and its expressions read only the object itself (`$source`,
///   `$item`, `$index`, `$destination`, constants, built-ins other than the random ones, the
///   built-in policy functions) or ask for the destination objects of a mapping over the same
///   entity *for `$source`*;
/// - each destination entity those mappings fill stands alone in the destination model, has no
///   uniqueness constraint, and is filled by that one mapping only;
/// - no mapping over another entity fetches it or asks for the objects of a mapping over it.
///
/// Every destination object then depends on its own source object only, and numbering each
/// destination entity's objects on from the previous chunk's gives each the number the run
/// over the whole store gives it.
package struct StreamingPlan: Sendable {
  /// Source entities (their names) that stream.
  package var streamed: Set<String> = []
  /// For each source entity that does not stream, why (for `run-memory-limit`'s message).
  package var reasons: [String: String] = [:]

  /// Analyses `plan`; `usesDefaultPolicy` is per entity mapping, in plan order.
  /// `sourceCheck` and `destinationCheck`: why the store format cannot read (write) an entity of
  /// the source (destination) model in chunks, besides these rules (`ChunkedStoreFormat`).
  package init(
    _ plan: MigrationPlan, usesDefaultPolicy: [Bool], sourceCheck: (String) -> String? = { _ in nil },
    destinationCheck: (String) -> String? = { _ in nil }
  ) {
    let source = plan.sourceModel
    let mappingsByName = Dictionary(plan.entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    var mentions = Mentions()
    for m in plan.entityMappings { mentions.collect(m) }
    var destinationFillers: [String: Int] = [:]
    for m in plan.entityMappings {
      if let d = m.destinationEntity, m.type != .remove { destinationFillers[d, default: 0] += 1 }
    }
    for entity in source.entities {
      let s = entity.name
      if let why = Self.standsAlone(s, in: source) ?? sourceCheck(s) {
        reasons[s] = why
        continue
      }
      let over = plan.entityMappings.enumerated().filter { $0.element.sourceEntity == s }
      let overNames = Set(over.map(\.element.name))
      var why: String?
      if mentions.dynamic {
        why = "a mapping names another mapping or entity by a computed value"
      }
      for (i, m) in over where why == nil {
        why = Self.mappingReason(
          m, isDefault: usesDefaultPolicy.indices.contains(i) && usesDefaultPolicy[i], overNames: overNames,
          plan: plan, fillers: destinationFillers, destinationCheck: destinationCheck)
      }
      if why == nil {
        for m in plan.entityMappings where m.sourceEntity != s {
          let named = mentions.mappings[m.name, default: []].filter { mappingsByName[$0]?.sourceEntity == s }
          if let first = named.sorted().first {
            why = "mapping \(m.name) asks for the objects of mapping \(first)"
          } else if mentions.fetched[m.name, default: []].contains(s) {
            why = "mapping \(m.name) fetches \(s) objects"
          }
          if why != nil { break }
        }
      }
      if let why { reasons[s] = why } else { streamed.insert(s) }
    }
  }

  /// Nil when `name` has no parent, sub-entity or relationship and no relationship points at
  /// it; else why not.
  private static func standsAlone(_ name: String, in model: ObjectModel) -> String? {
    guard let e = model.entity(named: name) else { return "the model has no entity \(name)" }
    if e.isAbstract { return "it is abstract" }
    if e.parentName != nil { return "it has a parent entity" }
    if model.entities.contains(where: { $0.parentName == name }) { return "it has sub-entities" }
    if let r = e.relationships.first { return "it has a relationship (\(r.name))" }
    if let other = model.entities.first(where: { o in o.relationships.contains { $0.destinationEntity == name } }) {
      return "a relationship of \(other.name) points at it"
    }
    return nil
  }

  private static func mappingReason(
    _ m: EntityMapping, isDefault: Bool, overNames: Set<String>, plan: MigrationPlan, fillers: [String: Int],
    destinationCheck: (String) -> String?
  ) -> String? {
    let n = m.name
    if !isDefault { return "mapping \(n) has a custom policy" }
    if let d = m.destinationEntity, m.type != .remove {
      if let why = standsAloneAsDestination(d, plan.destinationModel) ?? destinationCheck(d) {
        return "destination \(d) of \(n): \(why)"
      }
      if fillers[d, default: 0] > 1 { return "destination \(d) of \(n) is filled by more than one mapping" }
    }
    if let e = m.sourceExpression, !isWholeFetch(e.expression, of: m.sourceEntity ?? "") {
      return "mapping \(n) selects its source objects with more than a fetch of its own entity"
    }
    var local = Locality(overNames: overNames)
    if let f = m.forEach { local.check(f.expression) }
    for p in m.attributeMappings + m.relationshipMappings {
      if let e = p.valueExpression { local.check(e.expression) }
    }
    return local.problem.map { "mapping \(n): \($0)" }
  }

  private static func standsAloneAsDestination(_ name: String, _ model: ObjectModel) -> String? {
    guard let e = model.entity(named: name) else { return "not in the destination model" }
    if e.parentName != nil || model.entities.contains(where: { $0.parentName == name }) {
      return "it is part of an inheritance tree"
    }
    if !e.uniquenessConstraints.isEmpty { return "it has uniqueness constraints" }
    return nil
  }

  /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", entity,
  /// predicate), $manager.sourceContext, NO)` with constant strings, the predicate one that
  /// names no variable, function, fetch or subquery.
  static func isWholeFetch(_ e: Expression, of entity: String) -> Bool {
    guard case .fetch(let request, _, let countOnly) = e.kind, !countOnly,
      case .selector(let target, "fetchRequestForSourceEntityNamed:predicateString:", let args) = request.kind,
      case .variable("manager") = target.kind, args.count == 2,
      case .constant(.string(let name)) = args[0].kind, name == entity,
      case .constant(.string(let predicate)) = args[1].kind
    else { return false }
    let upper = predicate.uppercased()
    return !predicate.contains("$") && !["FUNCTION", "FETCH", "SUBQUERY"].contains { upper.contains($0) }
  }
}

/// Whether expressions read only the object they are evaluated for (`StreamingPlan`).
private struct Locality {
  let overNames: Set<String>
  var problem: String?

  init(overNames: Set<String>) { self.overNames = overNames }

  mutating func check(_ e: Expression) {
    guard problem == nil else { return }
    switch e.kind {
    case .constant, .evaluatedObject: return
    case .variable(let v):
      if v == "manager" { problem = "it uses $manager other than to ask for $source's destination objects" }
    case .keyPath(let base, _): check(base)
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
        guard selector == "destinationInstancesForEntityMappingNamed:sourceInstances:", args.count == 2,
          case .constant(.string(let name)) = args[0].kind, overNames.contains(name),
          case .variable("source") = args[1].kind
        else {
          problem = "it calls $manager's \(selector) for objects other than $source's destinations"
          return
        }
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

/// What each mapping's expressions name: mappings (in `$manager` calls) and fetched source
/// entities; `dynamic` when a name is computed.
private struct Mentions {
  var mappings: [String: Set<String>] = [:]
  var fetched: [String: Set<String>] = [:]
  var dynamic = false

  mutating func collect(_ m: EntityMapping) {
    var exprs = [m.sourceExpression, m.forEach].compactMap { $0?.expression }
    exprs += (m.attributeMappings + m.relationshipMappings).compactMap { $0.valueExpression?.expression }
    for e in exprs { walk(e, m.name) }
  }

  private mutating func walk(_ e: Expression, _ owner: String) {
    ExpressionWalk.each(e) { x in
      guard case .selector(let target, let selector, let args) = x.kind, case .variable("manager") = target.kind,
        let first = args.first
      else { return }
      let fetches = selector.hasPrefix("fetchRequestForSourceEntityNamed")
      guard fetches || selector.contains("EntityMappingNamed") else { return }
      if case .constant(.string(let name)) = first.kind {
        if fetches { fetched[owner, default: []].insert(name) } else { mappings[owner, default: []].insert(name) }
      } else {
        dynamic = true
      }
    }
  }
}
