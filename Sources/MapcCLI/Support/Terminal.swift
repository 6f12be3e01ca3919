import Foundation

/// Whether output goes to a terminal: the one check behind progress bars and colour.
enum Terminal {
  /// True when standard error is a terminal (not a file, a pipe or /dev/null).
  static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
