import Crypto
import Foundation
import MapRuntime
import MapSyntax

/// One finding of `mapc lint`: a diagnostic (compiler or lint rule), whether it counts, the
/// text of the line it points at, and a fingerprint that survives edits elsewhere in the file.
public struct LintFinding: Sendable, Hashable {
  public enum Status: Sendable, Hashable {
    /// Reported, and counts for the exit status.
    case active
    /// Silenced by a `<!-- mapc-lint-disable RULE: reason -->` comment.
    case suppressed(reason: String)
    /// Accepted by the baseline file.
    case baselined(reason: String)
  }

  public var diagnostic: Diagnostic
  public var status: Status
  /// The line the finding points at, as written (no line end); nil for file-level findings.
  public var sourceLine: String?
  /// Hex SHA-256 (first 32 digits) of the rule id, the message and the pointed-at line with
  /// its blanks collapsed: line numbers play no part.
  public var fingerprint: String

  public init(diagnostic: Diagnostic, status: Status = .active, sourceLine: String?) {
    self.diagnostic = diagnostic
    self.status = status
    self.sourceLine = sourceLine
    self.fingerprint = Self.fingerprint(id: diagnostic.id, message: diagnostic.message, line: sourceLine)
  }

  public var ruleId: String { diagnostic.id }
  public var severity: Diagnostic.Severity { diagnostic.severity }
  public var file: String? { diagnostic.location?.file ?? diagnostic.file }
  public var isActive: Bool { status == .active }

  /// Compiler errors make `mapc compile` fail, so neither a comment nor a baseline hides them.
  public var isCompileError: Bool { diagnostic.severity == .error && !diagnostic.id.hasPrefix("lint-") }

  public static func fingerprint(id: String, message: String, line: String?) -> String {
    let normalized = (line ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    let digest = SHA256.hash(data: Data("\(id)\u{0}\(message)\u{0}\(normalized)".utf8))
    return digest.map { String(format: "%02x", $0) }.joined().prefix(32).description
  }
}

/// Every finding of one `mapc lint` run, in a stable order (file, line, column).
public struct LintReport: Sendable {
  /// The mapping files linted, sorted.
  public var files: [String]
  public var findings: [LintFinding]
  /// The model files and folders the linted mappings name (inputs `--write-baseline` may not
  /// name).
  public var models: [String] = []
  /// The model bundles (`.xcdatamodeld`) whose migration chains were checked.
  public var bundles: [String] = []

  public init(files: [String], findings: [LintFinding]) {
    self.files = files
    self.findings = findings
  }

  public var active: [LintFinding] { findings.filter(\.isActive) }

  public func count(_ severity: Diagnostic.Severity) -> Int { active.filter { $0.severity == severity }.count }
  public var suppressedCount: Int { findings.filter { if case .suppressed = $0.status { true } else { false } }.count }
  public var baselinedCount: Int { findings.filter { if case .baselined = $0.status { true } else { false } }.count }

  /// True when the run must exit with 1: an active error, or with `strict` an active warning.
  public func fails(strict: Bool) -> Bool {
    active.contains { $0.severity == .error || (strict && $0.severity == .warning) }
  }

  /// `3 files: 1 error, 2 warnings, 0 notes (1 suppressed, 2 baselined)`.
  public var summary: String {
    func n(_ k: Int, _ word: String) -> String { "\(k) \(word)\(k == 1 ? "" : "s")" }
    // A bundle's chain is linted too: "1 model bundle linted", "2 files and 1 model bundle linted".
    var linted = [n(files.count, "file")]
    if !bundles.isEmpty {
      linted = files.isEmpty ? [n(bundles.count, "model bundle")] : linted + [n(bundles.count, "model bundle")]
    }
    var text =
      "\(linted.joined(separator: " and ")) linted: \(n(count(.error), "error")), \(n(count(.warning), "warning")), \(n(count(.note), "note"))"
    var extra: [String] = []
    if suppressedCount > 0 { extra.append("\(suppressedCount) suppressed") }
    if baselinedCount > 0 { extra.append("\(baselinedCount) baselined") }
    if !extra.isEmpty { text += " (\(extra.joined(separator: ", ")))" }
    return text
  }
}

/// Lines of the files findings point into, read once each.
final class SourceLines {
  private var cache: [String: [String]] = [:]

  func line(_ number: Int, of file: String) -> String? {
    if cache[file] == nil {
      let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
      cache[file] = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
      }
    }
    guard let lines = cache[file], number >= 1, number <= lines.count else { return nil }
    return lines[number - 1]
  }
}
