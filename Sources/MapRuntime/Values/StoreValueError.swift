/// A store value that cannot be read or written in its JSON form: an impossible date, bad
/// base64, an inexact decimal, an integer out of range, a non-finite number.
///
/// The message says what is wrong with the value; the store reader adds where it is
/// (file, line, column, object and property).
public struct StoreValueError: CodedError, Hashable {
  /// Stable identifiers of the rules, used as diagnostic ids.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    case invalidDate = "store-invalid-date"
    case dateOutOfRange = "store-date-out-of-range"
    case invalidBase64 = "store-invalid-base64"
    case invalidDecimal = "store-invalid-decimal"
    case decimalOutOfRange = "store-decimal-out-of-range"
    case notAnInteger = "store-not-an-integer"
    case integerOutOfRange = "store-integer-out-of-range"
    case nonFiniteNumber = "store-non-finite-number"
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(message) [\(code.rawValue)]" }
  public var diagnosticMessage: String { message }
}
