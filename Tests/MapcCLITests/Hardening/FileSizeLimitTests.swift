import Foundation
import MapTestSupport
import Testing

/// A write past the file size limit (`ulimit -f`) is an error of that write, not the end of
/// the process: without a handler, SIGXFSZ killed mapc part-way and left its temporary files.
/// With the limit at 0 every write to a regular file fails with EFBIG; the run must say so
/// (the system's text, `file too large`), exit 2, leave the target and the store as they were
/// and remove what it wrote: the temporary file beside the target, the chunks' scratch files.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: SharedPaths.bench != nil, Comment(rawValue: SharedPaths.absentMessage)),
  .enabled(if: python3 != nil, "python3 is needed to generate the store"))
struct FileSizeLimitTests {
  /// Runs mapc with `ulimit -f 0` and TMPDIR at `tmp`; its output goes through a pipe (which
  /// the limit does not cover) so that the test can read it.
  func runLimited(_ arguments: [String], tmp: URL) throws -> (code: Int?, output: String) {
    let exe = try #require(mapcExecutable, "\(mapcExecutableProblem ?? "")")
    let script = #"( ulimit -f 0; TMPDIR="$1"; export TMPDIR; shift; "$@"; echo "exit=$?" ) 2>&1 | cat"#
    let r = runExecutable(URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", tmp.path, exe.path] + arguments)
    let code = r.stdout.split(separator: "\n").last { $0.hasPrefix("exit=") }.flatMap { Int($0.dropFirst(5)) }
    return (code, r.stdout)
  }

  func expectNothingLeft(_ work: URL, _ tmp: URL, keeping names: Set<String>) throws {
    let left = try FileManager.default.contentsOfDirectory(atPath: work.path)
    #expect(Set(left) == names, "\(left)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
  }

  @Test(arguments: [nil, "16K"])
  func aJSONRunSaysTheFileIsTooLarge(limit: String?) throws {
    let work = try FileManagerTemp.folder("fsize-json")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = try generateDiaryStore(in: work, records: "2000", seed: "5")
    let tmp = work.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    let target = work.appendingPathComponent("out.json")
    let old = Data("previous contents\n".utf8)
    try old.write(to: target)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let names: Set<String> = Set(try FileManager.default.contentsOfDirectory(atPath: work.path))
    let r = try runLimited(
      ["run", plan, "--store", store, "--output", target.path] + (limit.map { ["--memory-limit", $0] } ?? []), tmp: tmp)
    #expect(r.code == 2, "\(r.output)")
    #expect(r.output.contains("file too large"), "\(r.output)")
    #expect(r.output.contains("nothing was written"), "\(r.output)")
    #expect(!r.output.contains("File size limit exceeded"), "\(r.output)")
    #expect(try Data(contentsOf: target) == old)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    try expectNothingLeft(work, tmp, keeping: names)
    // Without the limit the same run writes (the store is one a run can write).
    let w = runMapc(["run", plan, "--store", store, "--output", target.path, "--quiet"])
    #expect(w.exitCode == 0, "\(w.stderr)")
  }

  @Test func anSQLiteWriteSaysTheFileIsTooLarge() throws {
    let work = try FileManagerTemp.folder("fsize-sqlite")
    defer { FileManagerTemp.remove(work.path) }
    let store = try generateDiaryStore(in: work, records: "200", seed: "6")
    let model = try #require(SharedPaths.fixtures, Comment(rawValue: SharedPaths.absentMessage))
      .appendingPathComponent("diary/SimpleQADiary.xcdatamodeld").path
    let tmp = work.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    let names: Set<String> = Set(try FileManager.default.contentsOfDirectory(atPath: work.path))
    let target = work.appendingPathComponent("out.sqlite").path
    let r = try runLimited(["store", "import", store, "--model", model, "-o", target], tmp: tmp)
    #expect(r.code == 2, "\(r.output)")
    // SQLite's own text, then the system's reason for it.
    #expect(r.output.contains("(file too large)"), "\(r.output)")
    try expectNothingLeft(work, tmp, keeping: names)
  }
}
