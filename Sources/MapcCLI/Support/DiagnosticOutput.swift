import ArgumentParser
import Foundation
import MapCompiler

/// Printing diagnostics the way every `mapc` command does: one `path:line:column: severity:
/// message [rule-id]` line each (plus notes), on standard error.
enum DiagnosticOutput {
  /// Writes the diagnostics to standard error, sorted by location.
  static func printToStandardError(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    let text = diagnostics.sortedByLocation().map(\.description).joined(separator: "\n") + "\n"
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// Prints the diagnostics of input that could not be used and returns the exit code for it
  /// (1), so that a command can write `throw DiagnosticOutput.failure(error)`.
  static func failure(_ error: DiagnosticsError) -> ExitCode {
    printToStandardError(error.diagnostics)
    return ExitCode(1)
  }
}
