import Foundation
import MapTestSupport
import Testing

/// The GitHub workflows: this repository's own CI, and the recipe users copy
/// (docs/ci/mapc-lint.yml). Both parse as YAML with the fields GitHub needs; the recipe's lint
/// command runs as written and its SARIF, with `--base-path`, validates against SARIF 2.1.0 and
/// names files relative to the repository root.
@Suite(
  .needsPythonModule("yaml", package: "python3-yaml"),
  .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct CIWorkflowTests {
  static let root = SharedPaths.packageRoot

  /// The workflow as JSON, read by PyYAML.
  static func workflow(_ relative: String) throws -> [String: Any] {
    let script = "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), default=str))"
    let r = runTool(python3!, ["-c", script, root.appendingPathComponent(relative).path])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  static func steps(_ w: [String: Any], job: String) throws -> [[String: Any]] {
    let jobs = try #require(w["jobs"] as? [String: Any])
    let j = try #require(jobs[job] as? [String: Any])
    #expect(j["runs-on"] is String)
    return try #require(j["steps"] as? [[String: Any]])
  }

  @Test func theRepositoryWorkflowRunsTheCIScriptWithACache() throws {
    let w = try Self.workflow(".github/workflows/ci.yml")
    // PyYAML reads the key `on` as the boolean true.
    #expect(w["on"] != nil || w["true"] != nil)
    let steps = try Self.steps(w, job: "test")
    #expect(steps.contains { ($0["uses"] as? String)?.hasPrefix("actions/checkout@") == true })
    #expect(steps.contains { ($0["uses"] as? String)?.hasPrefix("actions/cache@") == true })
    #expect(steps.contains { ($0["run"] as? String) == "bash .ci/run" })
  }

  @Test(.needsPythonModule("jsonschema", package: "python3-jsonschema"))
  func theRecipesLintCommandWorksAsWritten() throws {
    let w = try Self.workflow("docs/ci/mapc-lint.yml")
    let permissions = try #require(w["permissions"] as? [String: Any])
    #expect(permissions["security-events"] as? String == "write")
    let steps = try Self.steps(w, job: "mapc-lint")
    let upload = try #require(
      steps.first { ($0["uses"] as? String)?.hasPrefix("github/codeql-action/upload-sarif@") == true })
    #expect((upload["with"] as? [String: Any])?["sarif_file"] as? String == "mapc.sarif")
    let runs = steps.compactMap { $0["run"] as? String }
    let sarifCommand = try #require(runs.first { $0.hasPrefix("mapc lint") && $0.contains("--format sarif") })
    let githubCommand = try #require(runs.first { $0.hasPrefix("mapc lint") && $0.contains("--format github") })
    #expect(sarifCommand == "mapc lint . --format sarif --base-path . > mapc.sarif")

    // A repository: the worked examples, with a mapping that has a finding, linted from a
    // subfolder's parent as the workflow does (the checkout is the working directory).
    let repo = try FileManagerTemp.folder("repo")
    defer { FileManagerTemp.remove(repo.path) }
    try FileManager.default.copyItem(
      at: Self.root.appendingPathComponent("Mappings/shop"), to: repo.appendingPathComponent("Models/shop"))
    let mapping = repo.appendingPathComponent("Models/shop/ShopV1ToV2.xml")
    let text = try String(contentsOf: mapping, encoding: .utf8)
    try Data(
      text.replacingOccurrences(
        of: "</mappingModel>", with: "<entityMapping source=\"Nope\" destination=\"Customer\"/>\n</mappingModel>"
      ).utf8
    )
    .write(to: mapping)
    let args = sarifCommand.replacingOccurrences(of: " > mapc.sarif", with: "").split(separator: " ").dropFirst().map(
      String.init)
    let lint = runMapc(args, in: repo)
    #expect(lint.exitCode == 1, "\(lint.stderr)")
    let sarifPath = repo.appendingPathComponent("mapc.sarif").path
    try Data(lint.stdout.utf8).write(to: URL(fileURLWithPath: sarifPath))
    let validation = LintSARIFTests.validate(sarifPath)
    #expect(validation.ok, "\(validation.output)")
    let sarif = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
    let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
    let base = try #require(
      ((run["originalUriBaseIds"] as? [String: Any])?["SRCROOT"] as? [String: Any])?["uri"] as? String)
    #expect(base.hasPrefix("file://") && base.hasSuffix("/"))
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(!results.isEmpty)
    for r in results {
      let artifact = try #require(
        (((r["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])?["artifactLocation"]
          as? [String: Any])
      #expect(artifact["uri"] as? String == "Models/shop/ShopV1ToV2.xml")
      #expect(artifact["uriBaseId"] as? String == "SRCROOT")
    }

    // The same from another folder with --base-path naming the repository.
    let elsewhere = runMapc(["lint", repo.path, "--format", "github", "--base-path", repo.path])
    let annotations = runMapc(githubCommand.split(separator: " ").dropFirst().map(String.init), in: repo)
    #expect(annotations.stdout == elsewhere.stdout)
    #expect(annotations.stdout.contains("::error file=Models/shop/ShopV1ToV2.xml,line="), "\(annotations.stdout)")
  }
}
