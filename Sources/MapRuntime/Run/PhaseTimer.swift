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

  /// Resident set size now, from /proc (0 where there is none).
  static func residentMegabytes() -> Int {
    guard let f = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(f) }
    var size = 0
    var resident = 0
    guard withUnsafeMutablePointer(to: &size, { s in withUnsafeMutablePointer(to: &resident) { r in
      vfscanfHelper(f, s, r)
    } }) else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  }

  func report() {
    guard enabled, !lines.isEmpty else { return }
    let text = Array((lines.joined(separator: "\n") + "\n").utf8)
    text.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
  }
}

/// Reads the first two numbers of /proc/self/statm.
private func vfscanfHelper(_ f: UnsafeMutablePointer<FILE>, _ a: UnsafeMutablePointer<Int>, _ b: UnsafeMutablePointer<Int>) -> Bool {
  var buffer = [CChar](repeating: 0, count: 128)
  guard fgets(&buffer, 128, f) != nil else { return false }
  let parts = String(cString: buffer).split(separator: " ")
  guard parts.count >= 2, let x = Int(parts[0]), let y = Int(parts[1]) else { return false }
  a.pointee = x
  b.pointee = y
  return true
}
