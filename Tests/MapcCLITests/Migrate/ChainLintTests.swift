import Foundation
import MapTestSupport
import Testing

/// `mapc lint BUNDLE.xcdatamodeld MAPPINGS`: the chain checks.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ChainLintTests {
  @Test func theTasksChainIsCovered() {
    let r = runMapc(["lint", MigrateChainTests.bundle, MigrateChainTests.mappings])
    #expect(r.exitCode == 0, "\(r.stderr)")
  }

  @Test func aSkippingMappingIsReportedAndTheDuplicateStepIsAnError() throws {
    let work = try FileManagerTemp.folder("chain-lint")
    defer { FileManagerTemp.remove(work.path) }
    let text = try String(contentsOfFile: "\(MigrateChainTests.mappings)/TasksV3ToV4.xml", encoding: .utf8)
      .replacingOccurrences(of: "../Tasks.xcdatamodeld", with: MigrateChainTests.bundle)
    try text.write(toFile: work.appendingPathComponent("A.xml").path, atomically: false, encoding: .utf8)
    try text.replacingOccurrences(of: "TasksV3ToV4", with: "Copy")
      .write(toFile: work.appendingPathComponent("B.xml").path, atomically: false, encoding: .utf8)
    // Tasks 2 → Tasks 4 directly: never used, since chains go one version at a time.
    try text.replacingOccurrences(of: "TasksV3ToV4", with: "Skip").replacingOccurrences(
      of: "version=\"Tasks 3\"", with: "version=\"Tasks 2\""
    )
    .replacingOccurrences(of: "source=\"Project\"", with: "source=\"TaskList\"")
    .write(toFile: work.appendingPathComponent("C.xml").path, atomically: false, encoding: .utf8)
    let r = runMapc(["lint", MigrateChainTests.bundle, work.path])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("[chain-duplicate-mapping]"), "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "skipping versions; mapc migrate goes one version at a time and never uses it [chain-mapping-skips]"),
      "\(r.stderr)")
  }

  @Test(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func realXcodeMappingModelsCoverTheStepsInferenceCannot() {
    let root = SharedPaths.corpus!.appendingPathComponent(
      "wibosco/CoreDataMigration-Example/CoreDataMigration-Example/CoreData")
    let bundle = root.appendingPathComponent("Model/CoreDataMigration_Example.xcdatamodeld").path
    let without = runMapc(["lint", bundle])
    #expect(without.exitCode == 1)
    #expect(without.stderr.contains("[infer-mandatory-without-default]"))
    #expect(without.stderr.contains("cannot be migrated to the current version 'CoreDataMigration_Example 4'"))
    #expect(without.stderr.contains("[chain-unreachable-version]"))
    let with = runMapc(["lint", bundle, root.appendingPathComponent("Migration/Mappings").path])
    #expect(with.exitCode == 0, "\(with.stderr)")
    // No chain finding but the policy class the app compiles in, which plain mapc lacks.
    let chain = with.stderr.split(separator: "\n").filter { $0.contains("[chain-") }
    #expect(chain.count == 1 && chain[0].hasSuffix("[chain-step-unknown-policy]"), "\(with.stderr)")
  }
}
