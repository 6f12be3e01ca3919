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
    lines.append("mapc: phase \(phase): \(Int(ms.rounded())) ms")
  }

  func report() {
    guard enabled, !lines.isEmpty else { return }
    let text = Array((lines.joined(separator: "\n") + "\n").utf8)
    text.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
  }
}
