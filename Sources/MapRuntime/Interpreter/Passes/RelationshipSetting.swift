/// Pass 2 of the default policy: relationship expressions, and relationships set straight from
/// association tables. One per run (`MigrationManager` makes it, its `PassEngine` and the policy
/// API use it).
final class RelationshipSetting {
  let run: MigrationContext
  /// While pass 2 runs, the position in the current mapping's association table of the instance
  /// whose relationships are being set (a policy's `defaultCreateRelationships` finds its source
  /// there without a search); -1 elsewhere.
  @exclusivity(unchecked) var currentInstanceIndex = -1

  init(_ run: MigrationContext) { self.run = run }

  /// What the default policy does for one destination instance: evaluate every relationship
  /// expression with `$source` bound to the instance's source.
  func defaultCreateRelationships(forDestination d: ObjectRef) throws {
    let i = run.currentMappingIndex
    let a = run.associations[i]
    let sourceRef: ObjectRef?
    if currentInstanceIndex >= 0, currentInstanceIndex < a.instanceCount,
      a.destination(at: currentInstanceIndex) == d
    {
      sourceRef = a.source(at: currentInstanceIndex)
    } else {
      sourceRef = (0..<a.instanceCount).first { a.destination(at: $0) == d }.flatMap { a.source(at: $0) }
    }
    try defaultRelationships(run.linked[i], d, source: sourceRef)
  }

  func defaultRelationships(_ lm: LinkedMapping, _ d: ObjectRef, source sourceRef: ObjectRef?) throws(MigrationFailure)
  {
    var frame = Frame(mapping: run.currentMappingIndex)
    try defaultRelationships(lm, d, source: sourceRef, frame: &frame)
  }

  /// `defaultRelationships` with a frame reused from one destination object to the next.
  func defaultRelationships(_ lm: LinkedMapping, _ d: ObjectRef, source sourceRef: ObjectRef?, frame: inout Frame)
    throws(MigrationFailure)
  {
    // Every relationship straight from association tables: no expression, no frame. (Linking
    // twice changes nothing, so a relationship left to the general path may be redone there.)
    if lm.allRelationshipsLinked, lm.destinationEntity == Int(d.entity), let sourceRef {
      let key = run.sourceKey(sourceRef)
      let columns = lm.relationshipColumns
      let toMany = lm.relationshipIsToMany
      let links = lm.relationshipLinks
      var done = true
      for k in 0..<columns.count where !linkDirectly(d, columns[k], toMany[k], run.associations[links[k]], key) {
        done = false
        break
      }
      if done { return }
    }
    frame.reset(mapping: run.currentMappingIndex, source: sourceRef.map { .sourceObject($0) } ?? .null)
    frame.destination = .destinationObject(d)
    // A policy may associate instances of another entity with this mapping: find the
    // relationship by name in their entity.
    let sameEntity = lm.destinationEntity == Int(d.entity)
    let base = lm.attributeColumns.count
    let columns = lm.relationshipColumns
    let codes = lm.relationshipCodes
    let toMany = lm.relationshipIsToMany
    let links = lm.relationshipLinks
    let sourceKey = sourceRef.map(run.sourceKey)
    for k in 0..<columns.count {
      frame.propertyIndex = base + k
      if sameEntity, links[k] >= 0, let sourceKey,
        linkDirectly(d, columns[k], toMany[k], run.associations[links[k]], sourceKey)
      {
        continue
      }
      do throws(MigrationError) {
        let v = try codes[k](run, &frame)
        var column = columns[k]
        var isToMany = toMany[k]
        if !sameEntity {
          let layout = run.destination.table(d).layout
          let name = lm.propertyNames[base + k]
          guard let c = layout.propertyIndex(name), let rel = layout.properties[c].relationship else {
            throw MigrationError(
              "run-unknown-property",
              "\(run.objectDescription(d, origin: sourceRef, mapping: lm.mapping)) has no relationship \(name), which mapping \(lm.mapping.name) sets",
              at: lm.propertyLocations[base + k] ?? lm.mapping.location, file: run.plan.mappingPath)
          }
          column = c
          isToMany = rel.isToMany
        }
        try DestinationWrites(run).setRelationship(
          v, of: d, column: column, isToMany: isToMany, location: lm.propertyLocations[base + k], origin: sourceRef)
      } catch {
        try run.record(error)
      }
    }
  }

  /// Sets a relationship to the instances another mapping made from the same source, straight
  /// from that mapping's association table: what evaluating
  /// `destinationInstancesForEntityMappingNamed:sourceInstances:` with `$source` and setting the
  /// result would do. Returns false (and does nothing) for the case left to the general path:
  /// several instances for a to-one relationship, which is an error.
  private func linkDirectly(_ d: ObjectRef, _ column: Int, _ isToMany: Bool, _ a: Associations, _ key: Int) -> Bool {
    let n = a.destinationCount(forSourceKey: key)
    if isToMany {
      if n == 0 { return true }
      let col = unsafeDowncast(run.destination.tables[Int(d.entity)].columns[column], to: ToManyColumn.self)
      let row = Int(d.row)
      if n <= ToManyColumn.linearLimit, col.count(row) == 0 {
        // An empty relationship and distinct new members (each association is another
        // instance): no search for duplicates.
        col.reserve(row, extra: n)
        let entry = run.destinationInverses.entry(d.entity, column)
        a.forEachDestination(forSourceKey: key) { t in
          col.appendAbsent(row, t)
          if let entry { run.destination.addInverse(d, column, t, entry) }
        }
        return true
      }
      if n > 1 { col.reserve(row, extra: n) }
      a.forEachDestination(forSourceKey: key) { run.destination.addToMany(d, column, $0, run.destinationInverses) }
      return true
    }
    switch n {
    case 0: run.destination.setToOne(d, column, nil, run.destinationInverses)
    case 1: a.forEachDestination(forSourceKey: key) { run.destination.setToOne(d, column, $0, run.destinationInverses) }
    default: return false
    }
    return true
  }
}
