import Foundation
import MapCompiler
import MapRuntime

/// The cases of `mapc test` and how they run (Specs/test-fixtures.md §4a): each with its key for
/// `Shard` (the fixture file's path as found, and the case's index), `--jobs` at the same time,
/// each in a child process, the results coming out in the order of the cases.
struct FixtureSchedule {
  /// One case to run, with where it is in the whole run.
  struct Planned: Sendable {
    var fixture: FixtureFile
    var fixtureIndex: Int
    var caseIndex: Int
    var suite: String
    var key: String
  }

  /// Runs `cases`, `jobs` at a time, calling `done` for each result in the order of `cases` (one
  /// call at a time); returns the results in that order.
  static func run(
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
