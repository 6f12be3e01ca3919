import Foundation
import MapRuntime

/// Lints many mapping files at once, in parallel, and applies a baseline to the whole run.
public enum LintRunner {
  /// Lints `files` (at most `jobs` at a time; 0 means one per processor) and returns one report
  /// with findings sorted by file, line and column.
  public static func run(files: [String], baseline: LintBaseline? = nil, jobs: Int = 0) -> LintReport {
    let results = ResultSlots(count: files.count)
    let width = jobs > 0 ? jobs : ProcessInfo.processInfo.activeProcessorCount
    let next = Counter()
    DispatchQueue.concurrentPerform(iterations: min(max(width, 1), max(files.count, 1))) { _ in
      while let i = next.take(below: files.count) {
        results.set(i, Linter.lintReadingModels(path: files[i]))
      }
    }
    var findings = results.all.flatMap(\.findings)
    if let baseline {
      let unused = baseline.apply(to: &findings, lintedFiles: files)
      let lines = SourceLines()
      findings += unused.map { d in
        LintFinding(diagnostic: d, sourceLine: d.location.flatMap { lines.line($0.line, of: $0.file) })
      }
    }
    var report = LintReport(files: files.sorted(), findings: Linter.sorted(findings))
    report.models = Array(Set(results.all.flatMap(\.models))).sorted()
    return report
  }

  private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [(findings: [LintFinding], models: [String])]
    init(count: Int) { slots = Array(repeating: ([], []), count: count) }
    func set(_ i: Int, _ value: (findings: [LintFinding], models: [String])) {
      lock.lock()
      slots[i] = value
      lock.unlock()
    }
    var all: [(findings: [LintFinding], models: [String])] {
      lock.lock()
      defer { lock.unlock() }
      return slots
    }
  }

  private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take(below limit: Int) -> Int? {
      lock.lock()
      defer { lock.unlock() }
      guard value < limit else { return nil }
      value += 1
      return value - 1
    }
  }
}
