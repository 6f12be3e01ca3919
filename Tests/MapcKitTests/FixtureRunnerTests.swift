import Foundation
import MapRuntime
import MapTestSupport
import MapcKit
import MapTools
import Testing

/// `FixtureRunner` used from Swift: the fixtures of `Mappings/` run by the built `mapc`, each
/// case's outcome as `Mappings/README.md` and the fixture files say it must be.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct FixtureRunnerTests {
  static let mappings = SharedPaths.packageRoot.appendingPathComponent("Mappings").path

  @Test func theWorkedExamplesPass() throws {
    let paths = try FixtureFile.find(["\(Self.mappings)/tasks", "\(Self.mappings)/notes"])
    var planned: [FixtureSchedule.Planned] = []
    for (index, path) in paths.enumerated() {
      let fixture = try FixtureFile.read(path)
      for i in fixture.cases.indices {
        planned.append(.init(fixture: fixture, fixtureIndex: index, caseIndex: i, suite: path, key: "\(path)#\(i)"))
      }
    }
    // tasks/fixture.json: 5 cases (three forward, one already at its target, one refused step
    // back); notes/fixture.json: 1 case.
    #expect(planned.count == 6)
    let results = try FixtureRunner.withWorkRoot { root in
      let runner = FixtureRunner(executable: mapcExecutable!.path, shared: "/nonexistent", workRoot: root)
      return FixtureSchedule.run(planned, jobs: 2, runner: runner) { _, _ in }
    }
    #expect(results.count == 6)
    for result in results {
      #expect(result.outcome == .passed, "\(result.suite) \(result.name): \(result.outcome)")
    }
  }

  @Test func aWrongExpectationFails() throws {
    let folder = try TemporaryFolder()
    let notes = "\(Self.mappings)/notes"
    for name in ["store-v1.json", "NotesV1ToV2.xcmappingmodel"] {
      try FileManager.default.copyItem(atPath: "\(notes)/\(name)", toPath: "\(folder.path)/\(name)")
    }
    // The input store given as the expected result: the migration writes something else.
    try folder.write(
      "fixture.json",
      #"{ "mapping": "NotesV1ToV2.xcmappingmodel", "cases": [ { "store": "store-v1.json", "expected": "store-v1.json" } ] }"#
    )
    let fixture = try FixtureFile.read("\(folder.path)/fixture.json")
    let outcome = try FixtureRunner.withWorkRoot { root in
      FixtureRunner(executable: mapcExecutable!.path, shared: "/nonexistent", workRoot: root)
        .run(fixture, fixture.cases[0])
    }
    guard case .failed(let problems) = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(!problems.isEmpty)
  }
}
