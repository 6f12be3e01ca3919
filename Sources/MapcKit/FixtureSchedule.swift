import Foundation
import MapRuntime
import MapTools

/// The cases of `mapc test` and how they run (Specs/test-fixtures.md §4a): each with its key for
/// `Shard` (the fixture file's path as found, and the case's index), `--jobs` at the same time,
/// each in a child process, the results coming out in the order of the cases.
public enum FixtureSchedule {
  /// One case to run, with where it is in the whole run.
  public struct Planned: Sendable {
    /// The fixture file the case is in.
    public var fixture: FixtureFile
    /// Where that file is among the run's fixture files.
    public var fixtureIndex: Int
    /// Where the case is among the file's cases.
    public var caseIndex: Int
    /// The name of its suite in reports (the fixture's folder).
    public var suite: String
    /// Its key for a shard (`PATH#INDEX`).
    public var key: String

    /// Case `caseIndex` of `fixture`.
    public init(fixture: FixtureFile, fixtureIndex: Int, caseIndex: Int, suite: String, key: String) {
      self.fixture = fixture
      self.fixtureIndex = fixtureIndex
      self.caseIndex = caseIndex
      self.suite = suite
      self.key = key
    }
  }

  /// Runs `cases`, `jobs` at a time, calling `done` for each result in the order of `cases` (one
  /// call at a time); returns the results in that order.
  public static func run(
    _ cases: [Planned], jobs: Int, runner: FixtureRunner, done: @escaping @Sendable (Int, FixtureResult) -> Void
  ) -> [FixtureResult] {
    ParallelLanes.run(
      count: cases.count, jobs: jobs,
      { i in
        let planned = cases[i]
        let c = planned.fixture.cases[planned.caseIndex]
        let start = Date()
        let outcome = runner.run(planned.fixture, c)
        return FixtureResult(
          suite: planned.suite, name: c.store + (c.to.map { " → \($0)" } ?? ""), outcome: outcome,
          seconds: Date().timeIntervalSince(start), knownIssue: planned.fixture.knownIssue,
          fixtureIndex: planned.fixtureIndex, caseIndex: planned.caseIndex)
      }, inOrder: done)
  }
}
