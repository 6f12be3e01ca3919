/// Why a plan file was refused. `code` is stable (scripts and tests match on it); `message`
/// says what is wrong in words, without the file name; `description` prefixes the file name
/// when it is known.
public struct PlanFormatError: CodedError, Hashable {
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// The file does not start with the plan magic bytes.
    case badMagic = "plan-bad-magic"
    /// The format version (or a format flag) is one this mapc does not read.
    case unsupportedVersion = "plan-unsupported-version"
    /// The file ends before its header or body does.
    case truncated = "plan-truncated"
    /// The body's SHA-256 is not the one the header records.
    case checksumMismatch = "plan-checksum-mismatch"
    /// The checksum holds but the body does not follow the format (or bytes follow the body).
    case malformed = "plan-malformed"
    /// The file could not be read at all.
    case unreadable = "plan-unreadable"
  }

  public var code: Code
  public var message: String
  /// Byte offset in the file where the problem was found, when there is one.
  public var offset: Int?
  /// The plan file, when the plan was read from one.
  public var path: String?

  public init(code: Code, message: String, offset: Int? = nil, path: String? = nil) {
    self.code = code
    self.message = message
    self.offset = offset
    self.path = path
  }

  /// `path: message`, or the message alone.
  public var description: String {
    if let path { return "\(path): \(message)" }
    return message
  }

  /// The diagnostic line every command prints for it: `PATH: error: MESSAGE [id]`
  /// (`Specs/diagnostics.md` §1).
  public var diagnosticLine: String {
    DiagnosticLine.render(.error, message, id: code.rawValue, place: path)
  }

  public var diagnosticMessage: String { message }
}
