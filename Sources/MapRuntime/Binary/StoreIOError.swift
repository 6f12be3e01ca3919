#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure to read or write a file of the store layer: which file, what was being done, and
/// what the operating system said.
///
/// `description` is the one-line message mapc prints, for example
/// `cannot read 'store.json': no such file or directory`.
public struct StoreIOError: CodedError, Hashable {
  /// Stable identifiers for the kinds of failure, used as diagnostic ids.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// The file (or a folder on its path) does not exist.
    case notFound = "io-not-found"
    /// The path names a folder where a file was expected.
    case isDirectory = "io-is-directory"
    /// The operating system refused access.
    case permissionDenied = "io-permission-denied"
    /// Any other failure of a system call (disk full, I/O error, …).
    case systemError = "io-system-error"
    /// The path names a device, FIFO or socket where a regular file was expected.
    case notRegularFile = "io-not-regular-file"
    /// The file is larger than mapc reads (`Specs/limits.md`).
    case tooLarge = "limit-input-size"
  }

  public var code: Code
  /// The file the operation was about.
  public var path: String
  /// What was being done, as a verb phrase: `read`, `write`, `create a temporary file beside`, ….
  public var operation: String
  /// The operating system's reason (from `strerror`), or mapc's own explanation.
  public var reason: String
  /// The `errno` value, or 0 when the failure did not come from a system call.
  public var errno: Int32

  public init(code: Code, path: String, operation: String, reason: String, errno: Int32 = 0) {
    self.code = code
    self.path = path
    self.operation = operation
    self.reason = reason
    self.errno = errno
  }

  /// Builds an error from an `errno` value, choosing the code from it.
  public static func system(_ err: Int32, path: String, operation: String) -> StoreIOError {
    let code: Code
    switch err {
    case ENOENT, ENOTDIR: code = .notFound
    case EISDIR: code = .isDirectory
    case EACCES, EPERM, EROFS: code = .permissionDenied
    default: code = .systemError
    }
    return StoreIOError(
      code: code, path: path, operation: operation, reason: systemErrorText(err), errno: err)
  }

  public var description: String { "cannot \(operation) '\(path)': \(reason)" }
  public var diagnosticMessage: String { description }
}

/// The operating system's text for an `errno` value, lower-cased the way mapc prints it
/// (`No such file or directory` becomes `no such file or directory`).
package func systemErrorText(_ err: Int32) -> String {
  guard let text = strerror(err) else { return "error \(err)" }
  var message = String(cString: text)
  if let first = message.first, first.isUppercase,
    message.dropFirst().first.map({ !$0.isUppercase }) ?? true
  {
    message = first.lowercased() + message.dropFirst()
  }
  return message
}
