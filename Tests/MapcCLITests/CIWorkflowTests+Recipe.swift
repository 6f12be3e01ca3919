import Foundation
import MapTestSupport
import Testing

/// The recipe's install, cache and upload steps, and the repository workflow's jobs and cache
/// key: what a fresh runner needs comes from `Package.swift`'s system libraries (and, where dpkg
/// knows them, the libraries those development packages depend on); the cache keys change with
/// mapc's commit and the toolchain; a lint that fails does not stop the cache being saved.
extension CIWorkflowTests {
  /// The `.apt([...])` packages of `Package.swift`'s system libraries.
  static func aptProviders() throws -> Set<String> {
    let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    var result: Set<String> = []
    var rest = text[...]
    while let open = rest.range(of: ".apt([") {
      guard let close = rest[open.upperBound...].range(of: "])") else { break }
      for part in rest[open.upperBound..<close.lowerBound].split(separator: ",") {
        result.insert(part.trimmingCharacters(in: CharacterSet(charactersIn: " \"\n")))
      }
      rest = rest[close.upperBound...]
    }
    return result
  }

  /// The packages an `apt-get install` line of `script` names.
  static func installed(by script: String) -> Set<String> {
    var result: Set<String> = []
    for line in script.split(separator: "\n") {
      guard let r = line.range(of: "apt-get install") else { continue }
      for word in line[r.upperBound...].split(separator: " ") where !word.hasPrefix("-") && !word.hasPrefix("$") {
        result.insert(String(word))
      }
    }
    return result
  }

  static func step(_ steps: [[String: Any]], named name: String) throws -> [String: Any] {
    try #require(steps.first { $0["name"] as? String == name }, "no step named \(name)")
  }

  @Test func theRecipeInstallsWhatPackageSwiftsSystemLibrariesNeed() throws {
    let apt = try Self.aptProviders()
    #expect(apt == ["libxml2-dev", "libsqlite3-dev", "zlib1g-dev"], "Package.swift changed: check this test")
    let steps = try Self.steps(try Self.workflow("docs/ci/mapc-lint.yml"), job: "mapc-lint")
    let build = try #require(try Self.step(steps, named: "Build mapc")["run"] as? String)
    let buildPackages = Self.installed(by: build)
    #expect(apt.union(["pkg-config", "git"]).isSubset(of: buildPackages), "\(buildPackages)")
    #expect(build.contains("scripts/build-release.sh"))
    #expect(
      FileManager.default.isExecutableFile(atPath: Self.root.appendingPathComponent("scripts/build-release.sh").path))

