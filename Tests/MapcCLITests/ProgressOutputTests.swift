import Foundation
import MapTestSupport
import Testing

/// Progress of `mapc run` as a CI log shows it (standard error a pipe, `--progress plain`) and as a
/// terminal shows it (a pseudo-terminal: one line redrawn): every phase in order, counts that
/// never go back, the same total all through a phase, and the summary at the end.
@Suite(
  .enabled(if: SharedPaths.bench != nil, Comment(rawValue: SharedPaths.absentMessage)),
  .enabled(if: python3 != nil, "python3 is needed to generate the store and run the pseudo-terminal"),
  .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ProgressOutputTests {
  static let phases = [
    "read store", "pass 1/3 (create instances)", "pass 2/3 (relationships)", "pass 3/3 (validate)", "write store",
  ]

  static func store(in work: URL) throws -> (plan: String, store: String) {
    let plan = try compileDiaryPlan(in: work)
    let store = work.appendingPathComponent("store.json").path
    let gen = runTool(
      python3!, [SharedPaths.bench!.appendingPathComponent("gen_diary_store.py").path, "30000", store, "--seed", "5"])
    try #require(gen.exitCode == 0, "\(gen.stderr)")
    return (plan, store)
  }

  /// For each line `mapc: PHASE: …`, the phase and the `done/total` pair when there is one.
  static func parse(_ lines: [Substring]) -> [(phase: String, done: Int?, total: Int?)] {
    lines.compactMap { line in
      guard let phase = phases.first(where: { line.hasPrefix("mapc: \($0)") }) else { return nil }
      let rest = line.dropFirst("mapc: \(phase)".count)
      guard let slash = rest.firstIndex(of: "/"), rest.hasSuffix(")") || rest.contains("%") else {
        return (phase, nil, nil)
      }
      let before = rest[..<slash].reversed().prefix { $0.isNumber || $0 == "," || $0 == "." }
      let after = rest[rest.index(after: slash)...].prefix { $0.isNumber || $0 == "," || $0 == "." }
      let number = { (s: String) in Int(s.filter(\.isNumber)) }
      return (phase, number(String(before.reversed())), number(String(after)))
    }
  }

  static func check(_ events: [(phase: String, done: Int?, total: Int?)]) {
    // Phases appear in order, each once as a block.
    var order: [String] = []
    for e in events where order.last != e.phase { order.append(e.phase) }
    #expect(order == phases)
    for phase in phases {
      let counts = events.filter { $0.phase == phase }.compactMap { e in e.done.map { ($0, e.total) } }
      #expect(zip(counts, counts.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "\(phase) went back: \(counts)")
      #expect(Set(counts.map(\.1)).count <= 1, "\(phase) changed its total: \(counts)")
    }
  }

  @Test func plainLinesWhenStandardErrorIsAPipe() throws {
    let work = try FileManagerTemp.folder("progress-pipe")
    defer { FileManagerTemp.remove(work.path) }
    let (plan, store) = try Self.store(in: work)
    let process = Process()
    process.executableURL = mapcExecutable
    process.arguments = [
      "run", plan, "--store", store, "--output", work.appendingPathComponent("out.json").path, "--progress", "plain",
    ]
    process.environment = ProcessInfo.processInfo.environment.merging(["MAPC_PROGRESS_INTERVAL": "0.01"]) { $1 }
    let pipe = Pipe()
    process.standardError = pipe
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let text = String(decoding: data, as: UTF8.self)
    #expect(!text.contains("\r"))
    let lines = text.split(separator: "\n")
    for phase in Self.phases {
      #expect(lines.filter { $0.hasPrefix("mapc: \(phase): done, ") }.count == 1, "\(text)")
    }
    // With a short interval, lines in between show counts against the phase's total.
    #expect(lines.contains { $0.contains("%)") }, "\(text)")
    Self.check(Self.parse(lines))
    #expect(lines.last?.hasPrefix("mapc: migrated 30001 objects in ") == true, "\(text)")
  }

  @Test func oneRedrawnLineOnATerminal() throws {
    let work = try FileManagerTemp.folder("progress-pty")
    defer { FileManagerTemp.remove(work.path) }
    let (plan, store) = try Self.store(in: work)
    let result = runMapcOnATerminal([
      "run", plan, "--store", store, "--output", work.appendingPathComponent("out.json").path,
    ])
    #expect(result.exitCode == 0, "\(result.stderr)")
    let text = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    #expect(text.contains("\r"), "the line was never redrawn")
    #expect(text.contains("[#"))
    let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" }
    for phase in Self.phases { #expect(lines.contains { $0.hasPrefix("mapc: \(phase): done, ") }, "\(text)") }
    Self.check(Self.parse(lines))
    #expect(lines.last?.hasPrefix("mapc: migrated 30001 objects in ") == true)
  }
}
