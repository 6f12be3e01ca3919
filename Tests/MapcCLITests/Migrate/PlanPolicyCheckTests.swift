import Foundation
import MapTestSupport
import Testing

/// Issue 25: `mapc migrate --plan` checks what it can without running, policy classes included:
/// a step whose mapping names a policy this executable has not registered (plain mapc has none
/// of `Examples/WiboscoPosts`) is refused with the run's own error, the store unchanged.
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
    for extra in [["--plan"], []] {
      let r = runMapc(
        ["migrate", "--model", v2.bundle.path, "--store", copy, "--to", v3.version, "--mappings", mappings] + extra)
      #expect(r.exitCode == 2, "\(extra): \(r.stderr)")
      #expect(r.stderr.contains("WiboscoPosts.SectionTitlePolicy"), "\(r.stderr)")
      #expect(r.stderr.contains("[run-unknown-policy]"), "\(r.stderr)")
      #expect(!r.stdout.contains("1. "), "no plan printed: \(r.stdout)")
      #expect(FileManager.default.contents(atPath: copy) == before)
    }
  }
}
