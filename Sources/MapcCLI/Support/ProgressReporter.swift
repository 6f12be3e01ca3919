import ArgumentParser
import Foundation
import MapRuntime

/// Progress of a long command (`run`, `migrate`, `store import/export/convert`, `test`) on
/// standard error, phase by phase: read (rows or bytes of the store), the three passes
/// (objects, against a total that stays the same through the pass), write (objects, then the
/// bytes of the file written), a fixture run's cases.
///
/// - `bar` (the default on a terminal): one line redrawn in place, with a bar, counts, rate and
///   the time left, at most `redrawInterval` apart.
/// - `plain` (asked for with `--progress plain`, as in CI logs): one line every `plainInterval`
///   seconds while a phase runs, and one when it ends.
/// - `none` (the default when standard error is not a terminal, and `--quiet`): nothing.
///
/// Callers report counts as often as they like (every few thousand rows or objects): an update
/// takes a lock, stores the count and draws only when the last drawing is old enough.
package final class ProgressReporter: @unchecked Sendable {
  enum Mode: String, ExpressibleByArgument, CaseIterable {
    case auto, bar, plain, none
  }

  /// Seconds between `plain` lines within a phase (`MAPC_PROGRESS_INTERVAL` overrides it).
  static let plainInterval = ProcessInfo.processInfo.environment["MAPC_PROGRESS_INTERVAL"].flatMap(Double.init) ?? 2.0
  /// Seconds between redraws of the bar.
  static let redrawInterval = 0.1

  private let lock = NSLock()
  private let mode: Mode
  private let write: (String) -> Void
  /// Put before every phase's label (`step 2/4 V2→V3: `), while a `mapc migrate` step runs.
  private var prefix = ""
  private var phase: String?
  private var unit = ""
  private var phaseStart = Date()
  private var lastPrint = Date.distantPast
  private var done = 0
  private var total: Int?
  private var lastLength = 0

  /// The reporter for `mode`: `auto` is a bar on a terminal and nothing otherwise. Nil when
  /// there is nothing to show (`quiet`, `none`, or `auto` off a terminal).
  static func make(_ mode: Mode, quiet: Bool = false, isTerminal: Bool = Terminal.standardErrorIsTerminal)
    -> ProgressReporter?
  {
    if quiet { return nil }
    switch mode {
    case .none: return nil
    case .auto: return isTerminal ? ProgressReporter(mode: .bar) : nil
    case .bar, .plain: return ProgressReporter(mode: mode)
    }
  }

  init(mode: Mode, write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
    self.mode = mode == .auto ? (Terminal.standardErrorIsTerminal ? .bar : .none) : mode
    self.write = write
  }

  /// The label of a pass, as progress lines show it.
  static func label(_ pass: MigrationManager.Pass) -> String {
    switch pass {
    case .createInstances: "pass 1/3 (create instances)"
    case .createRelationships: "pass 2/3 (relationships)"
    case .validate: "pass 3/3 (validate)"
    }
  }

  func pass(_ pass: MigrationManager.Pass, _ done: Int, _ total: Int) {
    update(Self.label(pass), "objects", done, total)
  }

  func io(_ phase: MigrationRun.IOPhase, _ done: Int, _ total: Int?) {
    switch phase {
    case .read: update("read store", "bytes", done, total)
    case .readRows: update("read store", "rows", done, total)
    case .writeObjects: update("write store", "objects", done, total)
    case .write: update("write store", "bytes", done, total)
    case .checkWriteObjects: update("check write (dry run)", "objects", done, total)
    case .places: update("places (first pass)", "bytes", done, total)
    case .handOn: update("hand on (in memory)", "objects", done, total)
    }
  }

  /// The callbacks of a run (`MigrationRun.Options`, `ChainRun.Options`) that report here.
  var passCallback: @Sendable (MigrationManager.Pass, Int, Int) -> Void { { [self] in pass($0, $1, $2) } }
  package var ioCallback: @Sendable (MigrationRun.IOPhase, Int, Int?) -> Void { { [self] in io($0, $1, $2) } }

  /// Ends the running phase and puts `prefix` before the labels of the phases that follow.
  func setPrefix(_ prefix: String) {
    lock.lock()
    defer { lock.unlock() }
    endPhase(Date())
    phase = nil
    self.prefix = prefix
  }

  /// Writes `text` with `print` (standard output, say) without mixing it into the bar: the
  /// bar is cleared first and drawn again after.
  func interject(_ print: () -> Void) {
    lock.lock()
    defer { lock.unlock() }
    guard mode == .bar, lastLength > 0 else { return print() }
    emit("\r" + String(repeating: " ", count: lastLength) + "\r")
    lastLength = 0
    print()
    redraw(Date())
  }

  /// `print` through `reporter`'s `interject`, or straight away when there is no reporter.
  static func interject(_ reporter: ProgressReporter?, _ print: () -> Void) {
    if let reporter { reporter.interject(print) } else { print() }
  }

  func update(_ label: String, _ unit: String, _ done: Int, _ total: Int?) {
    guard mode != .none else { return }
    lock.lock()
    defer { lock.unlock() }
    let now = Date()
    let label = prefix + label
    if label != phase {
      endPhase(now)
      phase = label
      self.unit = unit
      phaseStart = now
      self.done = done
      self.total = total
      lastPrint = now
      if mode == .bar { redraw(now) }
      return
    }
    if unit != self.unit {
      // The same phase, now counted in another unit (a SQLite store's rows after its bytes, the
      // bytes of the file written after its objects): shown from the next update on.
      self.unit = unit
      self.done = done
      self.total = total
      return
    }
    self.done = max(self.done, done)
    if let total { self.total = total }
    switch mode {
    case .bar:
      if now.timeIntervalSince(lastPrint) >= Self.redrawInterval {
        redraw(now)
        lastPrint = now
      }
    case .plain:
      if now.timeIntervalSince(lastPrint) >= Self.plainInterval {
        emit("mapc: \(label): \(status(now))\n")
        lastPrint = now
      }
    default: break
    }
  }

  /// Ends the last phase; call once the run is over. After a failure (`completed` false) the
  /// phase that was running is not reported done: a bar is cleared, and the error says the rest.
  package func finish(completed: Bool = true) {
    lock.lock()
    defer { lock.unlock() }
    if completed {
      endPhase(Date())
    } else if mode == .bar && lastLength > 0 {
      emit("\r" + String(repeating: " ", count: lastLength) + "\r")
      lastLength = 0
    }
    phase = nil
  }

  private func endPhase(_ now: Date) {
    guard let phase, mode != .none else { return }
    let seconds = now.timeIntervalSince(phaseStart)
    let line = "mapc: \(phase): done, \(Self.count(done, unit)) in \(String(format: "%.2f", seconds)) s"
    if mode == .bar {
      let pad = max(0, lastLength - line.count)
      emit("\r" + line + String(repeating: " ", count: pad) + "\n")
      lastLength = 0
    } else {
      emit(line + "\n")
    }
  }

  private func redraw(_ now: Date) {
    let width = 24
    var line = "mapc: \(phase ?? "")"
    if let total, total > 0 {
      let filled = min(width - 1, Int(min(1, Double(done) / Double(total)) * Double(width)))
      line += " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }
    line += " " + status(now)
    let pad = max(0, lastLength - line.count)
    emit("\r" + line + String(repeating: " ", count: pad))
    lastLength = line.count
  }

  /// `done/total unit (p%), rate/s, about N s left`.
  private func status(_ now: Date) -> String {
    let elapsed = now.timeIntervalSince(phaseStart)
    var s: String
    if let total, total > 0 {
      // 100% only in the line that ends the phase: while it runs, work remains.
      s = "\(Self.count(done, unit, total: total)) (\(min(99, Int(Double(done) * 100 / Double(total))))%)"
    } else {
      s = Self.count(done, unit)
    }
    if elapsed > 0.2 && done > 0 {
      let rate = Double(done) / elapsed
      s += ", \(Self.count(Int(rate), unit))/s"
      // Time left once there is something to go by (1% of the work), not from the first rows.
      if let total, total > done, rate > 0, done * 100 >= total {
        s += ", about \(Int((Double(total - done) / rate).rounded(.up))) s left"
      }
    }
    return s
  }

  /// `1,234 objects`, `12.3 MB`, or `1,234/5,678 objects`.
  static func count(_ n: Int, _ unit: String, total: Int? = nil) -> String {
    if unit == "bytes" {
      let mb = { (x: Int) in String(format: "%.1f", Double(x) / 1_000_000) }
      return total.map { "\(mb(n))/\(mb($0)) MB" } ?? "\(mb(n)) MB"
    }
    let grouped = { (x: Int) in x.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }
    return (total.map { "\(grouped(n))/\(grouped($0))" } ?? grouped(n)) + " " + unit
  }

  private func emit(_ s: String) { write(s) }
}

/// `--progress MODE`, the same on every long command (`run`, `migrate`, `store
/// import/export/convert`, `test`).
struct ProgressOption: ParsableArguments {
  @Option(
    help:
      "Progress on standard error: bar (one line redrawn with counts, rate and time left), plain (a line per phase and every 2 s, as in CI logs), none, or auto (the default: bar on a terminal, none otherwise)."
  )
  var progress: ProgressReporter.Mode = .auto

  /// The reporter to use, nil for none (`--quiet` silences it whatever `--progress` says).
  func reporter(quiet: Bool) -> ProgressReporter? { ProgressReporter.make(progress, quiet: quiet) }
}
