/// Core Data's `NSEntityMigrationPolicy`, for Swift: the seven hooks an entity mapping runs
/// through, plus functions callable from expressions as `FUNCTION($entityPolicy, "sel:", …)`.
///
/// Subclass `EntityMigrationPolicy`, override what you need (call `super` for the default
/// behaviour), register the class with `PolicyRegistry.register(_:)`, and name it in a mapping
/// with `policy="Module.ClassName"` (or the bare class name, when only one module has it).
///
/// The manager runs the hooks in Core Data's order. Pass 1, for each entity mapping in document
/// order: `beginEntityMapping`, `createDestinationInstances` once per source instance (once with
/// `nil` for an `add` mapping with `forEach`), `endInstanceCreation`. Pass 2, for each mapping:
/// `createRelationships` once per destination instance associated with the mapping (in
/// creation order), `endRelationshipCreation`. Then the destination store is validated against
/// its model, and for each mapping: `performCustomValidation`, `endEntityMapping`.
///
/// One instance of the class is made per entity mapping that names it, before the run starts,
/// so stored properties keep state across the calls for that mapping. Use `manager.userInfo`
/// to share state between mappings.
///
/// Any error a hook or function throws fails the run (exit 2, nothing written). Throw
/// `manager.error("…", about: .destinationObject(ref))` to name the object at fault; an error
/// without a position is placed at the mapping's `<entityMapping>` element, and other errors
/// are reported as `run-policy-error`.
// unchecked: an app's subclass keeps state per mapping, called only by its own run's thread.
open class EntityMigrationPolicy: @unchecked Sendable {
  public required init() {}

  /// Selectors this policy answers in `FUNCTION($entityPolicy, …)` (documentation for tools).
  open class var selectors: [String] { [] }

  /// Answers `FUNCTION($entityPolicy, selector, arguments…)`: one argument per colon of the
  /// selector, evaluated. Return nil when the selector is not one of this policy's; the
  /// built-in library is tried next. While this runs, `manager.currentFrame` holds the calling
  /// expression's `$source` and `$destination`.
  open func perform(selector: String, arguments: [Value], manager: MigrationManager) throws -> Value? {
    nil
  }

  /// Core Data's `beginEntityMapping:manager:error:`. Default: nothing.
  open func beginEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {}

  /// Core Data's `createDestinationInstancesForSourceInstance:entityMapping:manager:error:`.
  /// Default: one destination instance (or one per element of `forEach`) with the model
  /// defaults and the attribute expressions, associated with `source`. Skip a source by not
  /// calling `super`; make more instances with `manager.createDestinationInstance(entityNamed:)`
  /// and, if pass 2 should see them, `manager.associate(source:destination:)`.
  open func createDestinationInstances(
    forSource source: ObjectRef?, mapping: EntityMapping, manager: MigrationManager
  ) throws {
    try manager.defaultCreateDestinationInstances(forSource: source)
  }

  /// Core Data's `endInstanceCreationForEntityMapping:manager:error:`. Default: nothing.
  open func endInstanceCreation(_ mapping: EntityMapping, manager: MigrationManager) throws {}

  /// Core Data's `createRelationshipsForDestinationInstance:entityMapping:manager:error:`.
  /// Default: evaluates the relationship expressions for `destination`.
  open func createRelationships(
    forDestination destination: ObjectRef, mapping: EntityMapping, manager: MigrationManager
  ) throws {
    try manager.defaultCreateRelationships(forDestination: destination)
  }

  /// Core Data's `endRelationshipCreationForEntityMapping:manager:error:`. Default: nothing.
  open func endRelationshipCreation(_ mapping: EntityMapping, manager: MigrationManager) throws {}

  /// Core Data's `performCustomValidationForEntityMapping:manager:error:`: runs after the
  /// destination store passed model validation. Default: nothing.
  open func performCustomValidation(_ mapping: EntityMapping, manager: MigrationManager) throws {}

  /// Core Data's `endEntityMapping:manager:error:`. Default: nothing.
  open func endEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {}
}

/// The policy of mappings that name none.
// unchecked: as its superclass (it has no state).
final class DefaultEntityMigrationPolicy: EntityMigrationPolicy, @unchecked Sendable {}
