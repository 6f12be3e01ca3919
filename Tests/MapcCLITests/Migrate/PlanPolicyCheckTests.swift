import Foundation
import MapTestSupport
import Testing

/// Issue 25, then 38: `mapc migrate` checks policy classes without running. A step whose mapping
/// names a policy this executable has not registered (plain mapc has none of
/// `Examples/WiboscoPosts`) is refused by a run with the run's own error, the store unchanged;
/// `--plan` shows the step, marked with the class, and a warning (`chain-step-unknown-policy`).
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct PlanPolicyCheckTests {
  @Test func planNamesAnUnregisteredPolicy() throws {
    let v2 = try #require(SQLiteRunTests.store("CoreDataMigration_Example_2.sqlite"))
    let v3 = try #require(SQLiteRunTests.store("CoreDataMigration_Example_3.sqlite"))
    let dir = try FileManagerTemp.folder("plan-policy")
    defer { try? FileManager.default.removeItem(at: dir) }
    let copy = dir.appendingPathComponent("store.sqlite").path
    for (suffix, data) in v2.files() { try data.write(to: URL(fileURLWithPath: copy + suffix)) }
    let before = FileManager.default.contents(atPath: copy)
    let mappings = SharedPaths.packageRoot.appendingPathComponent("Examples/WiboscoPosts/Mapping").path
    let run = runMapc(
      ["migrate", "--model", v2.bundle.path, "--store", copy, "--to", v3.version, "--mappings", mappings])
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(run.stderr.contains("WiboscoPosts.SectionTitlePolicy"), "\(run.stderr)")
    #expect(run.stderr.contains("[run-unknown-policy]"), "\(run.stderr)")
    #expect(!run.stdout.contains("1. "), "no plan printed: \(run.stdout)")
    #expect(FileManager.default.contents(atPath: copy) == before)
    let plan = runMapc(
      ["migrate", "--model", v2.bundle.path, "--store", copy, "--to", v3.version, "--mappings", mappings, "--plan"])
    #expect(plan.exitCode == 0, "\(plan.stderr)")
    #expect(plan.stderr.contains("WiboscoPosts.SectionTitlePolicy (entity mapping PostToSection)"), "\(plan.stderr)")
    #expect(plan.stderr.contains("[chain-step-unknown-policy]"), "\(plan.stderr)")
    #expect(plan.stdout.contains("  1. "), "\(plan.stdout)")
    #expect(plan.stdout.contains("needs policy class WiboscoPosts.SectionTitlePolicy"), "\(plan.stdout)")
    #expect(FileManager.default.contents(atPath: copy) == before)
  }
}
