#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wall-clock time per phase of a run, printed on standard error when enabled.
final class PhaseTimer: @unchecked Sendable {
  let enabled: Bool
  private let clock = ContinuousClock()
  private var last: ContinuousClock.Instant
  private var lines: [String] = []

  init(enabled: Bool) {
    self.enabled = enabled
    self.last = clock.now
  }

  func mark(_ phase: String) {
    guard enabled else { return }
    let now = clock.now
    let d = now - last
    last = now
    let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    lines.append("mapc: phase \(phase): \(Int(ms.rounded())) ms, resident \(PhaseTimer.residentMegabytes()) MB")
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
