import Foundation

/// Reading and writing a store with progress reported the way every command shows it
/// (`MigrationRun.Options.ioProgress`): the read phase in bytes of the file, or in rows against
/// the store's total for a format that reads rows, ending at its total; the write phase in
/// objects against the graph's total, ending with the size of the file written. A store that
/// is not there gets no read phase: its error comes first.
public enum StoreIO {
  public typealias Report = @Sendable (MigrationRun.IOPhase, Int, Int?) -> Void

  /// The command's `--memory-limit` (nil: none): a store whose whole read is expected to take
  /// more (`StreamingRun.expectedPeak`) is refused before it is read (`run-memory-limit`).
  /// `mapc run` goes a chunk at a time instead where it can (`MigrationRun.Options.memoryLimit`),
  /// and so does `store convert` (`StreamingConversion`).
  public static var memoryLimit: Int? {
    get { limitLock.withLock { limit } }
    set { limitLock.withLock { limit = newValue } }
  }
  nonisolated(unsafe) private static var limit: Int?
  private static let limitLock = NSLock()

  /// Throws `run-memory-limit` when reading the store at `path` whole would take more than
  /// `memoryLimit`.
  public static func checkFits(_ path: String, format: (any StoreFormat)? = nil) throws(MigrationFailure) {
    guard let limit = memoryLimit, let store = StoreFootprint.of(path, format: format, limit: limit) else { return }
    let size = store.bytes
    let need = store.expectedPeak
    guard need > limit else { return }
    throw MigrationFailure([
      MigrationError(
        "run-memory-limit",
        "the store (\(size) bytes) needs about \(need) bytes in memory, more than the --memory-limit of \(limit) bytes; this command reads a store whole (mapc run, migrate and store convert, export and import go a chunk at a time, on JSON and Core Data SQLite stores)",
        file: path)
    ])
  }

  public static func read(
    _ format: any StoreFormat, _ path: String, layout: StoreLayout, maxErrors: Int = 50, report: Report?
  ) throws(MigrationFailure) -> (ObjectGraph, StoreMetadata) {
    try checkFits(path, format: format)
    var options = StoreReadOptions(maxErrors: maxErrors)
    guard let report, let storeBytes = MigrationRun.fileSize(path) else {
      return try format.read(path, layout: layout, options: options)
    }
    report(.read, 0, storeBytes)
    let rows = RowCount()
    options.rowProgress = { done, total in
      rows.set(total)
      report(.readRows, done, total)
    }
    options.byteProgress = { done, total in report(.read, done, total) }
    let result = try format.read(path, layout: layout, options: options)
    // The end of the read phase, in the unit it was reported in.
    if let total = rows.value {
      report(.readRows, total, total)
    } else {
      report(.read, storeBytes, storeBytes)
    }
    return result
  }

  /// `StoreFormat.write` with the write phase reported; with no target (a dry run), the check
  /// that the store could be written, in objects. `durable: false`: a scratch store, not
  /// flushed (`StoreWriteOptions.durable`).
  public static func write(
    _ format: any StoreFormat, _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata,
    to target: String?, backup: String?, report: Report?, bookkeepingFrom: String? = nil, durable: Bool = true
  ) throws(MigrationFailure) {
    var options = StoreWriteOptions(bookkeepingFrom: bookkeepingFrom)
    options.durable = durable
    if let report {
      // The phase starts now, counted in objects, whether or not the format reports them.
      let objects = graph.objectCount
      let phase: MigrationRun.IOPhase = target == nil ? .checkWriteObjects : .writeObjects
      report(phase, 0, objects)
      options.objectProgress = { done in report(phase, done, objects) }
    }
    try format.write(graph, source: source, metadata: metadata, to: target, backup: backup, options: options)
    // What was written, as the file system says.
    if let report, let target, let written = MigrationRun.fileSize(target) {
      report(.write, written, written)
    }
  }
}

/// The total rows a format reported reading, if it reported any.
private final class RowCount: @unchecked Sendable {
  private let lock = NSLock()
  private var total: Int?
  var value: Int? { lock.withLock { total } }
  func set(_ n: Int) { lock.withLock { total = n } }
}
