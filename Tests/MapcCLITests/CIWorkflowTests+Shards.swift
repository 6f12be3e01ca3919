import Foundation
import MapTestSupport
import Testing

/// The recipes for sharded runs (docs/ci/mapc-test-shards.yml, a GitHub Actions matrix, and
/// docs/ci/mapc-migrate-indexed-job.yaml, a Kubernetes Indexed Job): their commands, read by
/// PyYAML, run as each shard or pod would run them (the matrix value put in, or the pod's
/// `JOB_COMPLETION_INDEX` set), with mapc on the PATH: every case and store runs exactly once,
/// and the merged report is the unsharded run's apart from times (python3's ElementTree).
extension CIWorkflowTests {
  static var pathWithMapc: String {
    (mapcExecutable!.deletingLastPathComponent().path) + ":"
      + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
  }

  static func shell(_ command: String, in dir: URL, _ environment: [String: String] = [:]) -> MapcResult {
    runExecutable(
      URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: dir,
      environment: environment.merging(["PATH": pathWithMapc]) { a, _ in a })
  }

  @Test func theShardedTestRecipeRunsEveryCaseOnceAndMergesToTheWholeReport() throws {
    let w = try Self.workflow("docs/ci/mapc-test-shards.yml")
    let jobs = try #require(w["jobs"] as? [String: Any])
    let test = try #require(jobs["mapc-test"] as? [String: Any])
    let matrix = try #require((test["strategy"] as? [String: Any])?["matrix"] as? [String: Any])
    let shards = try #require(matrix["shard"] as? [Int])
    let run = try #require(
      try Self.steps(w, job: "mapc-test").compactMap { $0["run"] as? String }.first { $0.hasPrefix("mapc test") })
    let merge = try #require(
      try Self.steps(w, job: "report").compactMap { $0["run"] as? String }.first { $0.contains("--merge-junit") })
    let dir = try FileManagerTemp.folder("ci-shards")
    defer { FileManagerTemp.remove(dir.path) }
    try FileManager.default.copyItem(
      at: Self.root.appendingPathComponent("Mappings"), to: dir.appendingPathComponent("Mappings"))
    var lines: [String] = []
    for shard in shards {
      let r = Self.shell(run.replacingOccurrences(of: "${{ matrix.shard }}", with: String(shard)), in: dir)
      #expect(r.exitCode == 0, "shard \(shard): \(r.stderr)")
      lines += TestCommandScaleTests.caseLines(r.stdout)
    }
    let whole = Self.shell("mapc test Mappings --junit whole.xml", in: dir)
    #expect(lines.sorted() == TestCommandScaleTests.caseLines(whole.stdout).sorted(), "every case exactly once")
    #expect(Self.shell(merge, in: dir).exitCode == 0)
    #expect(
      try TestCommandScaleTests.sameReportApartFromTimes(
        dir.appendingPathComponent("whole.xml"), dir.appendingPathComponent("mapc-junit.xml")))
  }

  @Test func theIndexedJobRecipeMigratesEveryStoreOnce() throws {
    let job = try Self.workflow("docs/ci/mapc-migrate-indexed-job.yaml")
    let spec = try #require(job["spec"] as? [String: Any])
    #expect(spec["completionMode"] as? String == "Indexed")
    let completions = try #require(spec["completions"] as? Int)
    let pod = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
    let container = try #require((pod["containers"] as? [[String: Any]])?.first)
    let command = try #require(container["command"] as? [String])
    #expect(command.prefix(2) == ["sh", "-c"])
    let dir = try FileManagerTemp.folder("ci-indexed-job")
    defer { FileManagerTemp.remove(dir.path) }
    let tasks = dir.appendingPathComponent("tasks")
    try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Mappings/tasks"), to: tasks)
    var manifest = ""
    for i in 0..<7 {
      let v = i % 3 + 1
      manifest +=
        #"{"store": "tasks/store-v\#(v).json", "model": "tasks/Tasks.xcdatamodeld", "mappings": "tasks/mappings", "output": "out/s\#(i).json"}"#
        + "\n"
    }
    try Data(manifest.utf8).write(to: dir.appendingPathComponent("fleet.jsonl"))
    var outputs: [String] = []
    for index in 0..<completions {
      let r = Self.shell(command[2], in: dir, ["JOB_COMPLETION_INDEX": String(index)])
      #expect(r.exitCode == 0, "pod \(index): \(r.stderr)")
      let report = try String(contentsOf: dir.appendingPathComponent("report-\(index).jsonl"), encoding: .utf8)
      for line in report.split(separator: "\n") {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["result"] as? String == "migrated")
        outputs.append(try #require(object["output"] as? String))
      }
    }
    #expect(outputs.sorted() == (0..<7).map { "out/s\($0).json" }, "every store exactly once")
  }
}
