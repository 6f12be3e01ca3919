import Foundation

/// Compiled regular expressions for `MATCHES` and model validation patterns, with NSPredicate's
/// semantics: ICU syntax, and the whole string must match.
///
/// Matching is bounded in time: a pattern that backtracks catastrophically (`(a+)+b` against
/// many `a`s) is stopped after `timeLimit` seconds, as ICU's own time limit would stop it.
final class RegexCache: @unchecked Sendable {
  static let shared = RegexCache()
  /// Seconds one match may take.
  static let timeLimit = 0.25
  private let lock = NSLock()
  private var cache: [String: Result<NSRegularExpression, MigrationError>] = [:]

  /// Whether `s` matches `pattern` as a whole; an invalid pattern is `run-regex`, a match that
  /// takes longer than `timeLimit` is `run-regex-timeout`.
  func match(_ pattern: String, _ s: String) throws(MigrationError) -> Bool {
    let regex = try compiled(pattern).get()
    let deadline = Date(timeIntervalSinceNow: Self.timeLimit)
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
