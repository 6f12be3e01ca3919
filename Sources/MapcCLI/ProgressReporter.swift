import Foundation

/// A one-line progress display on standard error, shown only when it is a terminal.
final class ProgressBar: @unchecked Sendable {
  private let lock = NSLock()
  private var lastLength = 0

  static func forStandardError() -> ProgressBar? {
    isatty(2) != 0 ? ProgressBar() : nil
  }

  func update(_ label: String, _ done: Int, _ total: Int) {
    lock.lock()
    defer { lock.unlock() }
    let width = 30
    let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let line = "mapc: \(label) [\(bar)] \(done)/\(total) objects"
    let pad = max(0, lastLength - line.count)
    FileHandle.standardError.write(Data(("\r" + line + String(repeating: " ", count: pad)).utf8))
    lastLength = line.count
  }

  func finish() {
    lock.lock()
    defer { lock.unlock() }
    guard lastLength > 0 else { return }
    FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: lastLength) + "\r").utf8))
    lastLength = 0
  }
}
