import Foundation
import MapTestSupport
import Testing

/// Runs `plan` over `store` in memory and with `--memory-limit limit`, each to `out`, quiet:
/// both must fail (exit 2) with the same messages and write nothing. Returns the run in memory.
@discardableResult
func expectTheSameFailureInChunks(
  plan: String, store: String, out: String, limit: String, sourceLocation: SourceLocation = #_sourceLocation
) -> MapcResult {
  let a = runMapc(["run", plan, "--store", store, "--output", out, "--quiet"])
  let b = runMapc(["run", plan, "--store", store, "--output", out, "--quiet", "--memory-limit", limit])
  #expect(a.exitCode == 2, "\(a.stderr)", sourceLocation: sourceLocation)
  #expect(b.exitCode == a.exitCode, sourceLocation: sourceLocation)
  #expect(b.stderr == a.stderr, sourceLocation: sourceLocation)
  #expect(!FileManager.default.fileExists(atPath: out), sourceLocation: sourceLocation)
  return a
}

/// Runs `plan` over `store` to `output` with `--memory-limit 64K` and a `TMPDIR` of `tmp`, and
/// sends SIGTERM once the run's scratch folder has files in it (up to five tries, until one
/// lands): the run dies of the signal, writes no output and leaves nothing in `tmp`.
func expectSIGTERMWhileChunksAreWrittenLeavesNothing(
  plan: String, store: String, output: URL, tmp: URL, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  try expectSIGTERMWhileChunksAreWrittenLeavesNothing(
    ["run", plan, "--store", store, "--output", output.path, "--quiet", "--memory-limit", "64K"], output: output,
    tmp: tmp, sourceLocation: sourceLocation)
}

/// `expectSIGTERMWhileChunksAreWrittenLeavesNothing` for any command that writes `output` a
/// chunk at a time (`arguments`, with its `--memory-limit`). The signal comes once `ready` holds
/// for the run's `TMPDIR` (by default: a folder in it is not empty).
func expectSIGTERMWhileChunksAreWrittenLeavesNothing(
  _ arguments: [String], output: URL, tmp: URL, ready: ((URL) throws -> Bool)? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let ready =
    ready ?? { tmp in
      try FileManager.default.contentsOfDirectory(atPath: tmp.path).contains { f in
        try !FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent(f).path).isEmpty
      }
    }
  var caught = 0
  for _ in 0..<5 where caught == 0 {
    let process = Process()
    process.executableURL = mapcExecutable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp.path]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    var sawScratch = false
    let deadline = Date().addingTimeInterval(300)
    while process.isRunning && Date() < deadline && !sawScratch {
      sawScratch = (try? ready(tmp)) ?? false
      if !sawScratch { usleep(500) }
    }
    if sawScratch { kill(process.processIdentifier, SIGTERM) }
    process.waitUntilExit()
    if sawScratch && process.terminationReason == .uncaughtSignal {
      caught += 1
      #expect(process.terminationStatus == SIGTERM, sourceLocation: sourceLocation)
    }
    #expect(!FileManager.default.fileExists(atPath: output.path), sourceLocation: sourceLocation)
    let left = FileManager.default.subpaths(atPath: tmp.path) ?? []
    #expect(left.isEmpty, "left in TMPDIR: \(left.sorted())", sourceLocation: sourceLocation)
  }
  #expect(caught > 0, "the run always finished before the signal", sourceLocation: sourceLocation)
}

/// `--in-place --backup` with `--memory-limit 16K`: the store becomes what the run in memory
/// writes (`expected`, written first), the backup holds the old store.
func expectInPlaceInChunksKeepsTheOldStore(
  plan: String, store: String, expected: String, backup: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let original = try Data(contentsOf: URL(fileURLWithPath: store))
  #expect(
    runMapc(["run", plan, "--store", store, "--output", expected, "--quiet"]).exitCode == 0,
    sourceLocation: sourceLocation)
  let r = runMapc(["run", plan, "--store", store, "--in-place", "--backup", backup, "--memory-limit", "16K"])
  #expect(r.exitCode == 0, "\(r.stderr)", sourceLocation: sourceLocation)
  #expect(r.stderr.contains("chunks (--memory-limit)"), "\(r.stderr)", sourceLocation: sourceLocation)
  #expect(
    try Data(contentsOf: URL(fileURLWithPath: store)) == Data(contentsOf: URL(fileURLWithPath: expected)),
    sourceLocation: sourceLocation)
  #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == original, sourceLocation: sourceLocation)
}
