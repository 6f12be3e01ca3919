import MapRuntime
import MapSyntax
import MapTools

/// What a ``Migrator`` says while it works, in order, for its caller to show (the CLI prints
/// each as it comes; an app may log or ignore them). Delivered on the thread doing the work.
public enum MigrationEvent: Sendable {
  /// A note: why the migration goes the way it does (`mapc: note: …`).
  case note(String)
  /// Warnings found in the models or mappings, the migration going on (each group sorted by
  /// location on its own).
  case diagnostics([Diagnostic])
  /// An intermediate store (`path`) of an interrupted run that differs from what was recorded
  /// when it was written: not trusted, the chain starts again from `store`
  /// (`migrate-resume-untrusted`).
  case untrustedIntermediate(path: String, store: String)
  /// Step `k` of the chain (0-based) starts.
  case stepStarting(Int)
  /// Step `k` of the chain (0-based) finished.
  case stepFinished(Int, MigrationStepResult)
}

/// What one step (or the one plan of a ``Migrator/run(_:)``) read, made and dropped.
public struct MigrationStepResult: Sendable {
  /// The version the step started from (nil for a single plan).
  public var from: String?
  /// The version the step went to (nil for a single plan).
  public var to: String?
  /// The mapping file of the step, or `inferred`.
  public var mapping: String
  /// The run's summary: objects read and made, per entity mapping, the time it took.
  public var summary: MigrationRun.Summary
  /// The losses the step made with consent.
  public var dropped: [DataLoss]

  /// Objects read from the source store.
  public var objectsRead: Int { summary.read.reduce(0) { $0 + $1.count } }
  /// Objects made in the destination store.
  public var objectsMade: Int { summary.created.reduce(0) { $0 + $1.count } }
}

/// Receives a ``Migrator``'s events.
public typealias MigrationObserver = @Sendable (MigrationEvent) -> Void
