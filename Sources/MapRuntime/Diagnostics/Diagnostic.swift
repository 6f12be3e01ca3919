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
    _ severity: Severity, id: String, _ message: String, at location: SourceLocation? = nil,
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

  /// Sorted by file, line and column, else in their present order, so output is stable.
  public func sortedByLocation() -> [Diagnostic] {
    sortedByPlace { DiagnosticPlace(file: $0.location?.file ?? $0.file, $0.location) }
  }
}

/// Where a diagnostic stands in output, which is sorted by file, then line, then column (a
/// missing file, line or column sorts first).
package struct DiagnosticPlace: Comparable {
  let file: String
  let line: Int
  let column: Int

  package init(file: String?, _ location: SourceLocation?) {
    self.file = file ?? ""
    self.line = location?.line ?? 0
    self.column = location?.column ?? 0
  }

  package static func < (a: DiagnosticPlace, b: DiagnosticPlace) -> Bool {
    (a.file, a.line, a.column) < (b.file, b.line, b.column)
  }
}

extension Array {
  /// The one order of diagnostics and lint findings: by `place`, then by `tie` where given,
  /// then in their present order.
  package func sortedByPlace(
    _ place: (Element) -> DiagnosticPlace, tie: (Element, Element) -> Bool = { _, _ in false }
  ) -> [Element] {
    enumerated().sorted { a, b in
      let pa = place(a.element)
      let pb = place(b.element)
      if pa != pb { return pa < pb }
      if tie(a.element, b.element) { return true }
      if tie(b.element, a.element) { return false }
      return a.offset < b.offset
    }.map(\.element)
  }
}
