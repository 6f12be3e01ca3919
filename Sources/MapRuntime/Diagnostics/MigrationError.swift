/// One problem found while running a plan: what, where in the mapping file, which objects.
///
/// Rendered like compiler diagnostics: `mapping.xml:23:5: error: message [code]`.
public struct MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Stable id, e.g. `run-validation-mandatory`, `run-type-mismatch` (Specs/diagnostics.md).
  public var code: String
  public var message: String
  public var location: SourceLocation?
  /// The file the error is about when there is no line (a store or a plan).
  public var file: String?

  public init(_ code: String, _ message: String, at location: SourceLocation? = nil, file: String? = nil) {
    self.code = code
    self.message = message
    self.location = location
    self.file = file ?? location?.file
  }

  public var description: String {
    DiagnosticLine.render(.error, message, id: code, place: DiagnosticLine.place(location, file: file))
  }
}

/// A migration that did not complete: every error collected (up to the run's limit).
/// Nothing was written when this is thrown.
public struct MigrationFailure: Error, Sendable, CustomStringConvertible {
  public var errors: [MigrationError]
  /// True when more errors were found than were kept.
  public var truncated: Bool

  public init(_ errors: [MigrationError], truncated: Bool = false) {
    self.errors = errors
    self.truncated = truncated
  }

  /// The errors, one per line (the caller says whether more were left unreported).
  public var description: String {
    errors.map(\.description).joined(separator: "\n")
  }
}
