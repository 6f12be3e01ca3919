import MapRuntime

extension StepAnalysis {
  static let relationshipCopy = "destinationInstancesForSourceRelationshipNamed:sourceInstances:"

  /// What `plan` does to every source entity and property (`Specs/migrate.md` §6): an entity is
  /// migrated when an entity mapping (not `remove`) takes it or an ancestor as its source; a
  /// property of it is read when one of those mappings mentions its name in an expression, has
  /// a custom policy, or any mapping reaches it by a `$source` key path.
  public static func analyze(_ plan: MigrationPlan) -> StepAnalysis {
    let model = plan.sourceModel
    var predicates: [String: Predicate] = [:]
    for p in plan.predicates { predicates[p.text] = p.predicate }
    let reads = plan.entityMappings.map { ExpressionReads(expressions(of: $0), predicates: predicates) }
    var reached: Set<String> = []
    for (m, r) in zip(plan.entityMappings, reads) {
      guard let s = m.sourceEntity else { continue }
      for path in r.sourcePaths { reached.formUnion(follow(path, from: s, in: model)) }
    }
    let sources = model.entities.map { e -> SourceEntity in
      let readers = plan.entityMappings.indices.filter { i in
        let m = plan.entityMappings[i]
        guard m.type != .remove, let s = m.sourceEntity else { return false }
        return model.isKind(e.name, of: s)
      }
      let removal = plan.entityMappings.first { $0.type == .remove && $0.sourceEntity == e.name }
      let fate: EntityFate =
        !readers.isEmpty
        ? .migrated(readers.map { plan.entityMappings[$0].name }) : removal.map { .removed($0.name) } ?? .dropped
      let kinds = Set([e.name] + model.ancestors(of: e).map(\.name))
      let properties =
        model.allAttributes(of: e).filter { !$0.isTransient }.map { ($0.name, false) }
        + model.allRelationships(of: e).filter { !$0.isTransient }.map { ($0.name, true) }
      return SourceEntity(
        name: e.name, isAbstract: e.isAbstract, fate: fate,
        properties: properties.map { name, isRelationship in
          let fate = propertyFate(
            name, isRelationship: isRelationship, readers: readers.map { (plan.entityMappings[$0], reads[$0]) },
            reached: kinds.contains { reached.contains($0 + "." + name) }, plan: plan)
          return SourceProperty(name: name, isRelationship: isRelationship, fate: fate)
        })
    }
    let destinations = plan.destinationModel.entities.map { d in
      DestinationEntity(
        name: d.name,
        madeBy: plan.entityMappings.filter { $0.type != .remove && $0.destinationEntity == d.name }.map {
          ($0.name, $0.sourceEntity)
        })
    }
    return StepAnalysis(sourceEntities: sources, destinationEntities: destinations)
  }

  private static func propertyFate(
    _ name: String, isRelationship: Bool, readers: [(EntityMapping, ExpressionReads)], reached: Bool,
    plan: MigrationPlan
  ) -> PropertyFate {
    for (m, _) in readers {
      guard let d = m.destinationEntity.flatMap(plan.destinationModel.entity(named:)) else { continue }
      for p in m.attributeMappings + m.relationshipMappings {
        guard let e = p.valueExpression?.expression, let fate = copyFate(e, of: name, into: p.name) else { continue }
        if case .kept = fate, !isRelationship,
          let a = plan.sourceModel.entity(named: m.sourceEntity ?? "").flatMap({ entity in
            plan.sourceModel.allAttributes(of: entity).first { $0.name == name }
          }),
          let b = plan.destinationModel.allAttributes(of: d).first(where: { $0.name == p.name }), a.type != b.type
        {
          return .converted(b.type.rawValue)
        }
        return fate
      }
    }
    if reached || readers.contains(where: { $0.0.policyName != nil || $0.1.names.contains(name) }) { return .read }
    return .dropped
  }

  /// How `e` copies source property `name` into destination property `target`, when it is one
  /// of the plain copies inference and the compiler write.
  private static func copyFate(_ e: Expression, of name: String, into target: String) -> PropertyFate? {
    let moved: PropertyFate = target == name ? .kept : .renamed(target)
    switch e.kind {
    case .keyPath(let base, let components) where components == [name]:
      if case .variable("source") = base.kind { return moved }
    case .selector(_, relationshipCopy, let arguments):
      if case .constant(.string(name))? = arguments.first?.kind { return moved }
    case .selector(_, "defaultValue:for:", let arguments):
      if let last = arguments.last, copyFate(last, of: name, into: target) != nil { return .defaulted(target) }
    default: break
    }
    return nil
  }

  /// Every expression of an entity mapping.
  static func expressions(of m: EntityMapping) -> [Expression] {
    [m.sourceExpression, m.forEach].compactMap { $0?.expression }
      + (m.attributeMappings + m.relationshipMappings).compactMap { $0.valueExpression?.expression }
  }

  /// `Entity.property` for each step of a `$source` key path from entity `start`.
  static func follow(_ path: [String], from start: String, in model: ObjectModel) -> [String] {
    var result: [String] = []
    var entity = model.entity(named: start)
    for component in path {
      guard let e = entity else { break }
      if model.allAttributes(of: e).contains(where: { $0.name == component }) {
        result.append(e.name + "." + component)
        break
      }
      guard let r = model.allRelationships(of: e).first(where: { $0.name == component }) else { break }
      result.append(e.name + "." + component)
      entity = model.entity(named: r.destinationEntity)
    }
    return result
  }
}
