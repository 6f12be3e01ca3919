/// How a run of a plan is made (`MigrationManager.Options`).
public struct MigrationManagerOptions: Sendable {
  /// Stop collecting after this many errors.
  public var maxErrors: Int = 50
  /// What `now()` returns (seconds since 2001-01-01); fixed so runs are reproducible.
  public var now: Double = 0
  /// Source objects an entity mapping needs before pass 1 spreads it over the cores (see
  /// `ParallelCreation`); the result is the same either way.
  public var parallelMinimum: Int = Self.defaultParallelMinimum
  /// The destination graph's layout, when the caller has one of the plan's destination model
  /// already (a chain's next step reads its store with it: `ChainRun`); nil: made from the plan.
  package var destinationLayout: StoreLayout?
  /// Per destination entity, the objects made before this run's (a chunk of `StreamingRun`):
  /// messages name objects by their number in the whole store.
  package var destinationNumbersBefore: [Int] = []
  /// Entity mappings (plan indexes) this run leaves out, hooks and all: a chunk of
  /// `StreamingRun` runs the mappings of its streamed entities, the part read whole the others,
  /// so that a mapping without a source entity (an `add`) runs once.
  package var skippedMappings: Set<Int> = []
  public init(maxErrors: Int = 50, now: Double = 0, parallelMinimum: Int = Self.defaultParallelMinimum) {
    self.maxErrors = maxErrors
    self.now = now
    self.parallelMinimum = parallelMinimum
  }

  package init(maxErrors: Int, now: Double, parallelMinimum: Int, destinationLayout: StoreLayout?) {
    self.init(maxErrors: maxErrors, now: now, parallelMinimum: parallelMinimum)
    self.destinationLayout = destinationLayout
  }

  /// `parallelMinimum` unless set: 4096 source objects, or never on a single core.
  public static let defaultParallelMinimum = Cores.workers > 1 ? 4096 : Int.max
}

/// Core Data's three passes, for progress reports (`MigrationManager.Pass`).
public enum MigrationPass: String, Sendable {
  case createInstances = "create instances"
  case createRelationships = "create relationships"
  case validate = "validate"
}
