import Foundation
import MapTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An interrupted run leaves no temporary file: SIGINT and SIGTERM while the output is being
/// written remove it; what a SIGKILLed run left is removed by the next run for the same output,
/// and another process's live file is never touched.
@Suite(
  .enabled(if: SharedPaths.bench != nil, Comment(rawValue: SharedPaths.absentMessage)),
  .enabled(if: python3 != nil, "python3 is needed to generate the store"),
  .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct TemporaryFileTests {
  /// Temporary files in `folder`.
  static func temporaries(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalWhileWritingRemovesTheTemporaryFile(_ signal: Int32) throws {
    let work = try FileManagerTemp.folder("signal")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = work.appendingPathComponent("store.json").path
    let gen = runTool(
      python3!, [SharedPaths.bench!.appendingPathComponent("gen_diary_store.py").path, "150000", store, "--seed", "3"])
    try #require(gen.exitCode == 0, "\(gen.stderr)")
    let output = work.appendingPathComponent("out.json")
    var caught = 0
    // The signal must land while the temporary file exists; a fast machine may finish first,
    // so try a few times.
    for _ in 0..<5 where caught == 0 {
      FileManagerTemp.remove(output.path)
      let process = Process()
      process.executableURL = mapcExecutable
      process.arguments = ["run", plan, "--store", store, "--output", output.path, "--quiet"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      var sawTemporary = false
      let deadline = Date().addingTimeInterval(300)
      while process.isRunning && Date() < deadline {
        if try !Self.temporaries(in: work).isEmpty {
          sawTemporary = true
          break
        }
        usleep(200)
      }
      if sawTemporary { kill(process.processIdentifier, signal) }
      process.waitUntilExit()
      if sawTemporary && process.terminationReason == .uncaughtSignal {
        caught += 1
        #expect(process.terminationStatus == signal)
        #expect(!FileManager.default.fileExists(atPath: output.path))
      }
      #expect(try Self.temporaries(in: work).isEmpty)
    }
    #expect(caught > 0, "the run always finished before the signal")
  }

  @Test func aKilledRunsLeftoverIsRemovedAndALiveOneKept() throws {
    let work = try FileManagerTemp.folder("stale")
    defer { FileManagerTemp.remove(work.path) }
    let plan = try compileDiaryPlan(in: work)
    let store = work.appendingPathComponent("store.json").path
    let gen = runTool(
      python3!, [SharedPaths.bench!.appendingPathComponent("gen_diary_store.py").path, "20", store, "--seed", "4"])
    try #require(gen.exitCode == 0, "\(gen.stderr)")
    // A process that has ended: its pid names no process now.
    let done = Process()
    done.executableURL = URL(fileURLWithPath: "/bin/true")
    try done.run()
    done.waitUntilExit()
    let dead = done.processIdentifier
    let stale = ".out.json.mapc-\(dead)-1a2b.tmp"
    let live = ".out.json.mapc-\(getpid())-3c4d.tmp"
    let otherTarget = ".other.json.mapc-\(dead)-5e6f.tmp"
    for name in [stale, live, otherTarget] {
      try Data("partial".utf8).write(to: work.appendingPathComponent(name))
    }
    let run = runMapc([
      "run", plan, "--store", store, "--output", work.appendingPathComponent("out.json").path, "--quiet",
    ])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(try Self.temporaries(in: work).sorted() == [live, otherTarget].sorted())
  }
}
