import Foundation
import MapTestSupport
import Testing

/// `MAPC_PHASES=1 mapc run …` prints each phase's wall time and the CPU time the process spent in
/// it. The oracle is the kernel's count of the whole process, read by python3's
/// `resource.getrusage(RUSAGE_CHILDREN)` in a wrapper: the phases' user and system times add up
/// to no more than the process's, and to most of it (a run of a plan over 60,000 objects).
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct PhaseReportTests {
  static let script = """
    import resource, subprocess, sys
    r = subprocess.run(sys.argv[2:], capture_output=True, text=True)
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    open(sys.argv[1], "w").write("%d %.3f %.3f" % (r.returncode, u.ru_utime * 1000, u.ru_stime * 1000))
    sys.stderr.write(r.stderr)
    """

  @Test func phasesAddUpToTheProcessCPUTime() throws {
    let n = 60_000
    let pets = (0..<n).map { "{\"id\":\"x\($0)\",\"name\":\"Pet number \($0)\"}" }.joined(separator: ",")
    // A mapping's name is printed escaped (a line separator and a C1 control character in it).
    let mapping = Hardening.mapping().replacingOccurrences(
      of: "name=\"PetToPet\"", with: "name=\"Pet&#x2028;To&#x85;Pet\"")
    let dir = try Hardening.folder("phases", mapping: mapping, store: "{\"objects\":{\"Pet\":[\(pets)]}}")
    defer { FileManagerTemp.remove(dir.path) }
    let compiled = runMapc(["compile", "m.xml", "-o", "m.cdm", "--quiet"], in: dir)
    try #require(compiled.exitCode == 0, "\(compiled.stderr)")
    let mapc = try #require(mapcExecutable)
    let report = dir.appendingPathComponent("rusage.txt")
    let run = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["MAPC_PHASES=1", "python3", "-c", Self.script, report.path, mapc.path]
        + ["run", "m.cdm", "--store", "s.json", "--output", "out.json", "--quiet"], in: dir)
    let fields = try String(contentsOf: report, encoding: .utf8).split(separator: " ").compactMap { Double($0) }
    try #require(fields.count == 3 && fields[0] == 0, "\(run.stderr)")
    let (user, system) = (fields[1], fields[2])

    // `mapc: phase NAME: 12 ms (user 10 ms, system 2 ms), resident 40 MB`; each line measures
    // from the line before, a pass's mappings (indented) before the pass's own line.
    let pattern = /^mapc: phase (.+): (\d+) ms \(user (\d+) ms, system (\d+) ms\), resident (\d+) MB$/
    var phases: [(name: String, wall: Double, user: Double, system: Double)] = []
    for line in run.stderr.split(separator: "\n") where line.hasPrefix("mapc: phase ") {
      let m = try #require(try pattern.wholeMatch(in: String(line)), "\(line)")
      phases.append((String(m.1), Double(m.2)!, Double(m.3)!, Double(m.4)!))
    }
    #expect(
      phases.map(\.name).filter { !$0.hasPrefix(" ") } == [
        "read store", "pass 1: create instances", "pass 2: relationships", "validate", "write store",
      ])
    #expect(phases.filter { $0.name == "  Pet\\u{2028}To\\u{85}Pet" }.count == 2, "\(phases)")  // in each pass
    let phaseUser = phases.map(\.user).reduce(0, +)
    let phaseSystem = phases.map(\.system).reduce(0, +)
    // Each phase's figure is rounded to the millisecond: half a millisecond each way.
    let slack = Double(phases.count)
    #expect(phaseUser <= user + slack, "phases \(phaseUser) ms of user time, the process \(user) ms")
    #expect(phaseSystem <= system + slack, "phases \(phaseSystem) ms of system time, the process \(system) ms")
    // The rest is the process starting, reading the plan and models, and ending (about 12% in a
    // debug build).
    #expect(phaseUser + phaseSystem >= 0.6 * (user + system), "phases \(phases), the process \(user) + \(system) ms")
    // A phase's CPU time on this machine's cores is at most its wall time on each of them.
    let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
    for p in phases {
      #expect(p.user + p.system <= p.wall * cores + 2, "\(p)")
    }
  }
}
