import MapRuntime
import MapSyntax

/// Why a MapcKit workflow stopped, as a value: the diagnostics (with their stable ids) that
/// `mapc` prints for it, the notes after them, and the documented exit status
/// (`Specs/diagnostics.md` §2). Nothing was written when one is thrown.
public enum MapcError: Error, Sendable, CustomStringConvertible {
  /// Input that cannot be used (a model, a mapping, a lock file): its diagnostics, each group
  /// sorted by location on its own, then `notes`; exit status 1.
  case input([[Diagnostic]], notes: [String] = [])
  /// A run or conversion that failed: its errors, then `notes`; exit status 2.
  case run(MigrationFailure, notes: [String])
  /// One error the workflow found itself (`id`, about `place`), then `notes`.
  case stopped(message: String, id: String, place: String?, notes: [String], status: ExitStatus)

  /// Input that cannot be used, its diagnostics as one group.
  public init(_ error: DiagnosticsError) { self = .input([error.diagnostics]) }

  /// One typed error about `place`, then `notes`.
  public init(_ error: some CodedError, place: String?, notes: [String] = [], status: ExitStatus) {
    self = .stopped(
      message: error.diagnosticMessage, id: error.diagnosticID, place: place, notes: notes, status: status)
  }

  /// The exit status `mapc` documents for it.
  public var status: ExitStatus {
    switch self {
    case .input: .inputErrors
    case .run: .runFailed
    case .stopped(_, _, _, _, let status): status
    }
  }

  /// The stable diagnostic ids of its errors, in order.
  public var ids: [String] {
    switch self {
    case .input(let groups, _): groups.flatMap { $0.map(\.id) }
    case .run(let failure, _): failure.errors.map(\.code)
    case .stopped(_, let id, _, _, _): [id]
    }
  }

  /// The lines `mapc` prints for it (without the `mapc: note:` lines).
  public var description: String {
    switch self {
    case .input(let groups, _):
      groups.map { $0.sortedByLocation().map(\.description).joined(separator: "\n") }.joined(separator: "\n")
    case .run(let failure, _): failure.description
    case .stopped(let message, let id, let place, _, _):
      DiagnosticLine.render(.error, message, id: id, place: place)
    }
  }

  /// The notes printed after the errors (`nothing was written`, the ways forward).
  public var notes: [String] {
    switch self {
    case .input(_, let notes), .run(_, let notes), .stopped(_, _, _, let notes, _): notes
    }
  }
}
