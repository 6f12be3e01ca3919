import Foundation
import MapTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Safety across a chain: `mapc migrate --checkpoints` of a large Tasks store through three steps is killed
/// with SIGKILL at random moments. After each kill the store must be byte for byte the original
/// or the final result, and a rerun must complete (resuming from the intermediate stores the
/// killed run left, or starting over) to the bytes of an uninterrupted run, leaving nothing
/// beside the store.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct MigrateKillTests {
  static let kills = 20

  /// A Tasks (version 1) store with `count` tasks in `count / 20` lists.
  static func writeStore(_ path: String, count: Int) throws {
    let sample = MigrateChainTests.folder.appendingPathComponent("store-v1.json")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: sample)) as! [String: Any]
    let metadata = try JSONSerialization.data(withJSONObject: json["metadata"]!, options: [.sortedKeys])
    let lists = max(1, count / 20)
    var out = "{\"metadata\": \(String(decoding: metadata, as: UTF8.self)), \"objects\": {\"Task\": ["
    var members = Array(repeating: [String](), count: lists)
    for i in 0..<count {
      let list = (i * 7) % lists
      members[list].append("\"t\(i)\"")
      let note = i % 3 == 0 ? "null" : "\"note \(i) with some text to carry along\""
      let priority = i % 5 == 0 ? "null" : String(i % 4)
      let done = i % 4 == 0 ? "null" : (i % 2 == 0 ? "true" : "false")
      out +=
        (i == 0 ? "" : ",")
        + "{\"id\": \"t\(i)\", \"title\": \"Task number \(i)\", \"note\": \(note), \"priority\": \(priority), \"done\": \(done), \"list\": \"l\(list)\"}"
    }
    out += "], \"TaskList\": ["
    for l in 0..<lists {
      out +=
        (l == 0 ? "" : ",")
        + "{\"id\": \"l\(l)\", \"name\": \"List \(l)\", \"tasks\": [\(members[l].reversed().joined(separator: ","))]}"
    }
    out += "]}}\n"
    try Data(out.utf8).write(to: URL(fileURLWithPath: path))
  }

  static func arguments(_ store: String) -> [String] {
    [
      "migrate", "--model", MigrateChainTests.bundle, "--store", store, "--mappings", MigrateChainTests.mappings,
      "--checkpoints", "--quiet",
    ]
  }

  @Test func killedChainsLeaveOriginalOrResultAndRerunsFinishTheSame() throws {
    let fm = FileManager.default
    let work = try FileManagerTemp.folder("migrate-kill")
    defer { FileManagerTemp.remove(work.path) }
    let original = work.appendingPathComponent("original.json").path
    let victim = work.appendingPathComponent("store.json").path

    // A store large enough that the three steps take over a second together.
    var count = 20_000
    var duration = 0.0
    var reference = Data()
    for _ in 0..<4 {
      try Self.writeStore(original, count: count)
      FileManagerTemp.remove(victim)
      try fm.copyItem(atPath: original, toPath: victim)
      let start = Date()
      let r = runMapc(Self.arguments(victim))
      duration = Date().timeIntervalSince(start)
      try #require(r.exitCode == 0, "\(r.stderr)")
      reference = try Data(contentsOf: URL(fileURLWithPath: victim))
      if duration >= 1.5 || count >= 400_000 { break }
      count = min(400_000, Int(Double(count) * 2.0 / max(duration, 0.05)))
    }
    let old = try Data(contentsOf: URL(fileURLWithPath: original))
    #expect(try fm.contentsOfDirectory(atPath: work.path).sorted() == ["original.json", "store.json"])

    var keptOld = 0
    var keptNew = 0
    var resumed = 0
    var rng = SplitMix64(seed: 12)
    for i in 0..<Self.kills {
      try old.write(to: URL(fileURLWithPath: victim))
      let slice = duration * 1.2 / Double(Self.kills)
      let delay = slice * (Double(i) + Double(rng.next() % 1000) / 1000)
      let process = Process()
      process.executableURL = mapcExecutable
      process.arguments = Self.arguments(victim)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(useconds_t(delay * 1_000_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()

      let after = try Data(contentsOf: URL(fileURLWithPath: victim))
      if after == old {
        keptOld += 1
      } else if after == reference {
        keptNew += 1
      } else {
        Issue.record(
          "kill \(i + 1) after \(delay) s left a store that is neither the original nor the result (\(after.count) bytes)"
        )
      }
      let rerun = runMapc(Array(Self.arguments(victim).dropLast()))
      #expect(rerun.exitCode == 0, "\(rerun.stderr)")
      if rerun.stderr.contains("resumed after") { resumed += 1 }
      #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == reference, "rerun after kill \(i + 1)")
      #expect(try fm.contentsOfDirectory(atPath: work.path).sorted() == ["original.json", "store.json"])
    }
    #expect(keptOld + keptNew == Self.kills)
    #expect(keptOld > 0, "no kill landed before the final rename; the chain took \(duration) s")
    print(
      "migrate kills: \(count) tasks, chain \(String(format: "%.2f", duration)) s; \(keptOld) kills kept the original, \(keptNew) the result; \(resumed) reruns resumed from intermediate stores"
    )
  }
}
