/// Setting properties of destination objects as a mapping expression would: attribute values
/// coerced to their type, relationships with their inverses, errors naming the object. Passes 1
/// and 2 and `MigrationManager.setDestinationValue` (custom policies) use it. Owns no state.
struct DestinationWrites {
  let run: MigrationContext

  @inline(__always) init(_ run: MigrationContext) { self.run = run }

  /// Sets a property of a destination object (attribute or relationship) from a value.
  func assign(_ v: Value, to ref: ObjectRef, property p: Int, location: SourceLocation?) throws(MigrationError) {
    let table = run.destination.table(ref)
    let prop = table.layout.properties[p]
    if let r = prop.relationship {
      try setRelationship(v, of: ref, column: p, isToMany: r.isToMany, location: location)
    } else {
      try store(v, table, Int(ref.row), p, origin: nil, mapping: run.linked[run.currentMappingIndex], propertyIndex: -1)
    }
  }

  /// Sets a destination property as a mapping expression would (type coercion, inverses).
  func setDestinationValue(_ value: Value, forKey key: String, of ref: ObjectRef) throws {
    let t = run.destination.table(ref)
    guard let p = t.layout.propertyIndex(key) else {
      throw MigrationError("run-unknown-property", "\(t.layout.name) has no property \(key)")
    }
    try assign(value, to: ref, property: p, location: nil)
  }

  /// Stores an attribute value after coercing it to the attribute's type.
  func store(
    _ v: Value, _ table: EntityTable, _ row: Int, _ column: Int, origin: ObjectRef?,
    mapping lm: LinkedMapping?, propertyIndex: Int
  ) throws(MigrationError) {
    guard let type = table.attributeTypes[column] else { return }
    do {
      try Coercion.setCoerced(table.columns[column], row, v, type, manager: run)
    } catch {
      let ref = ObjectRef(entity: table.layout.index, row: row)
      let name = table.layout.properties[column].name
      let who = lm.map { run.objectDescription(ref, origin: origin, mapping: $0.mapping) } ?? run.destinationID(ref)
      let location =
        lm.flatMap { propertyIndex >= 0 ? $0.propertyLocations[propertyIndex] : nil } ?? lm?.mapping.location
      throw MigrationError(
        error.code, "\(who): \(table.layout.name).\(name): \(error.message)", at: location, file: run.plan.mappingPath)
    }
  }

  /// Sets a relationship from a value: an object, nil, or a collection of objects (inverses too).
  func setRelationship(
    _ v: Value, of d: ObjectRef, column: Int, isToMany: Bool, location: SourceLocation?, origin: ObjectRef? = nil
  ) throws(MigrationError) {
    let entry = run.destinationInverses.entry(d.entity, column)!
    func fail(_ message: String) -> MigrationError {
      let lm = run.linked[run.currentMappingIndex]
      let table = run.destination.table(d)
      let prop = table.layout.properties[column]
      return MigrationError(
        "run-relationship-type",
        "\(run.objectDescription(d, origin: origin, mapping: lm.mapping)): \(table.layout.name).\(prop.name): \(message)",
        at: location ?? lm.mapping.location, file: run.plan.mappingPath)
    }
    func target(_ x: Value) throws(MigrationError) -> ObjectRef {
      guard case .destinationObject(let t) = x else {
        let expected =
          run.destination.table(d).layout.properties[column].relationship?.destinationEntity ?? "destination"
        throw fail("expected \(expected) objects of the destination store, got \(run.describe(x))")
      }
      guard entry.accepts[Int(t.entity)] else {
        let expected = run.destination.table(d).layout.properties[column].relationship?.destinationEntity ?? "other"
        throw fail("expected \(expected) objects, got a \(run.destination.table(t).layout.name)")
      }
      return t
    }
    switch v {
    case .destinationObject:
      if isToMany {
        run.destination.addToMany(d, column, try target(v), run.destinationInverses)
      } else {
        run.destination.setToOne(d, column, try target(v), run.destinationInverses)
      }
      return
    case .null:
      if !isToMany { run.destination.setToOne(d, column, nil, run.destinationInverses) }
      return
    default:
      break
    }
    if isToMany {
      let items = try run.elements(v)
      if items.count > 1 {
        (run.destination.tables[Int(d.entity)].columns[column] as? ToManyColumn)?.reserve(
          Int(d.row), extra: items.count)
      }
      var targets: [ObjectRef] = []
      targets.reserveCapacity(items.count)
      for x in items {
        let t = try target(x)
        run.destination.addToMany(d, column, t, run.destinationInverses)
        targets.append(t)
      }
      // An ordered relationship takes the value's order, also for members an inverse added
      // before (a child whose `parent` was set first): as setting an NSOrderedSet does.
      if items.count > 1, run.destination.table(d).layout.properties[column].relationship?.isOrdered == true {
        (run.destination.tables[Int(d.entity)].columns[column] as? ToManyColumn)?.order(Int(d.row), first: targets)
      }
    } else {
      let items = try run.elements(v)
      switch items.count {
      case 0: run.destination.setToOne(d, column, nil, run.destinationInverses)
      case 1: run.destination.setToOne(d, column, try target(items[0]), run.destinationInverses)
      default:
        throw fail("More than one relationship destination for a to-one relationship (\(items.count) objects)")
      }
    }
  }
}
