import Foundation

/// Compiled regular expressions for `MATCHES` and model validation patterns, with NSPredicate's
/// semantics: ICU syntax, and the whole string must match.
///
/// Matching is bounded in time: a pattern that backtracks catastrophically (`(a+)+b` against
/// many `a`s) is stopped after `timeLimit` seconds, as ICU's own time limit would stop it.
/// All matches of one process together may take `budget` seconds (`--regex-budget`), so a
/// pattern that stays under the per-match limit cannot make a run of many objects last hours.
// unchecked: one process-wide cache; every mutable field is read and written under `lock`.
package final class RegexCache: @unchecked Sendable {
  package static let shared = RegexCache()
  /// Seconds one match may take.
  static let timeLimit = 0.25
  /// Seconds all matches of a run may take together, unless `--regex-budget` says otherwise.
  package static let defaultBudget = 60.0
  private let lock = NSLock()
  private var cache: [String: Result<NSRegularExpression, MigrationError>] = [:]
  private var _budget = RegexCache.defaultBudget
  private var spent = 0.0

  /// Seconds all matches may take together (`run-regex-budget` past it); setting it starts
  /// the count again.
  package var budget: Double {
    get { lock.withLock { _budget } }
    set {
      lock.withLock {
        _budget = newValue
        spent = 0
      }
    }
  }

  private func charge(_ seconds: Double) -> Bool {
    lock.withLock {
      spent += seconds
      return spent <= _budget
    }
  }

  private var remaining: Double { lock.withLock { _budget - spent } }

  /// Whether `s` matches `pattern` as a whole; an invalid pattern is `run-regex`, a match that
  /// takes longer than `timeLimit` is `run-regex-timeout`.
  func match(_ pattern: String, _ s: String) throws(MigrationError) -> Bool {
    let regex = try compiled(pattern).get()
    let start = Date()
    let deadline = Date(timeIntervalSinceNow: min(Self.timeLimit, max(0, remaining)))
    var found = false
    var timedOut = false
    var failed = false
    let range = NSRange(s.startIndex..<s.endIndex, in: s)
    regex.enumerateMatches(in: s, options: [.reportProgress, .reportCompletion], range: range) { result, flags, stop in
      if result != nil {
        found = true
        stop.pointee = true
      } else if flags.contains(.internalError) {
        // ICU gave up (its backtracking stack is full): not "no match".
        failed = true
        stop.pointee = true
      } else if Date() > deadline {
        timedOut = true
        stop.pointee = true
      }
    }
    if failed && !found {
      throw MigrationError(
        "run-regex-failed",
        "the regular expression engine could not decide whether a string of \(s.utf16.count) characters matches the pattern \"\(pattern)\": it ran out of backtracking memory"
      )
    }
    if !charge(Date().timeIntervalSince(start)) {
      throw MigrationError(
        "run-regex-budget",
        "regular expressions have taken more than the run's budget of \(budget) s (--regex-budget); the last pattern was \"\(pattern)\", on a string of \(s.utf16.count) characters"
      )
    }
    if timedOut && !found {
      throw MigrationError(
        "run-regex-timeout",
        "the pattern \"\(pattern)\" was stopped after \(Self.timeLimit) s: it backtracks too much on a string of \(s.utf16.count) characters"
      )
    }
    return found
  }

  private func compiled(_ pattern: String) -> Result<NSRegularExpression, MigrationError> {
    lock.lock()
    defer { lock.unlock() }
    if let r = cache[pattern] { return r }
    let r: Result<NSRegularExpression, MigrationError>
    do {
      r = .success(try NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: []))
    } catch {
      r = .failure(MigrationError("run-regex", "the pattern \"\(pattern)\" is not a valid ICU regular expression"))
    }
    cache[pattern] = r
    return r
  }
}
