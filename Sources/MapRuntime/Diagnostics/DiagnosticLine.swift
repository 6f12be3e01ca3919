/// The one rendering of a diagnostic line (`Specs/diagnostics.md` §1): every error, warning and
/// note any command prints goes through here.
///
/// `PATH:LINE:COLUMN: SEVERITY: MESSAGE [ID]`; without a position `PATH: SEVERITY: MESSAGE
/// [ID]`; without a file `mapc: SEVERITY: MESSAGE [ID]`. Notes have no id.
public enum DiagnosticLine {
  /// How bad: a note gives context, a warning never blocks, an error does. Ordered note <
  /// warning < error.
  public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    case note, warning, error

    private var rank: Int {
      switch self {
      case .note: 0
      case .warning: 1
      case .error: 2
      }
    }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
  }

  /// `place` is `file:line:column`, a file, or nil for `mapc`.
  /// Control characters of the message and place (a name from a model, a path) are escaped
  /// (`TerminalText`): a diagnostic is always one line.
  public static func render(_ severity: Severity, _ message: String, id: String?, place: String?) -> String {
    let prefix = TerminalText.escaped(place ?? "mapc")
    let message = TerminalText.escaped(message)
    guard let id else { return "\(prefix): \(severity.rawValue): \(message)" }
    return "\(prefix): \(severity.rawValue): \(message) [\(id)]"
  }

  /// The place of a diagnostic: its position when known, else its file.
  public static func place(_ location: SourceLocation?, file: String?) -> String? {
    location.map(\.description) ?? file
  }
}
