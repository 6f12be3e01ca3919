/// The one shape of mapc's typed errors: a code from a closed set, whose raw value is the
/// stable diagnostic id (`Specs/diagnostics.md` §3), and a message in words. Store I/O, store
/// values, plans and JSON text report their errors this way, and every command turns one into
/// the line it prints in one way: `MigrationError(_:file:at:)`, `MigrationFailure(_:file:)`.
public protocol CodedError: Error, Sendable, CustomStringConvertible {
  associatedtype Code: RawRepresentable, CaseIterable, Sendable where Code.RawValue == String
  var code: Code { get }
  /// What is wrong, in words, as printed after the place (without the id).
  var diagnosticMessage: String { get }
}

extension CodedError {
  /// The stable diagnostic id.
  public var diagnosticID: String { code.rawValue }
}

extension MigrationError {
  /// The diagnostic of a typed error, about `file` (at `location` when there is one).
  public init(_ error: some CodedError, file: String?, at location: SourceLocation? = nil) {
    self.init(error.diagnosticID, error.diagnosticMessage, at: location, file: file)
  }
}

extension MigrationFailure {
  /// A failure made of one typed error about `file`.
  public init(_ error: some CodedError, file: String?) {
    self.init([MigrationError(error, file: file)])
  }
}
