import Foundation
import MapTestSupport
import Testing

/// Issue 44: `mapc test --jobs N` gives the output of one job, in the same order; `--shard K/N`
/// runs disjoint parts, balanced to one case, that together are every case; `--shard auto`
/// reads GitLab's, Slurm's and a Kubernetes Indexed Job's variables; `--merge-junit` gives the
/// report of the unsharded run apart from times (compared by python3's ElementTree).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"), .serialized)
struct TestCommandScaleTests {
  /// Three fixtures of the tasks example's five cases (15 cases) under `work/tree`.
  static func tree() throws -> URL {
    let (work, tasks) = try TestCommandTests.copyExample("tasks")
    let fixture = try String(contentsOf: tasks.appendingPathComponent("fixture.json"), encoding: .utf8)
    for name in ["f0", "f1", "f2"] {
      let folder = work.appendingPathComponent("tree/\(name)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      // Every path value (after `": "`, not a version after `"to"`) now starts at the copied example.
      let text = fixture.replacingOccurrences(
        of: #"(?<!"to)(": )"(?!\.\./)([A-Za-z])"#, with: "$1\"../../tasks/$2", options: .regularExpression)
      try Data(text.utf8).write(to: folder.appendingPathComponent("fixture.json"))
    }
    return work
  }

  /// Whether two JUnit reports are the same document once `time` and `timestamp` are left out
  /// (python3's ElementTree).
  static func sameReportApartFromTimes(_ a: URL, _ b: URL) throws -> Bool {
    let same = try HostileKeyTests.python(
      """
      import sys, xml.etree.ElementTree as ET
      def canon(path):
          root = ET.parse(path).getroot()
          for e in root.iter():
              for a in ("time", "timestamp"):
                  e.attrib.pop(a, None)
          return ET.tostring(root)
      print(canon(sys.argv[1]) == canon(sys.argv[2]))
      """, a.path, b.path)
    return same.trimmingCharacters(in: .whitespacesAndNewlines) == "True"
  }

  /// The case lines of a run's standard output, times left out.
  static func caseLines(_ stdout: String) -> [String] {
    stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("mapc:") }.map {
      $0.replacingOccurrences(of: #" \([0-9.]+ s\)"#, with: "", options: .regularExpression)
    }
  }

  @Test func jobsGiveTheOutputOfOneJob() throws {
    let work = try Self.tree()
    defer { FileManagerTemp.remove(work.path) }
    let one = runMapc(["test", "tree", "--jobs", "1"], in: work)
    let two = runMapc(["test", "tree", "--jobs", "2"], in: work)
    let four = runMapc(["test", "tree", "--jobs", "4"], in: work)
    #expect(one.exitCode == 0, "\(one.stdout)\(one.stderr)")
    #expect(Self.caseLines(one.stdout).count == 15)
    #expect(Self.caseLines(two.stdout) == Self.caseLines(one.stdout))
    #expect(Self.caseLines(four.stdout) == Self.caseLines(one.stdout))
    #expect(two.exitCode == 0 && four.exitCode == 0)
  }

  @Test func shardsAreDisjointBalancedAndMergeIntoTheWholeReport() throws {
    let work = try Self.tree()
    defer { FileManagerTemp.remove(work.path) }
    let whole = runMapc(["test", "tree", "--jobs", "2", "--junit", "whole.xml"], in: work)
    #expect(whole.exitCode == 0, "\(whole.stderr)")
    var union: [String] = []
    var reports: [String] = []
    for k in 1...4 {
      let r = runMapc(["test", "tree", "--shard", "\(k)/4", "--junit", "s\(k).xml"], in: work)
      #expect(r.exitCode == 0, "\(r.stderr)")
      let lines = Self.caseLines(r.stdout)
      #expect((3...4).contains(lines.count), "shard \(k): \(lines.count) cases")
      union += lines
      reports.append("s\(k).xml")
    }
    #expect(union.sorted() == Self.caseLines(whole.stdout).sorted(), "every case exactly once")
    let merged = runMapc(["test"] + reports.reversed() + ["--merge-junit", "merged.xml"], in: work)
    #expect(merged.exitCode == 0, "\(merged.stderr)")
    #expect(
      try Self.sameReportApartFromTimes(
        work.appendingPathComponent("whole.xml"), work.appendingPathComponent("merged.xml")))
    // The same report twice holds every case of it twice: refused, naming the file.
    let twice = runMapc(["test", "s1.xml", "s1.xml", "--merge-junit", "bad.xml"], in: work)
    #expect(twice.exitCode == 1 && twice.stderr.contains("[test-junit-invalid]"), "\(twice.stderr)")
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("bad.xml").path))
  }

  @Test func autoShardsReadTheSchedulersVariables() throws {
    let work = try Self.tree()
    defer { FileManagerTemp.remove(work.path) }
    // The variables of every scheduler, empty (unset for mapc) unless a case sets them.
    let cleared = Dictionary(
      uniqueKeysWithValues: [
        "CI_NODE_INDEX", "CI_NODE_TOTAL", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
        "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX",
      ].map { ($0, "") })
    func lines(_ arguments: [String], _ environment: [String: String]) -> (Int32, [String], String) {
      let r = runMapc(
        ["test", "tree"] + arguments, in: work, environment: cleared.merging(environment) { _, new in new })
      return (r.exitCode, Self.caseLines(r.stdout), r.stderr)
    }
    let explicit = lines(["--shard", "2/3"], [:])
    #expect(explicit.0 == 0)
    #expect(lines(["--shard", "auto"], ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]).1 == explicit.1)
    #expect(lines(["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"]).1 == explicit.1)
    #expect(lines(["--shard", "auto/3"], ["JOB_COMPLETION_INDEX": "1"]).1 == explicit.1)
    let noTotal = lines(["--shard", "auto"], ["JOB_COMPLETION_INDEX": "1"])
    #expect(noTotal.0 == 64 && noTotal.2.contains("auto/N"), "\(noTotal.2)")
    #expect(lines(["--shard", "4/3"], [:]).0 == 64)
    #expect(lines(["--shard", "auto"], [:]).0 == 64)
  }
}
