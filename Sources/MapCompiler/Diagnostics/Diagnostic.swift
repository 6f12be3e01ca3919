import MapRuntime

/// One problem found in a user's input: where, how bad, what, and a stable rule id.
///
/// Rendered as `path:line:column: error|warning|note: message [rule-id]` (`Specs/diagnostics.md`).
/// Rule ids are stable kebab-case names listed in `Specs/diagnostics.md`.
public struct Diagnostic: Sendable, Hashable, Codable, Error, CustomStringConvertible {
  public typealias Severity = DiagnosticLine.Severity

  /// Extra context attached to a diagnostic (for example "inverse declared here").
  public struct Note: Sendable, Hashable, Codable {
    public var message: String
    public var location: SourceLocation?
    public init(_ message: String, at location: SourceLocation? = nil) {
      self.message = message
      self.location = location
    }
  }

  public var severity: Severity
  public var id: String
  public var message: String
  public var location: SourceLocation?
  /// The file the diagnostic is about when there is no line and column.
  public var file: String?
  public var notes: [Note]

  public init(
    _ severity: Severity, id: String, _ message: String, at location: SourceLocation?,
    file: String? = nil, notes: [Note] = []
  ) {
    self.severity = severity
    self.id = id
    self.message = message
    self.location = location
    self.file = file ?? location?.file
    self.notes = notes
  }

  public static func error(
    _ id: String, _ message: String, at location: SourceLocation?, file: String? = nil,
    notes: [Note] = []
  ) -> Diagnostic {
    Diagnostic(.error, id: id, message, at: location, file: file, notes: notes)
  }

  public static func warning(
    _ id: String, _ message: String, at location: SourceLocation?, file: String? = nil,
    notes: [Note] = []
  ) -> Diagnostic {
    Diagnostic(.warning, id: id, message, at: location, file: file, notes: notes)
  }

  /// The one-line form: `path:line:column: severity: message [id]`, then one line per note
  /// (rendered by `DiagnosticLine`, like every diagnostic mapc prints).
  public var description: String {
    let place = DiagnosticLine.place(location, file: file)
    var text = DiagnosticLine.render(severity, message, id: id, place: place)
    for note in notes {
      text +=
        "\n" + DiagnosticLine.render(.note, note.message, id: nil, place: note.location.map(\.description) ?? place)
    }
    return text
  }
}

/// Thrown when input cannot be used; carries every diagnostic found (at least one error).
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
  public var diagnostics: [Diagnostic]
  public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension Array where Element == Diagnostic {
  public var hasErrors: Bool { contains { $0.severity == .error } }

  /// Sorted by file, line, column, then id, so output is stable.
  public func sortedByLocation() -> [Diagnostic] {
    enumerated().sorted { a, b in
      let la = a.element.location
      let lb = b.element.location
      let fa = la?.file ?? a.element.file ?? ""
      let fb = lb?.file ?? b.element.file ?? ""
      if fa != fb { return fa < fb }
      let pa = (la?.line ?? 0, la?.column ?? 0)
      let pb = (lb?.line ?? 0, lb?.column ?? 0)
      if pa != pb { return pa < pb }
      return a.offset < b.offset
    }.map(\.element)
  }
}
