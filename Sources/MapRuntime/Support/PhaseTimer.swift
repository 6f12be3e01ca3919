#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wall-clock time per phase of a run, with the process's user and system CPU time in it (all
/// threads), printed on standard error when enabled: `mapc: phase NAME: 516 ms (user 402 ms,
/// system 118 ms), resident 108 MB`. A name that comes from the input (an entity mapping's) is
/// escaped by the caller (`TerminalText`).
final class PhaseTimer: @unchecked Sendable {
  let enabled: Bool
  private let clock = ContinuousClock()
  private var last: ContinuousClock.Instant
  private var lastCPU: (user: Double, system: Double)
  private var lines: [String] = []

  init(enabled: Bool) {
    self.enabled = enabled
    self.last = clock.now
    self.lastCPU = enabled ? PhaseTimer.cpuMilliseconds() : (0, 0)
  }

  func mark(_ phase: String) {
    guard enabled else { return }
    let now = clock.now
    let d = now - last
    last = now
    let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    let cpu = PhaseTimer.cpuMilliseconds()
    let (user, system) = (cpu.user - lastCPU.user, cpu.system - lastCPU.system)
    lastCPU = cpu
    lines.append(
      "mapc: phase \(phase): \(Int(ms.rounded())) ms (user \(Int(user.rounded())) ms, system \(Int(system.rounded())) ms), "
        + "resident \(PhaseTimer.residentMegabytes()) MB")
  }

  /// The CPU time the process has used so far, all threads (`getrusage`).
  static func cpuMilliseconds() -> (user: Double, system: Double) {
    var usage = rusage()
    #if canImport(Glibc)
      let who = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
      let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return (0, 0) }
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return (ms(usage.ru_utime), ms(usage.ru_stime))
  }

  /// Resident set size now: the second number of /proc/self/statm, in pages (0 where there
  /// is none).
  static func residentMegabytes() -> Int {
    guard let f = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(f) }
    var line = [UInt8](repeating: 0, count: 128)
    guard
      line.withUnsafeMutableBufferPointer({ b in
        b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { fgets($0, Int32(b.count), f) } != nil
      })
    else { return 0 }
    let fields = line.prefix { $0 != 0 }.split(separator: UInt8(ascii: " "))
    guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  }

  func report() {
    guard enabled, !lines.isEmpty else { return }
    let text = Array((lines.joined(separator: "\n") + "\n").utf8)
    text.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
  }
}
