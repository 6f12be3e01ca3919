/// Runs a plan over a source object graph and builds the destination graph, in Core Data's
/// passes: create instances, create relationships, validate, then custom validation and end.
///
/// Policies receive the manager in every hook; its public methods are what a custom policy
/// uses (reading source values, creating and associating destination instances, setting values).
/// The manager is the public face of a run: the passes are `PassEngine`'s, the linked mappings,
/// association tables and evaluation state `MigrationContext`'s.
// unchecked: one thread runs a manager's migrate() at a time; it may be handed to that thread.
public final class MigrationManager: @unchecked Sendable {
  public typealias Options = MigrationManagerOptions
  /// The three passes, for progress reports.
  public typealias Pass = MigrationPass

  /// The run: plan, graphs, linked mappings, association tables, evaluation state.
  let context: MigrationContext
  /// One policy instance per entity mapping, which the passes call through `PolicyCalls`.
  let policies: MappingPolicies
  /// Passes 1 and 2 of the default policy, for the passes and for policies that call them.
  let creation: InstanceCreation
  let relationships: RelationshipSetting

  public var plan: MigrationPlan { context.plan }
  public var source: ObjectGraph { context.source }
  public var destination: ObjectGraph { context.destination }
  public var options: Options { context.options }
  /// Called now and then with the pass, objects done and objects in the pass.
  public var progress: (@Sendable (Pass, Int, Int) -> Void)?
  /// Core Data's `NSMigrationManager.userInfo`: free for policies, e.g. to pass results from
  /// one entity mapping's policy to another's (each mapping has its own policy instance).
  public var userInfo: [String: Any] = [:]

  /// The index of the entity mapping whose hook or expression runs.
  public var currentMappingIndex: Int { context.state.currentMappingIndex }
  /// Entity mappings whose pass 1 ran on every core (see `ParallelCreation`), in order.
  public var parallelMappings: [String] { creation.parallelMappings }
  /// While a policy function (`EntityMigrationPolicy.perform`) runs: the variables of the
  /// expression that called it (`$source`, `$destination`, `$item`, `$index`, the property).
  public var currentFrame: Frame? { context.state.currentFrame }

  public init(plan: MigrationPlan, source: ObjectGraph, options: Options = Options()) throws(MigrationFailure) {
    var problems: [MigrationError] = []
    let policies = MappingPolicies.make(plan, &problems)
    self.policies = policies
    context = try RunPreparation.prepared(
      plan: plan, source: source, options: options,
      usesDefaultPolicy: policies.policies.map { $0 is DefaultEntityMigrationPolicy }, problems: problems)
    creation = InstanceCreation(context)
    relationships = RelationshipSetting(context)
  }

  /// Runs every pass. On failure nothing should be written: the destination graph is incomplete.
  public func migrate() throws(MigrationFailure) { try migrate(phases: PhaseTimer(enabled: false)) }

  func migrate(phases: PhaseTimer) throws(MigrationFailure) {
    let hooks = PolicyCalls(policies, manager: self)
    context.hooks = hooks
    defer { context.hooks = nil }
    try PassEngine(
      context, creation: creation, relationships: relationships, hooks: hooks, progress: progress
    ).run(phases: phases)
  }

  /// Gives every destination object the number (`Z_PK`) of the source object it was made from,
  /// and the destination the source's highest numbers: for a step Core Data migrates as a
  /// lightweight migration, which keeps both (`ObjectKeys.swift`). Objects made from no source
  /// object, or from one without a number, are numbered by the store writer.
  package func keepSourceObjectKeys() {
    let (source, destination) = (context.source, context.destination)
    source.resolveObjectKeys()
    for a in context.associations {
      for k in 0..<a.instanceCount {
        guard let s = a.source(at: k) else { continue }
        destination.takeObjectKey(of: s, in: source, for: a.destination(at: k))
      }
    }
    destination.takeKeyHighWater(from: source)
  }
}
