/// Core Data's `destinationInstancesForEntityMappingNamed:sourceInstances:` and
/// `destinationInstancesForSourceRelationshipNamed:sourceInstances:` as linked calls evaluate
/// them: the run's association tables read for sources. Reads the run; owns nothing.
struct AssociationLookup {
  let run: MigrationContext

  @inline(__always) init(_ run: MigrationContext) { self.run = run }

  /// The destination instances mapping `i` made from `sources` (an object or a collection).
  func destinations(
    mapping i: Int, sources: Value, _ located: (MigrationError) -> MigrationError
  ) throws(MigrationError) -> Value {
    var out: [Value] = []
    let a = run.associations[i]
    switch sources {
    case .null: return .array([])
    case .sourceObject(let ref):
      a.forEachDestination(forSourceKey: run.sourceKey(ref)) { out.append(.destinationObject($0)) }
    default:
      for s in try run.elements(sources) {
        guard case .sourceObject(let ref) = s else {
          throw located(
            MigrationError("run-type-mismatch", "sourceInstances must be source objects, got \(run.describe(s))"))
        }
        a.forEachDestination(forSourceKey: run.sourceKey(ref)) { out.append(.destinationObject($0)) }
      }
    }
    return .array(out)
  }

  /// Core Data's `destinationInstancesForSourceRelationshipNamed:sourceInstances:`: the
  /// destination instances of every mapping from the source relationship's entity to the
  /// destination relationship's entity.
  func destinationsForSourceRelationship(_ name: String, _ sources: Value, frame: Frame) throws(MigrationError) -> Value
  {
    let mappings = try mappings(forSourceRelationship: name, frame: frame)
    // Source by source, in the sources' order (an ordered relationship keeps it when its
    // members are of several entities, each made by another mapping), each source's instances
    // in the mappings' order.
    var out: [Value] = []
    for case .sourceObject(let ref) in try run.elements(sources) {
      let key = run.sourceKey(ref)
      for i in mappings {
        run.associations[i].forEachDestination(forSourceKey: key) { out.append(.destinationObject($0)) }
      }
    }
    return .array(KeyValueCoding(run).distinct(out))
  }

  /// The mappings whose destinations `destinationsForSourceRelationship` gives for the
  /// members of source relationship `name` of the frame's mapping, filling the frame's
  /// property: those from an entity of the relationship's destination to one of the
  /// destination relationship's. Worked out once per mapping, relationship and property (each
  /// object asks again).
  private func mappings(forSourceRelationship name: String, frame: Frame) throws(MigrationError) -> [Int] {
    let prop = run.propertyName(frame)
    let key = prop.map {
      EvaluationState.RelationshipMappings(mapping: frame.mapping, relationship: name, property: $0)
    }
    if let key, let known = run.state.relationshipMappings[key] { return known }
    let em = run.plan.entityMappings[frame.mapping]
    guard let srcEntity = em.sourceEntity, let se = run.source.layout.entity(srcEntity),
      let sp = se.propertyIndex(name), let srcRel = se.properties[sp].relationship
    else {
      throw MigrationError("run-unknown-key", "the source entity of \(em.name) has no relationship \(name)")
    }
    guard let key, let destEntity = em.destinationEntity,
      let de = run.destination.layout.entity(destEntity), let dp = de.propertyIndex(key.property),
      let destRel = de.properties[dp].relationship
    else {
      throw MigrationError(
        "run-unknown-key", "destinationInstancesForSourceRelationshipNamed: must be used in a relationship mapping")
    }
    let mappings = run.plan.entityMappings.indices.filter { i in
      let other = run.plan.entityMappings[i]
      guard let s = other.sourceEntity, let d = other.destinationEntity else { return false }
      return run.plan.sourceModel.isKind(s, of: srcRel.destinationEntity)
        && run.plan.destinationModel.isKind(d, of: destRel.destinationEntity)
    }
    run.state.relationshipMappings[key] = mappings
    return mappings
  }
}
