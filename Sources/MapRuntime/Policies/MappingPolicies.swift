/// The policies of one run, one instance per entity mapping in plan order (a value the manager
/// keeps; `PolicyCalls` calls them).
struct MappingPolicies {
  let policies: [EntityMigrationPolicy]
  let mappings: [EntityMapping]

  init(_ policies: [EntityMigrationPolicy], plan: MigrationPlan) {
    self.policies = policies
    self.mappings = plan.entityMappings
  }

  /// One policy instance per entity mapping (the default policy where none is named or the
  /// named one cannot be made, with the problem added to `problems`).
  static func make(_ plan: MigrationPlan, _ problems: inout [MigrationError]) -> MappingPolicies {
    var policies: [EntityMigrationPolicy] = []
    for m in plan.entityMappings {
      let (policy, problem) = policy(for: m, plan: plan)
      policies.append(policy)
      if let problem { problems.append(problem) }
    }
    return MappingPolicies(policies, plan: plan)
  }

  /// The policy of one entity mapping, and the `run-unknown-policy` problem when the class it
  /// names is not registered here (or the name is ambiguous): then the default policy.
  static func policy(for m: EntityMapping, plan: MigrationPlan) -> (EntityMigrationPolicy, MigrationError?) {
    guard let name = m.policyName, !name.isEmpty else { return (DefaultEntityMigrationPolicy(), nil) }
    switch PolicyRegistry.resolve(name) {
    case .found(let type):
      return (type.init(), nil)
    case .ambiguous(let candidates):
      return (
        DefaultEntityMigrationPolicy(),
        MigrationError(
          "run-unknown-policy",
          "Couldn't create mapping policy for class named \(name): the name is ambiguous, it could be \(candidates.joined(separator: " or ")); write the module-qualified name",
          at: m.location, file: plan.mappingPath)
      )
    case .missing:
      // A class `mapc export --policy-source` wrote: mapc's library, on the policy it extends.
      if let base = DeviceFunctions.generatedPolicyBase(name) {
        if base.isEmpty { return (DefaultEntityMigrationPolicy(), nil) }
        if let type = PolicyRegistry.registeredType(identifiedAs: base) { return (type.init(), nil) }
      }
      return (
        DefaultEntityMigrationPolicy(),
        MigrationError(
          "run-unknown-policy",
          "Couldn't create mapping policy for class named \(name): no policy of that name is registered in this executable (a policy is a Swift class registered with PolicyRegistry.register in an executable built with mapc's MapcCLI library, which then runs as mapc)",
          at: m.location, file: plan.mappingPath)
      )
    }
  }
}

/// The policy hooks of one `migrate()`: what the passes call through `PolicyHooks`, each hook
/// given its mapping and the run's `MigrationManager`. Made for the run and held by its
/// `PassEngine` (the context sees it weakly, for `$entityPolicy` functions), so nothing the
/// manager owns refers back to it.
final class PolicyCalls: PolicyHooks {
  let policies: MappingPolicies
  let manager: MigrationManager

  init(_ policies: MappingPolicies, manager: MigrationManager) {
    self.policies = policies
    self.manager = manager
  }

  func beginEntityMapping(_ i: Int) throws {
    try policies.policies[i].beginEntityMapping(policies.mappings[i], manager: manager)
  }

  func createDestinationInstances(forSource source: ObjectRef?, mapping i: Int) throws {
    try policies.policies[i].createDestinationInstances(
      forSource: source, mapping: policies.mappings[i], manager: manager)
  }

  func endInstanceCreation(_ i: Int) throws {
    try policies.policies[i].endInstanceCreation(policies.mappings[i], manager: manager)
  }

  func createRelationships(forDestination destination: ObjectRef, mapping i: Int) throws {
    try policies.policies[i].createRelationships(
      forDestination: destination, mapping: policies.mappings[i], manager: manager)
  }

  func endRelationshipCreation(_ i: Int) throws {
    try policies.policies[i].endRelationshipCreation(policies.mappings[i], manager: manager)
  }

  func performCustomValidation(_ i: Int) throws {
    try policies.policies[i].performCustomValidation(policies.mappings[i], manager: manager)
  }

  func endEntityMapping(_ i: Int) throws {
    try policies.policies[i].endEntityMapping(policies.mappings[i], manager: manager)
  }

  func perform(selector: String, arguments: [Value], mapping i: Int) throws -> Value? {
    try policies.policies[i].perform(selector: selector, arguments: arguments, manager: manager)
  }
}
