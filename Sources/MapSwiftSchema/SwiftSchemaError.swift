import MapRuntime

/// The errors (and warnings) that stopped reading a schema, and the notes about how it was read
/// (which classes were left out), which say why a class was read at all. Each is a `Diagnostic`
/// (MapRuntime's one diagnostic value): the `swift-*` family of `Specs/diagnostics.md`, a
/// message, and the place in the Swift file (line and column 1-based, column in UTF-8 bytes),
/// or the file or folder alone for a finding about the files as a whole; notes have no id.
public struct SwiftSchemaError: Error, Sendable {
  public var diagnostics: [Diagnostic]
  public var notes: [Diagnostic]

  public init(_ diagnostics: [Diagnostic], notes: [Diagnostic] = []) {
    self.diagnostics = diagnostics.filter { $0.severity != .note }
    self.notes = notes + diagnostics.filter { $0.severity == .note }
  }
}