    // What the binary loads at run time (a cache hit skips the build step): for each
    // development package, a library it depends on, as dpkg says where it knows the package.
    let runtime = Self.installed(
      by: try #require(try Self.step(steps, named: "Install the libraries mapc links")["run"] as? String))
    #expect(runtime == ["libxml2", "libsqlite3-0", "zlib1g"])
    if let dpkg = ["/usr/bin/dpkg-query", "/bin/dpkg-query"].first(where: {
      FileManager.default.isExecutableFile(atPath: $0)
    }) {
      for package in apt {
        let r = runTool(URL(fileURLWithPath: dpkg), ["-W", "-f", "${Depends}", package])
        guard r.exitCode == 0 else { continue }  // not installed here: dpkg does not know it
        let depends = Set(
          r.stdout.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(!depends.isDisjoint(with: runtime), "\(package) depends on \(depends); none is installed")
      }
    }

    // The repository's own CI installs the same packages.
    let ciRun = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
    for package in apt { #expect(ciRun.contains("missing+=(\(package))"), "\(package) in .ci/run") }
  }

  @Test func theRecipesCacheFollowsMapcsCommitAndTheToolchainWhateverTheLint() throws {
    let steps = try Self.steps(try Self.workflow("docs/ci/mapc-lint.yml"), job: "mapc-lint")
    let which = try Self.step(steps, named: "Which mapc")
    let restore = try Self.step(steps, named: "Restore mapc")
    let save = try Self.step(steps, named: "Save mapc")
    #expect((restore["uses"] as? String)?.hasPrefix("actions/cache/restore@") == true)
    #expect((save["uses"] as? String)?.hasPrefix("actions/cache/save@") == true)
    let restoreWith = try #require(restore["with"] as? [String: Any])
    let saveWith = try #require(save["with"] as? [String: Any])
    let key = try #require(restoreWith["key"] as? String)
    #expect(saveWith["key"] as? String == key)
    #expect(saveWith["path"] as? String == restoreWith["path"] as? String)
    #expect(key.contains("steps.mapc.outputs.commit") && key.contains("steps.mapc.outputs.toolchain"), "\(key)")
    #expect(restoreWith["restore-keys"] == nil, "a restore key would bring back another commit's mapc")
    // Saved before any lint step runs, and not on the lint's result.
    let saveIndex = try #require(steps.firstIndex { $0["name"] as? String == "Save mapc" })
    let firstLint = try #require(steps.firstIndex { ($0["run"] as? String)?.hasPrefix("mapc lint") == true })
    #expect(saveIndex < firstLint)
    #expect((save["if"] as? String).map { !$0.contains("failure") && !$0.contains("success") } ?? true)

    // The key's inputs, computed by running the step's script on this package's repository.
    let script = try #require(which["run"] as? String)
    let git = URL(fileURLWithPath: "/usr/bin/git")
    let head = runTool(git, ["-C", Self.root.path, "rev-parse", "HEAD"])
    guard FileManager.default.isExecutableFile(atPath: git.path), head.exitCode == 0 else { return }
    let output = try FileManagerTemp.folder("ci-output")
    defer { FileManagerTemp.remove(output.path) }
    let file = output.appendingPathComponent("github-output").path
    let env = "MAPC_REPOSITORY='\(Self.root.path)' MAPC_REF=HEAD GITHUB_OUTPUT='\(file)'"
    let r = runTool(URL(fileURLWithPath: "/bin/bash"), ["-c", "export \(env); set -e; \(script)"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.contains("commit=\(head.stdout.trimmingCharacters(in: .whitespacesAndNewlines))"), "\(lines)")
    #expect(lines.contains { $0.hasPrefix("toolchain=") && $0.count == "toolchain=".count + 16 }, "\(lines)")
  }

  @Test func codeScanningIsSkippedOnPullRequestsFromForks() throws {
    let steps = try Self.steps(try Self.workflow("docs/ci/mapc-lint.yml"), job: "mapc-lint")
    let upload = try #require(
      steps.first { ($0["uses"] as? String)?.hasPrefix("github/codeql-action/upload-sarif@") == true })
    let condition = try #require(upload["if"] as? String)
    #expect(condition.contains("always()"))
    #expect(condition.contains("github.event.pull_request.head.repo.full_name == github.repository"), "\(condition)")
  }

  @Test func theRepositoryWorkflowKeysItsCacheOnThePackageAndTheToolchainAndRunsOnMacOS() throws {
    let w = try Self.workflow(".github/workflows/ci.yml")
    for (job, script) in [("test", "bash .ci/run"), ("macos", "bash .ci/run-macos")] {
      let steps = try Self.steps(w, job: job)
      let toolchain = try #require(steps.first { $0["id"] as? String == "toolchain" })
      #expect((toolchain["run"] as? String)?.contains("swift --version") == true)
      let cache = try #require(steps.first { ($0["uses"] as? String)?.hasPrefix("actions/cache@") == true })
      let key = try #require((cache["with"] as? [String: Any])?["key"] as? String)
      #expect(key.contains("hashFiles('Package.swift'") && key.contains("steps.toolchain.outputs.id"), "\(key)")
      #expect(steps.contains { ($0["run"] as? String) == script })
    }
    let jobs = try #require(w["jobs"] as? [String: Any])
    #expect((jobs["macos"] as? [String: Any])?["runs-on"] as? String == "macos-latest")
    let macScript = try String(contentsOf: Self.root.appendingPathComponent(".ci/run-macos"), encoding: .utf8)
    #expect(macScript.contains("swift build && swift test"))
    let linuxScript = try String(contentsOf: Self.root.appendingPathComponent(".ci/run"), encoding: .utf8)
    #expect(linuxScript.contains("scripts/check-static-binary.sh"))
    // The static release binary: its own job, `.ci/run release`.
    #expect(try Self.steps(w, job: "release").contains { ($0["run"] as? String) == "bash .ci/run release" })
    #expect(linuxScript.contains("scripts/build-release.sh --scratch-path .build-release"))
    // The libFuzzer runs of every target: their own job, `.ci/run fuzz`, which builds and runs
    // them all (the test job replays their bodies: FuzzReplayTests).
    #expect(try Self.steps(w, job: "fuzz").contains { ($0["run"] as? String) == "bash .ci/run fuzz" })
    #expect(linuxScript.contains("Fuzz/run.sh --build") && linuxScript.contains("Fuzz/run.sh all"))
  }
}
