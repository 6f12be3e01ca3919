import Foundation
import MapRuntime

/// Replaces an SQLite store atomically together with its `-wal`, `-shm` and `-journal`
/// (reference §8.7): the new store is written to a temporary file beside the target (an
/// `AtomicFileWriter`'s, so signals and later runs remove it), then
/// 1. the old store, if its siblings may hold data, is opened and checkpointed into its main
///    file (`PRAGMA wal_checkpoint(TRUNCATE)`, a hot journal rolled back), so that no stale
///    frame can be applied to the new file;
/// 2. the old main file is copied to `backup` when asked;
/// 3. the new file is renamed over the target (the atomic step: before it the old store is
///    complete and usable, after it the new one);
/// 4. the old, now empty, `-wal`, `-shm` and `-journal` are removed (an empty `-wal` and a stale
///    `-shm` left by a kill here are ignored and reset by SQLite's next open).
enum SQLiteReplacement {
  static let siblings = ["-wal", "-shm", "-journal"]

  static func replace(
    _ target: String, backup: String?, write: (String) throws(MigrationFailure) -> Void
  ) throws(MigrationFailure) {
    let file: AtomicFileWriter
    do {
      file = try AtomicFileWriter(target: target, streams: false)
    } catch {
      throw MigrationFailure([MigrationError(error.code.rawValue, error.description, file: target)])
    }
    try write(file.temporaryPath)
    let fm = FileManager.default
    for s in siblings { try? fm.removeItem(atPath: file.temporaryPath + s) }
    let resolved = file.resolvedTargetPath
    if siblings.contains(where: { fm.fileExists(atPath: resolved + $0) }) && fm.fileExists(atPath: resolved) {
      do {
        let old = try SQLiteDatabase(path: resolved, writable: true)
        _ = try old.rows("SELECT count(*) FROM sqlite_master")
        _ = try old.rows("PRAGMA wal_checkpoint(TRUNCATE)")
      } catch {
        throw MigrationFailure([
          MigrationError(
            "sqlite-replace", "cannot fold the old store's -wal into it before replacing it: \(error.message)",
            file: target)
        ])
      }
    }
    do {
      try file.commit(backupPath: backup)
    } catch {
      throw MigrationFailure([MigrationError(error.code.rawValue, error.description, file: target)])
    }
    for s in siblings { try? fm.removeItem(atPath: resolved + s) }
  }
}
