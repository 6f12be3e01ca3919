import MapRuntime

/// A finding while reading a SwiftData schema from Swift source: a stable id (the `swift-*`
/// family of `Specs/diagnostics.md`), a message, and the place in the Swift file.
public struct SwiftSchemaDiagnostic: Error, Sendable, Hashable {
  public enum Severity: Sendable, Hashable {
    case error
    case warning
    /// Context about how the schema was read (which classes were left out); notes have no id.
    case note
  }

  public var severity: Severity
  public var id: String
  public var message: String
  /// Where in a Swift file (line and column 1-based, column in UTF-8 bytes); nil for a finding
  /// about the files as a whole (no `@Model` class at all).
  public var location: MapRuntime.SourceLocation?
  /// The file or folder the finding is about when there is no location.
  public var file: String?

  public init(
    _ severity: Severity, _ id: String, _ message: String, at location: MapRuntime.SourceLocation? = nil,
    file: String? = nil
  ) {
    self.severity = severity
    self.id = id
    self.message = message
    self.location = location
    self.file = file
  }
}

/// The errors (and warnings) that stopped reading a schema, and the notes about how it was read
/// (which classes were left out), which say why a class was read at all.
public struct SwiftSchemaError: Error, Sendable {
  public var diagnostics: [SwiftSchemaDiagnostic]
  public var notes: [SwiftSchemaDiagnostic]

  public init(_ diagnostics: [SwiftSchemaDiagnostic], notes: [SwiftSchemaDiagnostic] = []) {
    self.diagnostics = diagnostics.filter { $0.severity != .note }
    self.notes = notes + diagnostics.filter { $0.severity == .note }
  }
}
