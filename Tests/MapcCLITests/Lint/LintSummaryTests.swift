import Foundation
import MapTestSupport
import Testing

/// The summary line counts what was linted: a model bundle whose chain is checked is not
/// "0 files".
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct LintSummaryTests {
  static let tasks = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks")

  @Test func aBundleAloneAndWithItsMappingsIsCounted() {
    let alone = runMapc(["lint", Self.tasks.appendingPathComponent("Tasks.xcdatamodeld").path])
    #expect(alone.exitCode == 0)
    #expect(alone.stderr.hasSuffix("\n1 model bundle linted: 0 errors, 1 warning, 0 notes\n"), "\(alone.stderr)")
    let both = runMapc([
      "lint", Self.tasks.appendingPathComponent("Tasks.xcdatamodeld").path,
      Self.tasks.appendingPathComponent("mappings").path,
    ])
    #expect(both.exitCode == 0)
    let files =
      (try? FileManager.default.contentsOfDirectory(atPath: Self.tasks.appendingPathComponent("mappings").path))?
      .filter { $0.hasSuffix(".xml") || $0.hasSuffix(".xcmappingmodel") }.count ?? 0
    #expect(files >= 1)
    #expect(
      both.stderr.hasSuffix(
        "\(files) file\(files == 1 ? "" : "s") and 1 model bundle linted: 0 errors, 0 warnings, 0 notes\n"),
      "\(both.stderr)")
  }
}
