/// What one case of a fixture gave (`mapc test`).
public struct FixtureResult: Sendable {
  public enum Outcome: Sendable, Equatable {
    case passed
    /// The reasons, one line each (a difference names the entity, object and property).
    case failed([String])
    /// Why the case did not run.
    case skipped(String)
    /// `--update` wrote the expected store (the path).
    case updated(String)
  }

  /// The fixture, as a path relative to where the command runs (`Mappings/shop`).
  public var suite: String
  /// The case: its store, and for a chain the version it goes to (`store-v1.json → Shop 2`).
  public var name: String
  public var outcome: Outcome
  public var seconds: Double
  /// The fixture's `knownIssue`: a failure is reported and does not fail the run.
  public var knownIssue: String?
  /// Where the case is in the whole run, sharded or not: its fixture file's position among the
  /// fixtures found, and its own among the file's cases (what `--merge-junit` orders by).
  public var fixtureIndex: Int
  public var caseIndex: Int

  public init(
    suite: String, name: String, outcome: Outcome, seconds: Double, knownIssue: String? = nil, fixtureIndex: Int = 0,
    caseIndex: Int = 0
  ) {
    self.suite = suite
    self.name = name
    self.outcome = outcome
    self.seconds = seconds
    self.knownIssue = knownIssue
    self.fixtureIndex = fixtureIndex
    self.caseIndex = caseIndex
  }

  /// True when the case counts against the run: it failed and no known issue excuses it.
  public var failsTheRun: Bool {
    if case .failed = outcome { return knownIssue == nil }
    return false
  }
}
