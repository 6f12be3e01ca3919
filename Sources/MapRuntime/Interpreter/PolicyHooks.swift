/// The hooks of a run's entity mapping policies, as the passes and linked expressions call
/// them, each with the index of its entity mapping. The interpreter declares what it calls;
/// `Policies/` implements it (`PolicyCalls` calls each mapping's `EntityMigrationPolicy`
/// with the run's `MigrationManager`), so the interpreter knows nothing of the public policy API.
///
/// Mappings with the default policy (`MigrationContext.usesDefaultPolicy`) take the passes'
/// own paths and are not called here for instances.
package protocol PolicyHooks: AnyObject {
  func beginEntityMapping(_ mapping: Int) throws
  func createDestinationInstances(forSource source: ObjectRef?, mapping: Int) throws
  func endInstanceCreation(_ mapping: Int) throws
  func createRelationships(forDestination destination: ObjectRef, mapping: Int) throws
  func endRelationshipCreation(_ mapping: Int) throws
  func performCustomValidation(_ mapping: Int) throws
  func endEntityMapping(_ mapping: Int) throws
  /// `FUNCTION($entityPolicy, selector, arguments…)`: nil when the policy does not answer it.
  func perform(selector: String, arguments: [Value], mapping: Int) throws -> Value?
}
