/// What a custom `EntityMigrationPolicy` uses besides the hooks' defaults: the mapping being
/// run, finding objects, reading and setting values, associations, and errors that name an
/// object. Each is carried out by the run's `MigrationContext`, which the interpreter shares.
extension MigrationManager {
  // MARK: - The mapping being run

  /// Core Data's `currentEntityMapping`: the entity mapping whose hook or expression runs.
  public var currentEntityMapping: EntityMapping { PolicyQueries(context).currentEntityMapping }

  /// The name of the property mapping a frame is evaluating, if any.
  public func propertyName(_ frame: Frame) -> String? { context.propertyName(frame) }

  // MARK: - The default behaviour

  /// What the default policy does for one source instance: one destination instance, or one
  /// per element of `forEach`; model defaults, then every attribute expression; then the
  /// association with the source.
  public func defaultCreateDestinationInstances(forSource source: ObjectRef?) throws {
    try creation.defaultCreateDestinationInstances(forSource: source)
  }

  /// What the default policy does for one destination instance: evaluate every relationship
  /// expression with `$source` bound to the instance's source.
  public func defaultCreateRelationships(forDestination destination: ObjectRef) throws {
    try relationships.defaultCreateRelationships(forDestination: destination)
  }

  // MARK: - Finding objects

  /// Every source object of an entity and of its sub-entities, in store order (what a FETCH
  /// without predicate returns).
  public func sourceInstances(ofEntity name: String) throws -> [ObjectRef] {
    try PolicyQueries(context).sourceInstances(ofEntity: name)
  }

  /// Every destination object created so far of an entity and of its sub-entities, in creation
  /// order.
  public func destinationInstances(ofEntity name: String) throws -> [ObjectRef] {
    try PolicyQueries(context).destinationInstances(ofEntity: name)
  }

  /// The destination instances the current entity mapping made from `source`, in creation order.
  public func destinationInstances(forSource source: ObjectRef) -> [ObjectRef] {
    PolicyQueries(context).destinationInstances(forSource: source)
  }

  /// Core Data's `destinationInstancesForEntityMappingNamed:sourceInstances:`.
  public func destinationInstances(forEntityMappingNamed name: String, sourceInstances: [ObjectRef])
    throws -> [ObjectRef]
  {
    try context.destinationInstances(forEntityMappingNamed: name, sourceInstances: sourceInstances)
  }

  /// Core Data's `sourceInstancesForEntityMappingNamed:destinationInstances:`.
  public func sourceInstances(forEntityMappingNamed name: String, destinationInstances: [ObjectRef])
    throws -> [ObjectRef]
  {
    try context.sourceInstances(forEntityMappingNamed: name, destinationInstances: destinationInstances)
  }

  /// The name of a source object's entity.
  public func entityName(ofSource ref: ObjectRef) -> String { PolicyQueries(context).entityName(ofSource: ref) }

  /// The name of a destination object's entity.
  public func entityName(ofDestination ref: ObjectRef) -> String {
    PolicyQueries(context).entityName(ofDestination: ref)
  }

  /// The `id` of a source object as the input store spells it.
  public func sourceID(_ ref: ObjectRef) -> String { context.sourceID(ref) }

  /// The id a destination object gets in the output store: `Entity/n`.
  public func destinationID(_ ref: ObjectRef) -> String { context.destinationID(ref) }

  // MARK: - Reading values

  /// A property of a source object (nil for unknown keys).
  public func sourceValue(_ ref: ObjectRef, _ key: String) -> Value { PolicyQueries(context).sourceValue(ref, key) }

  /// A property of a destination object.
  public func destinationValue(_ ref: ObjectRef, _ key: String) -> Value {
    PolicyQueries(context).destinationValue(ref, key)
  }

  /// Key-value coding as in expressions: `value(forKeyPath: "questions.@count", of: .sourceObject(r))`.
  /// Key paths through nil give nil; an unknown key throws `run-unknown-key`.
  public func value(forKeyPath path: String, of value: Value) throws -> Value {
    try PolicyQueries(context).value(forKeyPath: path, of: value)
  }

  /// A source object's property (or key path); unlike `sourceValue(_:_:)`, an unknown key throws.
  public func sourceValue(forKeyPath path: String, of ref: ObjectRef) throws -> Value {
    try PolicyQueries(context).value(forKeyPath: path, of: .sourceObject(ref))
  }

  /// A destination object's property (or key path); an unknown key throws.
  public func destinationValue(forKeyPath path: String, of ref: ObjectRef) throws -> Value {
    try PolicyQueries(context).value(forKeyPath: path, of: .destinationObject(ref))
  }

  /// The characters of a text value.
  public func string(_ t: Text) -> String { context.string(t) }

  /// The characters of a string value; nil for nil and for values that are not strings.
  public func string(_ value: Value) -> String? { PolicyQueries(context).string(value) }

  /// A short description of a value for error messages.
  public func describe(_ v: Value) -> String { context.describe(v) }

  // MARK: - Changing destination objects

  /// Creates a destination instance with the model's defaults; used by custom policies too.
  public func createDestinationInstance(entityNamed name: String) throws -> ObjectRef {
    try PolicyQueries(context).createDestinationInstance(entityNamed: name)
  }

  /// Sets a destination property as a mapping expression would (type coercion, inverses).
  public func setDestinationValue(_ value: Value, forKey key: String, of ref: ObjectRef) throws {
    try DestinationWrites(context).setDestinationValue(value, forKey: key, of: ref)
  }

  /// Adds objects to a to-many relationship, or sets a to-one (inverses kept in step).
  public func setDestinationObjects(_ targets: [ObjectRef], forKey key: String, of ref: ObjectRef) throws {
    try DestinationWrites(context).setDestinationValue(
      .array(targets.map { .destinationObject($0) }), forKey: key, of: ref)
  }

  /// Records that `destination` was made from `source` by the current entity mapping.
  public func associate(source: ObjectRef?, destination: ObjectRef) {
    PolicyQueries(context).associate(source: source, destination: destination)
  }

  /// Records that `destination` was made from `source` by the entity mapping named `mapping`
  /// (Core Data's `associateSourceInstance:withDestinationInstance:forEntityMapping:`). Pass 2
  /// then runs that mapping's relationship expressions for it, and
  /// `destinationInstancesForEntityMappingNamed:sourceInstances:` finds it.
  public func associate(source: ObjectRef?, destination: ObjectRef, entityMappingNamed mapping: String) throws {
    try PolicyQueries(context).associate(source: source, destination: destination, entityMappingNamed: mapping)
  }

  // MARK: - Errors

  /// An error that names `object` the way mapc's own errors do: `Song/5 (created by
  /// LegacySongToSong from LegacySong/6)` for a destination object, `source object
  /// LegacySong/6` for a source one. Throw it from a hook or a policy function; the run then
  /// fails and nothing is written. It has no position of its own: thrown from a policy function
  /// it is placed at the calling expression, from a hook at the `<entityMapping>` element.
  public func error(_ message: String, about object: Value? = nil, code: String = "run-policy-error") -> MigrationError
  {
    PolicyQueries(context).error(message, about: object, code: code)
  }

  /// `Song/5 (created by LegacySongToSong from LegacySong/6)`: the id, the mapping that made
  /// the object and its source, looked up in every mapping's associations.
  public func describeDestination(_ d: ObjectRef) -> String { PolicyQueries(context).describeDestination(d) }
}
