import Foundation
import MapRuntime
import MapSyntax

extension LintReport {
  /// The report with every file path relative to `base` (`mapc lint --base-path`), so that
  /// SARIF and GitHub annotations name files as the repository does, whatever folder mapc ran
  /// in and however the paths were given. A path outside `base` becomes absolute.
  public func relativized(to base: String) -> LintReport {
    let root = PathText.absolute(base)
    func convert(_ path: String) -> String {
      let full = PathText.absolute(path)
      guard full == root || full.hasPrefix(root == "/" ? "/" : root + "/") else { return full }
      return PathText.relative(full, from: root)
    }
    func convert(_ location: SourceLocation?) -> SourceLocation? {
      location.map { SourceLocation(file: convert($0.file), line: $0.line, column: $0.column) }
    }
    var copy = self
    copy.files = files.map(convert)
    copy.findings = findings.map { f in
      var d = f.diagnostic
      d.location = convert(d.location)
      d.file = d.file.map(convert)
      d.notes = d.notes.map { Diagnostic.Note($0.message, at: convert($0.location)) }
      var changed = LintFinding(diagnostic: d, status: f.status, sourceLine: f.sourceLine)
      changed.fingerprint = f.fingerprint
      return changed
    }
    return copy
  }

}
