import ArgumentParser
import Foundation
import MapRuntime
import MapcKit
import MapSyntax

/// The one place where commands print to standard error: diagnostics (one
/// `path:line:column: severity: message [id]` line each, rendered by `DiagnosticLine`), notes,
/// and the summary lines of successful runs; and where a failure becomes its documented exit
/// code (`ExitStatus`, `Specs/diagnostics.md` §2).
enum Console {
  /// A line of information (a summary, "baseline written"): always one line, its control
  /// characters escaped (`TerminalText`), so a name from the input cannot start another.
  static func say(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.escaped(line) + "\n").utf8))
  }

  /// Lines of diagnostics rendered by `DiagnosticLine` (which escapes each one), as they are.
  static func sayRendered(_ lines: String) {
    FileHandle.standardError.write(Data((lines + "\n").utf8))
  }

  /// Text as it is (a rendered report that ends with its own newline).
  static func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// A note without a place: `mapc: note: MESSAGE`.
  static func note(_ message: String) {
    say(DiagnosticLine.render(.note, message, id: nil, place: nil))
  }

  /// One error line: `PLACE: error: MESSAGE [ID]` (`mapc` when there is no place).
  static func error(_ message: String, id: String, place: String? = nil) {
    say(DiagnosticLine.render(.error, message, id: id, place: place))
  }

  /// Diagnostics of input, sorted by location.
  static func report(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    sayRendered(diagnostics.sortedByLocation().map(\.description).joined(separator: "\n"))
  }

  /// Prints the diagnostics of input that could not be used; the exit code for it (1), so a
  /// command can write `throw Console.failure(error)`.
  static func failure(_ error: DiagnosticsError) -> ExitCode {
    report(error.diagnostics)
    return ExitCode(.inputErrors)
  }

  /// Prints the errors of a failed run or conversion, then `notes`; exit 2.
  static func failure(_ failure: MigrationFailure, notes: [String] = []) -> ExitCode {
    sayRendered(failure.description)
    for n in notes { note(n) }
    return ExitCode(.runFailed)
  }

  /// Prints why a MapcKit workflow stopped (its errors, then its notes); its exit status.
  static func failure(_ error: MapcError) -> ExitCode {
    switch error {
    case .input(let groups, let notes):
      for group in groups { report(group) }
      for n in notes { note(n) }
    case .run(let failure, let notes):
      return Self.failure(failure, notes: notes)
    case .stopped(let message, let id, let place, let notes, _):
      Console.error(message, id: id, place: place)
      for n in notes { note(n) }
    }
    return ExitCode(error.status)
  }

  /// Prints a plan that cannot be read, named `path`.
  static func failure(_ error: PlanFormatError, path: String? = nil, exit: ExitStatus) -> ExitCode {
    var located = error
    if let path { located.path = path }
    say(located.diagnosticLine)
    return ExitCode(exit)
  }

  /// Prints an evaluation error (`mapc eval`); exit 1.
  static func failure(_ error: MigrationError) -> ExitCode {
    sayRendered(error.description)
    return ExitCode(.inputErrors)
  }

  /// Prints the diagnostics of a command that generates a file, then writes its text with
  /// `write(text, path)`; exit 1 when there is no text (its errors are printed) or it cannot be
  /// written (`writeFailure`).
  static func writeGenerated(
    _ text: String?, diagnostics: [Diagnostic], as what: String, to path: String,
    with write: (String, String) throws -> Void
  ) throws {
    report(diagnostics)
    guard let text else { throw ExitCode(.inputErrors) }
    do {
      try write(text, path)
    } catch {
      throw writeFailure(what, path: path, error: error)
    }
  }

  /// `PATH: error: cannot write the WHAT: REASON [io-write]`; exit 1.
  static func writeFailure(_ what: String, path: String, error: any Error) -> ExitCode {
    let reason = (error as? StoreIOError)?.reason ?? SystemErrorText.describe(error)
    say(DiagnosticLine.render(.error, "cannot write the \(what): \(reason)", id: "io-write", place: path))
    return ExitCode(.inputErrors)
  }
}

extension ExitCode {
  /// The documented exit code `status`.
  init(_ status: ExitStatus) { self.init(status.rawValue) }
}
