/// The policy API's work (see `MigrationManager+PolicyAPI.swift`, its public face): finding
/// objects, key paths, associations, errors naming objects. A view of the run; owns nothing.
struct PolicyQueries {
  let run: MigrationContext

  init(_ run: MigrationContext) { self.run = run }

  // MARK: - The mapping being run

  /// Core Data's `currentEntityMapping`: the entity mapping whose hook or expression runs.
  var currentEntityMapping: EntityMapping { run.plan.entityMappings[run.state.currentMappingIndex] }

  // MARK: - Finding objects

  /// Every source object of an entity and of its sub-entities, in store order (what a FETCH
  /// without predicate returns).
  func sourceInstances(ofEntity name: String) throws -> [ObjectRef] {
    guard let e = run.source.layout.entityIndex(name) else {
      throw MigrationError("run-unknown-entity", "the source model has no entity \(name)")
    }
    return run.source.objects(ofKind: e)
  }

  /// Every destination object created so far of an entity and of its sub-entities, in creation
  /// order.
  func destinationInstances(ofEntity name: String) throws -> [ObjectRef] {
    guard let e = run.destination.layout.entityIndex(name) else {
      throw MigrationError("run-unknown-entity", "the destination model has no entity \(name)")
    }
    return run.destination.objects(ofKind: e)
  }

  /// The destination instances the current entity mapping made from `source`, in creation order.
  func destinationInstances(forSource source: ObjectRef) -> [ObjectRef] {
    run.associations[run.state.currentMappingIndex].destinations(forSourceKey: run.sourceKey(source))
  }

  /// The name of a source object's entity.
  func entityName(ofSource ref: ObjectRef) -> String { run.source.table(ref).layout.name }

  /// The name of a destination object's entity.
  func entityName(ofDestination ref: ObjectRef) -> String { run.destination.table(ref).layout.name }

  // MARK: - Reading values

  /// A property of a source object (nil for unknown keys).
  func sourceValue(_ ref: ObjectRef, _ key: String) -> Value {
    let t = run.source.table(ref)
    guard let p = t.layout.propertyIndex(key) else { return .null }
    return t.columns[p].read(Int(ref.row))
  }

  /// A property of a destination object.
  func destinationValue(_ ref: ObjectRef, _ key: String) -> Value {
    let t = run.destination.table(ref)
    guard let p = t.layout.propertyIndex(key) else { return .null }
    return t.columns[p].read(Int(ref.row))
  }

  /// Key-value coding as in expressions: `value(forKeyPath: "questions.@count", of: .sourceObject(r))`.
  /// Key paths through nil give nil; an unknown key throws `run-unknown-key`.
  func value(forKeyPath path: String, of value: Value) throws -> Value {
    let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    return try KeyValueCoding(run).value(of: value, path: ArraySlice(keys))
  }

  /// The characters of a string value; nil for nil and for values that are not strings.
  func string(_ value: Value) -> String? {
    if case .string(let t) = value { return run.string(t) }
    return nil
  }

  // MARK: - Changing destination objects

  /// Creates a destination instance with the model's defaults; used by custom policies too.
  func createDestinationInstance(entityNamed name: String) throws -> ObjectRef {
    guard let e = run.destination.layout.entityIndex(name) else {
      throw MigrationError("run-unknown-entity", "the destination model has no entity \(name)")
    }
    return createDestinationInstance(entity: e)
  }

  @inline(__always) func createDestinationInstance(entity e: Int) -> ObjectRef {
    ObjectRef(entity: e, row: run.destination.tables[e].appendObject())
  }

  /// Records that `destination` was made from `source` by the current entity mapping.
  func associate(source: ObjectRef?, destination: ObjectRef) {
    run.associations[run.state.currentMappingIndex].add(
      source: source, sourceKey: source.map(run.sourceKey), destination: destination)
  }

  /// Records that `destination` was made from `source` by the entity mapping named `mapping`
  /// (Core Data's `associateSourceInstance:withDestinationInstance:forEntityMapping:`). Pass 2
  /// then runs that mapping's relationship expressions for it, and
  /// `destinationInstancesForEntityMappingNamed:sourceInstances:` finds it.
  func associate(source: ObjectRef?, destination: ObjectRef, entityMappingNamed mapping: String) throws {
    guard let i = run.plan.entityMappings.firstIndex(where: { $0.name == mapping }) else {
      throw MigrationError("run-unknown-mapping", "no entity mapping named \(mapping)")
    }
    run.associations[i].add(source: source, sourceKey: source.map(run.sourceKey), destination: destination)
  }

  // MARK: - Errors

  /// An error that names `object` the way mapc's own errors do: `Song/5 (created by
  /// LegacySongToSong from LegacySong/6)` for a destination object, `source object
  /// LegacySong/6` for a source one. Throw it from a hook or a policy function; the run then
  /// fails and nothing is written. It has no position of its own: thrown from a policy function
  /// it is placed at the calling expression, from a hook at the `<entityMapping>` element.
  func error(_ message: String, about object: Value? = nil, code: String = "run-policy-error") -> MigrationError {
    var text = message
    switch object {
    case .destinationObject(let d)?:
      text = "\(describeDestination(d)): \(message)"
    case .sourceObject(let s)?:
      text = "source object \(run.sourceID(s)): \(message)"
    case let other?:
      text = "\(run.describe(other)): \(message)"
    case nil:
      break
    }
    return MigrationError(code, text)
  }

  /// `Song/5 (created by LegacySongToSong from LegacySong/6)`: the id, the mapping that made
  /// the object and its source, looked up in every mapping's associations.
  func describeDestination(_ d: ObjectRef) -> String {
    for (i, a) in run.associations.enumerated() {
      for k in 0..<a.instanceCount where a.destination(at: k) == d {
        return run.objectDescription(d, origin: a.source(at: k), mapping: run.plan.entityMappings[i])
      }
    }
    // Not associated yet: an instance whose attributes are being evaluated.
    if let frame = run.state.currentFrame, frame.destination.destinationObject == d {
      return run.objectDescription(d, origin: frame.source.sourceObject, mapping: currentEntityMapping)
    }
    return run.destinationID(d)
  }
}
