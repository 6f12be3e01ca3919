/// The ordered relationships whose members a chunk places by their index in the whole
/// relationship, without reading the relationship whole, when their owner is outside the chunk
/// (a stub): `positions`, per source entity, each such relationship's name and the destination
/// relationship the index carries over to (`Specs/limits.md`, "Memory").
///
/// A conversion copies every object as it is, so every ordered to-many relationship qualifies,
/// into itself. In a run the index carries over when the destination relationship lists the
/// destinations of the source relationship's members in their order, one each: the mapping over
/// the owner's entity (the only one over it) fills an ordered to-many relationship with
/// `destinationInstancesForSourceRelationshipNamed:sourceInstances:` of the relationship and
/// `$source.<relationship>` (as an inferred step does), and every entity a member may be has one
/// mapping, which makes one object of each source object (no `forEach`, a fetch of all of them)
/// of an entity the destination relationship may hold. Any other relationship is read whole, as
/// before: its members' indexes in the destination would depend on the members the chunk does
/// not hold.
extension StreamingPlan {
  /// Every ordered to-many relationship of `model`, into itself (a conversion).
  package static func copiedPositions(_ model: ObjectModel) -> [String: [String: String]] {
    var result: [String: [String: String]] = [:]
    for entity in model.entities {
      for r in model.allRelationships(of: entity) where r.isToMany && r.isOrdered && !r.isTransient {
        result[entity.name, default: [:]][r.name] = r.name
      }
    }
    return result
  }

  /// The names `StoreChunkReader`s take (`Entity.relationship`) of `positions`' relationships.
  package var positionsOnly: Set<String> {
    Set(positions.flatMap { e in e.value.keys.map { e.key + "." + $0 } })
  }

  /// The ordered relationships of `plan`'s source model whose indexes carry over to the
  /// destination, as above.
  package static func carriedPositions(_ plan: MigrationPlan) -> [String: [String: String]] {
    let source = plan.sourceModel
    let destination = plan.destinationModel
    let sole = soleMappings(plan)
    /// The destination entity each object of `entity` makes exactly one object of, if so.
    func oneEach(_ entity: String) -> String? {
      guard let m = sole[entity], m.forEach == nil, let d = m.destinationEntity else { return nil }
      if let e = m.sourceExpression, !fetchesAll(e.expression, of: entity) { return nil }
      return d
    }
    var result: [String: [String: String]] = [:]
    for entity in source.entities {
      guard let m = sole[entity.name], let d = m.destinationEntity, let dEntity = destination.entity(named: d)
      else { continue }
      for r in source.allRelationships(of: entity) where r.isToMany && r.isOrdered && !r.isTransient {
        let filling = m.relationshipMappings.filter {
          guard let e = $0.valueExpression?.expression else { return false }
          return Self.isCopy(of: r.name, e)
        }
        guard filling.count == 1,
          let target = destination.allRelationships(of: dEntity).first(where: { $0.name == filling[0].name }),
          target.isToMany, target.isOrdered
        else { continue }
        let kinds = ([r.destinationEntity] + source.subentities(of: r.destinationEntity).map(\.name)).filter {
          source.entity(named: $0)?.isAbstract == false
        }
        let carried = kinds.allSatisfy { k in
          guard let made = oneEach(k) else { return false }
          return destination.isKind(made, of: target.destinationEntity)
        }
        if carried { result[entity.name, default: [:]][r.name] = target.name }
      }
    }
    return result
  }

  /// The mapping over each source entity that has exactly one (a mapping that removes its
  /// objects not counted): the one that made each destination object of its objects.
  package static func soleMappings(_ plan: MigrationPlan) -> [String: EntityMapping] {
    var over: [String: [EntityMapping]] = [:]
    for m in plan.entityMappings where m.type != .remove {
      if let s = m.sourceEntity { over[s, default: []].append(m) }
    }
    return over.compactMapValues { $0.count == 1 ? $0[0] : nil }
  }

  /// `$manager`'s `destinationInstancesForSourceRelationshipNamed:sourceInstances:` for
  /// `relationship` and `$source.<relationship>`.
  static func isCopy(of relationship: String, _ e: Expression) -> Bool {
    guard
      case .selector(let target, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", let args) = e.kind,
      case .variable("manager") = target.kind, args.count == 2,
      case .constant(.string(let name)) = args[0].kind, name == relationship,
      case .keyPath(let base, let components) = args[1].kind, case .variable("source") = base.kind,
      components == [relationship]
    else { return false }
    return true
  }

  /// A fetch of every object of `entity` (`TRUEPREDICATE`, or no predicate).
  static func fetchesAll(_ e: Expression, of entity: String) -> Bool {
    guard let predicate = fetchPredicate(e, of: entity) else { return false }
    return predicate.isEmpty || predicate == "TRUEPREDICATE"
  }
}
