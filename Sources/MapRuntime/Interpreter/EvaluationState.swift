/// What changes while a run's expressions are evaluated, apart from the destination graph:
/// where the passes are, and the caches that save work from one object to the next. A value
/// kept by `MigrationContext`; nothing here outlives the run. What one pass alone reads and
/// writes is its own type's (`InstanceCreation`, `RelationshipSetting`).
struct EvaluationState {
  // MARK: - Where the run is

  /// The entity mapping whose hook or expression runs.
  var currentMappingIndex = 0
  /// While a policy function (`EntityMigrationPolicy.perform`) runs: the variables of the
  /// expression that called it.
  var currentFrame: Frame?

  // MARK: - Caches

  /// Where the two Transformable values read last start in the input (a forEach collection
  /// and a value indexed by `$index` are the usual pair), and their values.
  var transformableCacheStart = (-1, -1)
  var transformableCacheValue0: Value = .null
  var transformableCacheValue1: Value = .null
  /// Which of the two was used last (the other is replaced next).
  var transformableCacheLast = 0
  /// `BuiltinPolicyFunctions`' caches (kept here because a linked expression is given only the
  /// run): compiled date patterns by pattern text.
  var datePatterns: [String: DatePattern] = [:]
  /// SplitMix64's state for `random`, `randomn:` and `random:`.
  var randomState: UInt64 = 0
  /// `AssociationLookup.destinationsForSourceRelationship`'s mappings, per mapping, source
  /// relationship and destination property.
  var relationshipMappings: [RelationshipMappings: [Int]] = [:]

  struct RelationshipMappings: Hashable {
    let mapping: Int
    let relationship: String
    let property: String
  }
}

/// The errors of a run so far: at most `limit` are kept, and `truncated` says more were found.
struct ErrorLog {
  let limit: Int
  private(set) var errors: [MigrationError] = []
  private(set) var truncated = false

  init(limit: Int) { self.limit = limit }

  mutating func append(_ e: MigrationError) {
    if errors.count < limit {
      errors.append(e)
    } else {
      truncated = true
    }
  }

  /// Marks the log as having lost errors (a policy's own failure said it had).
  mutating func markTruncated() { truncated = true }

  /// The run's failure, with every error kept.
  var failure: MigrationFailure { MigrationFailure(errors, truncated: truncated) }
}
