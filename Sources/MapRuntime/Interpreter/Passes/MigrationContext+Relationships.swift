/// Pass 2 of the default policy: relationship expressions, and setting relationships with
/// their inverses.
extension MigrationContext {
  /// What the default policy does for one destination instance: evaluate every relationship
  /// expression with `$source` bound to the instance's source.
  func defaultCreateRelationships(forDestination d: ObjectRef) throws {
    let i = currentMappingIndex
    let a = associations[i]
    let sourceRef: ObjectRef?
    if state.currentInstanceIndex >= 0, state.currentInstanceIndex < a.instanceCount,
      a.destination(at: state.currentInstanceIndex) == d
    {
      sourceRef = a.source(at: state.currentInstanceIndex)
    } else {
      sourceRef = (0..<a.instanceCount).first { a.destination(at: $0) == d }.flatMap { a.source(at: $0) }
    }
    try defaultRelationships(linked[i], d, source: sourceRef)
  }

  func defaultRelationships(_ lm: LinkedMapping, _ d: ObjectRef, source sourceRef: ObjectRef?) throws(MigrationFailure)
  {
    var frame = Frame(mapping: currentMappingIndex)
    try defaultRelationships(lm, d, source: sourceRef, frame: &frame)
  }

  /// `defaultRelationships` with a frame reused from one destination object to the next.
  func defaultRelationships(_ lm: LinkedMapping, _ d: ObjectRef, source sourceRef: ObjectRef?, frame: inout Frame)
    throws(MigrationFailure)
  {
    // Every relationship straight from association tables: no expression, no frame. (Linking
    // twice changes nothing, so a relationship left to the general path may be redone there.)
    if lm.allRelationshipsLinked, lm.destinationEntity == Int(d.entity), let sourceRef {
      let key = sourceKey(sourceRef)
      let columns = lm.relationshipColumns
      let toMany = lm.relationshipIsToMany
      let links = lm.relationshipLinks
      var done = true
      for k in 0..<columns.count where !linkDirectly(d, columns[k], toMany[k], associations[links[k]], key) {
        done = false
        break
      }
      if done { return }
    }
    frame.reset(mapping: currentMappingIndex, source: sourceRef.map { .sourceObject($0) } ?? .null)
    frame.destination = .destinationObject(d)
    // A policy may associate instances of another entity with this mapping: find the
    // relationship by name in their entity.
    let sameEntity = lm.destinationEntity == Int(d.entity)
    let base = lm.attributeColumns.count
    let columns = lm.relationshipColumns
    let codes = lm.relationshipCodes
    let toMany = lm.relationshipIsToMany
    let links = lm.relationshipLinks
    let sourceKey = sourceRef.map(sourceKey)
    for k in 0..<columns.count {
      frame.propertyIndex = base + k
      if sameEntity, links[k] >= 0, let sourceKey,
        linkDirectly(d, columns[k], toMany[k], associations[links[k]], sourceKey)
      {
        continue
      }
      do throws(MigrationError) {
        let v = try codes[k](self, &frame)
        var column = columns[k]
        var isToMany = toMany[k]
        if !sameEntity {
          let layout = destination.table(d).layout
          let name = lm.propertyNames[base + k]
          guard let c = layout.propertyIndex(name), let rel = layout.properties[c].relationship else {
            throw MigrationError(
              "run-unknown-property",
              "\(objectDescription(d, origin: sourceRef, mapping: lm.mapping)) has no relationship \(name), which mapping \(lm.mapping.name) sets",
              at: lm.propertyLocations[base + k] ?? lm.mapping.location, file: plan.mappingPath)
          }
          column = c
          isToMany = rel.isToMany
        }
        try setRelationship(
          v, of: d, column: column, isToMany: isToMany, location: lm.propertyLocations[base + k], origin: sourceRef)
      } catch {
        try record(error)
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
      let col = unsafeDowncast(destination.tables[Int(d.entity)].columns[column], to: ToManyColumn.self)
      let row = Int(d.row)
      if n <= ToManyColumn.linearLimit, col.count(row) == 0 {
        // An empty relationship and distinct new members (each association is another
        // instance): no search for duplicates.
        col.reserve(row, extra: n)
        let entry = destinationInverses.entry(d.entity, column)
        a.forEachDestination(forSourceKey: key) { t in
          col.appendAbsent(row, t)
          if let entry { destination.addInverse(d, column, t, entry) }
        }
        return true
      }
      if n > 1 { col.reserve(row, extra: n) }
      a.forEachDestination(forSourceKey: key) { destination.addToMany(d, column, $0, destinationInverses) }
      return true
    }
    switch n {
    case 0: destination.setToOne(d, column, nil, destinationInverses)
    case 1: a.forEachDestination(forSourceKey: key) { destination.setToOne(d, column, $0, destinationInverses) }
    default: return false
    }
    return true
  }

  func setRelationship(
    _ v: Value, of d: ObjectRef, column: Int, isToMany: Bool, location: SourceLocation?, origin: ObjectRef? = nil
  ) throws(MigrationError) {
    let entry = destinationInverses.entry(d.entity, column)!
    func fail(_ message: String) -> MigrationError {
      let lm = linked[currentMappingIndex]
      let table = destination.table(d)
      let prop = table.layout.properties[column]
      return MigrationError(
        "run-relationship-type",
        "\(objectDescription(d, origin: origin, mapping: lm.mapping)): \(table.layout.name).\(prop.name): \(message)",
        at: location ?? lm.mapping.location, file: plan.mappingPath)
    }
    func target(_ x: Value) throws(MigrationError) -> ObjectRef {
      guard case .destinationObject(let t) = x else {
        let expected = destination.table(d).layout.properties[column].relationship?.destinationEntity ?? "destination"
        throw fail("expected \(expected) objects of the destination store, got \(describe(x))")
      }
      guard entry.accepts[Int(t.entity)] else {
        let expected = destination.table(d).layout.properties[column].relationship?.destinationEntity ?? "other"
        throw fail("expected \(expected) objects, got a \(destination.table(t).layout.name)")
      }
      return t
    }
    switch v {
    case .destinationObject:
      if isToMany {
        destination.addToMany(d, column, try target(v), destinationInverses)
      } else {
        destination.setToOne(d, column, try target(v), destinationInverses)
      }
      return
    case .null:
      if !isToMany { destination.setToOne(d, column, nil, destinationInverses) }
      return
    default:
      break
    }
    if isToMany {
      let items = try elements(v)
      if items.count > 1 {
        (destination.tables[Int(d.entity)].columns[column] as? ToManyColumn)?.reserve(Int(d.row), extra: items.count)
      }
      var targets: [ObjectRef] = []
      targets.reserveCapacity(items.count)
      for x in items {
        let t = try target(x)
        destination.addToMany(d, column, t, destinationInverses)
        targets.append(t)
      }
      // An ordered relationship takes the value's order, also for members an inverse added
      // before (a child whose `parent` was set first): as setting an NSOrderedSet does.
      if items.count > 1, destination.table(d).layout.properties[column].relationship?.isOrdered == true {
        (destination.tables[Int(d.entity)].columns[column] as? ToManyColumn)?.order(Int(d.row), first: targets)
      }
    } else {
      let items = try elements(v)
      switch items.count {
      case 0: destination.setToOne(d, column, nil, destinationInverses)
      case 1: destination.setToOne(d, column, try target(items[0]), destinationInverses)
      default:
        throw fail("More than one relationship destination for a to-one relationship (\(items.count) objects)")
      }
    }
  }
}
