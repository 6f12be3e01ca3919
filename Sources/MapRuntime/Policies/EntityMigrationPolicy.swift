/// Core Data's `NSEntityMigrationPolicy`, for Swift: the seven hooks an entity mapping runs
/// through, plus functions callable from expressions as `FUNCTION($entityPolicy, "sel:", …)`.
///
/// Subclass `EntityMigrationPolicy`, override what you need (call `super` for the default
/// behaviour), register the class with `PolicyRegistry.register(_:)`, and name it in a mapping
/// with `policy="Module.ClassName"`.
open class EntityMigrationPolicy: @unchecked Sendable {
  public required init() {}

  /// Selectors this policy answers in `FUNCTION($entityPolicy, …)`, for the linter.
  open class var selectors: [String] { [] }

  /// Answers `FUNCTION($entityPolicy, selector, arguments…)`. Return nil when the selector is
  /// not one of this policy's; the built-in library is tried next.
  open func perform(selector: String, arguments: [Value], manager: MigrationManager) throws -> Value? {
    nil
  }

  open func beginEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {}

  /// Default: evaluates `forEach` and the attribute expressions and associates the new
  /// instances with `source`.
  open func createDestinationInstances(
    forSource source: ObjectRef?, mapping: EntityMapping, manager: MigrationManager
  ) throws {
    try manager.defaultCreateDestinationInstances(forSource: source)
  }

  open func endInstanceCreation(_ mapping: EntityMapping, manager: MigrationManager) throws {}

  /// Default: evaluates the relationship expressions for `destination`.
  open func createRelationships(
    forDestination destination: ObjectRef, mapping: EntityMapping, manager: MigrationManager
  ) throws {
    try manager.defaultCreateRelationships(forDestination: destination)
  }

  open func endRelationshipCreation(_ mapping: EntityMapping, manager: MigrationManager) throws {}

  open func performCustomValidation(_ mapping: EntityMapping, manager: MigrationManager) throws {}

  open func endEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {}
}

/// The policy of mappings that name none.
final class DefaultEntityMigrationPolicy: EntityMigrationPolicy, @unchecked Sendable {}
