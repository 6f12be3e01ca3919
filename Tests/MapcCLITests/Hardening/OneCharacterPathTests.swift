import Foundation
import MapTestSupport
import Testing

/// Paths of one character (`m`, `p`, `o`, `t`) crashed commands: Foundation's
/// `NSString.deletingLastPathComponent` traps on them on Linux (`mapc compile m -o p`, exit 132).
/// Every command here now runs as with any other name.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct OneCharacterPathTests {
  @Test func commandsTakeOneCharacterPaths() throws {
    let (work, tasks) = try TestCommandTests.copyExample("tasks")
    defer { FileManagerTemp.remove(work.path) }
    let dir = tasks.appendingPathComponent("mappings")
    try FileManager.default.copyItem(
      at: dir.appendingPathComponent("TasksV3ToV4.xml"), to: dir.appendingPathComponent("m"))
    try FileManager.default.copyItem(
      at: tasks.appendingPathComponent("store-v3.json"), to: dir.appendingPathComponent("s"))
    let runs: [[String]] = [
      ["compile", "m", "-o", "p"], ["dump", "p"], ["run", "p", "--store", "s", "--output", "o"], ["lint", "m"],
      ["export", "m", "-o", "x.xcmappingmodel"], ["store", "info", "s"],
    ]
    for arguments in runs {
      let r = runMapc(arguments, in: dir)
      #expect(r.exitCode == 0, "mapc \(arguments.joined(separator: " ")): \(r.stderr)")
      #expect(!r.stderr.contains("crashed"), "mapc \(arguments.joined(separator: " "))")
    }
    // A fixture folder named `t`.
    let t = work.appendingPathComponent("t")
    try FileManager.default.createDirectory(at: t, withIntermediateDirectories: true)
    try Data(
      #"{"mapping": "../tasks/mappings/p", "cases": [{"store": "../tasks/mappings/s", "expected": "../tasks/mappings/o"}]}"#
        .utf8
    )
    .write(to: t.appendingPathComponent("fixture.json"))
    let test = runMapc(["test", "t"], in: work)
    #expect(test.exitCode == 0, "\(test.stdout)\(test.stderr)")
  }
}
