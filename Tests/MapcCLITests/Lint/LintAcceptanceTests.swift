import Foundation
import MapTestSupport
import MapTools
import Testing

/// `mapc lint` on Mappings/ and every fixture is clean with the committed baseline, whose
/// entries Mappings/README.md explains.
@Suite(
  .enabled(if: mapcExecutable != nil, "the mapc executable has not been built"),
  .enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct LintAcceptanceTests {
  static let root = SharedPaths.packageRoot

  @Test func mappingsAndFixturesAreCleanWithTheBaseline() throws {
    let r = runMapc(
      ["lint", "Mappings", "../shared/fixtures", "--baseline", "Mappings/fixtures.lint-baseline.json", "--strict"],
      in: Self.root)
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(!r.stderr.contains("warning:") && !r.stderr.contains("error:"), "\(r.stderr)")
  }

  @Test func withoutTheBaselineOnlyTheExplainedFindingsRemain() throws {
    let r = runMapc(["lint", "--format", "json", "Mappings", "../shared/fixtures"], in: Self.root)
    // The notes mapping model's calls a device lacks are errors.
    #expect(r.exitCode == 1)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let files = try #require(json["files"] as? [String])
    // Every fixture mapping is linted (new fixtures are picked up with no code change).
    let fixtureMappings = try FileManager.default.contentsOfDirectory(atPath: SharedPaths.fixtures!.path).compactMap {
      folder -> String? in
      let fixture = SharedPaths.fixtures!.appendingPathComponent(folder).appendingPathComponent("fixture.json")
      guard let data = FileManager.default.contents(atPath: fixture.path),
        let mapping = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["mapping"] as? String
      else { return nil }
      return "../shared/fixtures/\(folder)/\(mapping)"
    }
    for m in fixtureMappings { #expect(files.contains(m), "\(m) was not linted") }
    // Findings suppressed in the file with a reason are listed with their status; only the others count.
    let findings = try #require(json["findings"] as? [[String: Any]]).filter {
      ($0["status"] as? String) != "suppressed"
    }
    let described = findings.map {
      "\(($0["file"] as? String ?? "").split(separator: "/").last!):\($0["line"]!):\($0["column"]!) \($0["rule"]!)"
    }
    #expect(
      described == [
        "SQADMappingModel1_2.xml:30:28 lint-optional-into-mandatory",
        "SQADMappingModel1_2.xml:36:33 lint-optional-into-mandatory",
        "xcmapping.xml:722:9 lint-device-unknown-function",
        "xcmapping.xml:749:9 lint-device-unknown-function",
      ])
    // The README explains each accepted finding.
    let readme = try String(contentsOf: Self.root.appendingPathComponent("Mappings/README.md"), encoding: .utf8)
    #expect(readme.contains("line 30") && readme.contains("line 36") && readme.contains("lint-optional-into-mandatory"))
    #expect(readme.contains("lines 722 and 749") && readme.contains("lint-device-unknown-function"))
    let baseline = try LintBaseline.load(
      path: Self.root.appendingPathComponent("Mappings/fixtures.lint-baseline.json").path)
    #expect(baseline.entries.count == 4)
    for e in baseline.entries { #expect(e.reason.count > 40, "every accepted finding has a reason") }
  }
}
