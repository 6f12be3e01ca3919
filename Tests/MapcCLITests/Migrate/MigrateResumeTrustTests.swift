import Foundation
import MapTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A resumed `mapc migrate` trusts no intermediate store it did not check (issue 25): each one's
/// SHA-256 is recorded when it is written, and a resumed chain that finds other bytes (damaged,
/// or another valid store put in its place) says so and starts over from the original store,
/// with the same result as an uninterrupted run.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct MigrateResumeTrustTests {
  /// Runs the Tasks chain on `store` and kills it with SIGKILL as soon as the first intermediate
  /// store's digest is recorded (the second step is running). False when the run ended first.
  static func killAfterFirstStep(_ store: String, work: String) throws -> Bool {
    let process = Process()
    process.executableURL = mapcExecutable
    process.arguments = MigrateKillTests.arguments(store)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let digest = work + "/step-1.sha256"
    while process.isRunning && !FileManager.default.fileExists(atPath: digest) { usleep(500) }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return process.terminationReason == .uncaughtSignal && FileManager.default.fileExists(atPath: digest)
  }

  @Test func aDamagedOrSwappedIntermediateStoreIsNotTrusted() throws {
    let fm = FileManager.default
    let dir = try FileManagerTemp.folder("migrate-trust")
    defer { FileManagerTemp.remove(dir.path) }
    let original = dir.appendingPathComponent("original.json").path
    let store = dir.appendingPathComponent("store.json").path
    let work = dir.appendingPathComponent(".store.json.mapc-migrate").path
    try MigrateKillTests.writeStore(original, count: 40_000)
    try fm.copyItem(atPath: original, toPath: store)
    let uninterrupted = runMapc(MigrateKillTests.arguments(store))
    try #require(uninterrupted.exitCode == 0, "\(uninterrupted.stderr)")
    let reference = Hardening.bytes(store)

    // A valid store at the same version ('Tasks 2'), but not the one this run wrote.
    let other = MigrateChainTests.folder.appendingPathComponent("store-v2.json").path
    let damages: [(String, (String) throws -> Void)] = [
      (
        "a flipped byte",
        { path in
          var bytes = Hardening.bytes(path)
          bytes[bytes.count / 2] ^= 0x01
          try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
      ),
      (
        "another valid store",
        { path in
          try fm.removeItem(atPath: path)
          try fm.copyItem(atPath: other, toPath: path)
        }
      ),
    ]
    for (what, damage) in damages {
      FileManagerTemp.remove(store)
      try fm.copyItem(atPath: original, toPath: store)
      try #require(try Self.killAfterFirstStep(store, work: work), "the chain ended before it could be killed")
      #expect(Hardening.bytes(store) == Hardening.bytes(original))
      let intermediate = work + "/step-1.json"
      try damage(intermediate)
      let resumed = runMapc(Array(MigrateKillTests.arguments(store).dropLast()))
      #expect(resumed.exitCode == 0, "\(what): \(resumed.stderr)")
      #expect(
        resumed.stderr.contains(
          "step-1.json: warning: this intermediate store of an interrupted run differs from the SHA-256 recorded when it was written (damaged or replaced); not trusted: starting again from"
        ), "\(what): \(resumed.stderr)")
      #expect(resumed.stderr.contains("[migrate-resume-untrusted]"), "\(what): \(resumed.stderr)")
      #expect(!resumed.stderr.contains("resumed after"), "\(what): \(resumed.stderr)")
      let same = Hardening.bytes(store) == reference
      #expect(same, "\(what): the result differs from an uninterrupted run's")
      #expect(try fm.contentsOfDirectory(atPath: dir.path).sorted() == ["original.json", "store.json"])
    }

    // Untouched, the intermediate store is trusted and the chain resumes from it.
    FileManagerTemp.remove(store)
    try fm.copyItem(atPath: original, toPath: store)
    try #require(try Self.killAfterFirstStep(store, work: work), "the chain ended before it could be killed")
    let resumed = runMapc(Array(MigrateKillTests.arguments(store).dropLast()))
    #expect(resumed.exitCode == 0, "\(resumed.stderr)")
    #expect(resumed.stderr.contains("resumed after"), "\(resumed.stderr)")
    #expect(!resumed.stderr.contains("migrate-resume-untrusted"), "\(resumed.stderr)")
    let same = Hardening.bytes(store) == reference
    #expect(same)
  }
}
