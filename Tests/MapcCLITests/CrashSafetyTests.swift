import Foundation
import MapTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Contract §4: a killed run leaves the input store and any existing target untouched. The
/// test kills `mapc run --in-place` with SIGKILL at moments spread over a run that takes more
/// than a second, and checks each time that the store is byte for byte either the old one or
/// the complete new one.
@Suite(
  .enabled(if: SharedPaths.bench != nil, Comment(rawValue: SharedPaths.absentMessage)),
  .enabled(if: python3 != nil, "python3 is needed to generate the store"))
struct CrashSafetyTests {
  static let kills = 20

  @Test func sigkillDuringInPlaceRunLeavesOldOrNewStore() throws {
    let fm = FileManager.default
    let work = try FileManagerTemp.folder("crash")
    defer { FileManagerTemp.remove(work.path) }
    let bench = SharedPaths.bench!
    let plan = try compileDiaryPlan(in: work)

    // A store large enough that one run takes over a second on this machine and build.
    let original = work.appendingPathComponent("original.json").path
    let reference = work.appendingPathComponent("reference.json").path
    var records = 3000
    var duration = 0.0
    for _ in 0..<4 {
      let gen = runTool(
        python3!, [bench.appendingPathComponent("gen_diary_store.py").path, String(records), original, "--seed", "1"])
      try #require(gen.exitCode == 0, "\(gen.stderr)")
      FileManagerTemp.remove(reference)
      let start = Date()
      let run = runMapc(["run", plan, "--store", original, "--output", reference, "--quiet"])
      duration = Date().timeIntervalSince(start)
      try #require(run.exitCode == 0, "\(run.stderr)")
      if duration >= 1.0 || records >= 400_000 { break }
      records = min(400_000, Int(Double(records) * 1.5 / max(duration, 0.05)))
    }
    let old = try Data(contentsOf: URL(fileURLWithPath: original))
    let new = try Data(contentsOf: URL(fileURLWithPath: reference))
    #expect(old != new)

    // Unkilled, the same in-place run gives the reference bytes and leaves nothing else. Its
    // time (the machine may be busy) widens the span the kills are spread over.
    let victim = work.appendingPathComponent("store.json").path
    try old.write(to: URL(fileURLWithPath: victim))
    let start = Date()
    let done = runMapc(["run", plan, "--store", victim, "--in-place", "--quiet"])
    duration = max(duration, Date().timeIntervalSince(start))
    #expect(done.exitCode == 0, "\(done.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == new)
    #expect(
      try fm.contentsOfDirectory(atPath: work.path).sorted() == [
        "diary.cdm", "original.json", "reference.json", "store.json",
      ])

    var keptOld = 0
    var keptNew = 0
    var leftovers: [String] = []
    var rng = SplitMix64(seed: 20_240_601)
    for i in 0..<Self.kills {
      try old.write(to: URL(fileURLWithPath: victim))
      // One delay in each of `kills` equal slices of 1.3 × the run's duration, at a random
      // point of the slice: early kills land while reading or migrating, late ones while
      // writing, renaming or after the end.
      let slice = duration * 1.3 / Double(Self.kills)
      let delay = slice * (Double(i) + Double(rng.next() % 1000) / 1000)
      let process = Process()
      process.executableURL = mapcExecutable
      process.arguments = ["run", plan, "--store", victim, "--in-place", "--quiet"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(useconds_t(delay * 1_000_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      let after = try Data(contentsOf: URL(fileURLWithPath: victim))
      if after == old {
        keptOld += 1
      } else if after == new {
        keptNew += 1
      } else {
        Issue.record(
          "kill \(i + 1) after \(delay) s left a store that is neither the old nor the new one (\(after.count) bytes)")
      }
      // What a kill may leave besides the store: the run's hidden temporary file.
      for name in try fm.contentsOfDirectory(atPath: work.path)
      where !["diary.cdm", "original.json", "reference.json", "store.json"].contains(name) {
        leftovers.append(name)
        FileManagerTemp.remove(work.appendingPathComponent(name).path)
      }
    }
    #expect(keptOld + keptNew == Self.kills)
    #expect(keptOld > 0, "no kill landed before the rename; the run took \(duration) s")
    for name in leftovers {
      #expect(
        name.hasPrefix(".store.json.mapc-") && name.hasSuffix(".tmp"),
        "a killed run left \(name), which is not its temporary file")
    }

    print(
      "crash safety: \(records) records, run \(String(format: "%.2f", duration)) s; \(keptOld) kills kept the old store, \(keptNew) the new one; \(leftovers.count) temporary files left"
    )
  }
}
