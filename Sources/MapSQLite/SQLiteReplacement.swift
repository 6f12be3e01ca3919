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
///
/// The support folder of external data (`.<name>_SUPPORT`, Specs/sqlite-store.md §7) goes with
/// it (`SupportFolderChange`): before step 3 the old folder is copied beside the backup and the
/// new store's files are added to the folder; after it the files only the old store named are
/// removed.
enum SQLiteReplacement {
  static let siblings = ["-wal", "-shm", "-journal"]

  static func replace(
    _ target: String, backup: String?, durable: Bool = true, external: () -> ExternalFilesWritten? = { nil },
    write: (String) throws(MigrationFailure) -> Void
  ) throws(MigrationFailure) {
    let file: AtomicFileWriter
    do {
      file = try AtomicFileWriter(target: target, streams: false)
    } catch {
      throw MigrationFailure(error, file: target)
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
    let written = external()
    var support = SupportFolderChange(
      target: target, backup: backup, files: written?.files ?? [], references: written?.references ?? [])
    try support.prepare()
    do {
      try file.commit(backupPath: backup, durable: durable)
    } catch {
      support.undo()
      throw MigrationFailure(error, file: target)
    }
    for s in siblings { try? fm.removeItem(atPath: resolved + s) }
    support.finish()
  }
}

/// The support folder of a store being replaced (Specs/sqlite-store.md §7):
/// - `prepare` (before the new store replaces the old): copies the old folder beside the backup
///   (`.<backup name>_SUPPORT`, replacing one there), then adds the new store's files to
///   `_EXTERNAL_DATA` (a file already there with the same bytes is kept; one with other bytes
///   is an error, nothing replaced);
/// - `undo` (the replacement failed): removes what `prepare` added;
/// - `finish` (after): removes the files the old store named and the new one does not.
/// Files no row of the old store names, and anything else in the folder, are kept.
struct SupportFolderChange {
  let target: String
  let backup: String?
  let files: [(uuid: String, bytes: [UInt8])]
  let references: Set<String>
  private var added: [String] = []
  private var createdFolders: [String] = []
  /// The files the old store named (found before it is replaced).
  private var oldReferences = Set<String>()
  /// The backup's support folder is the target's (`App.sqlite` and `App.bak`): nothing of it
  /// is removed, so that the backup keeps its files.
  private var sharedWithBackup = false

  init(target: String, backup: String?, files: [(uuid: String, bytes: [UInt8])], references: Set<String>) {
    self.target = target
    self.backup = backup
    self.files = files
    self.references = references
  }

  var support: String { ExternalData.supportFolder(ofStore: target) }
  var data: String { ExternalData.dataFolder(ofStore: target) }

  func failure(_ message: String) -> MigrationFailure {
    MigrationFailure([MigrationError("sqlite-replace", message, file: target)])
  }

  mutating func prepare() throws(MigrationFailure) {
    let fm = FileManager.default
    var isFolder: ObjCBool = false
    let hasOld = fm.fileExists(atPath: support, isDirectory: &isFolder) && isFolder.boolValue
    if hasOld, fm.fileExists(atPath: data), fm.fileExists(atPath: target) {
      oldReferences = ExternalData.referencedFiles(target) ?? []
    }
    if hasOld, let backup {
      let copy = ExternalData.supportFolder(ofStore: backup)
      if URL(fileURLWithPath: copy).standardizedFileURL == URL(fileURLWithPath: support).standardizedFileURL {
        sharedWithBackup = true
      } else {
        do {
          if fm.fileExists(atPath: copy) { try fm.removeItem(atPath: copy) }
          try fm.copyItem(atPath: support, toPath: copy)
        } catch {
          throw failure("cannot copy the external data folder \(support) to \(copy) for the backup: \(error)")
        }
      }
    }
    guard !files.isEmpty else { return }
    for folder in [support, data] where !fm.fileExists(atPath: folder) {
      do {
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: false)
      } catch {
        undo()
        throw failure("cannot create the external data folder \(folder): \(error)")
      }
      createdFolders.append(folder)
    }
    for f in files {
      let path = "\(data)/\(f.uuid)"
      if fm.fileExists(atPath: path) {
        if let old = fm.contents(atPath: path), old.elementsEqual(f.bytes) { continue }
        undo()
        throw failure(
          "\(path) holds other bytes than the external file of that name the new store needs; nothing was replaced")
      }
      do throws(StoreIOError) {
        try AtomicFileWriter.replaceContents(of: path, with: f.bytes)
      } catch {
        undo()
        throw failure("cannot write the external data file \(path): \(error.description)")
      }
      added.append(path)
    }
  }

  mutating func undo() {
    let fm = FileManager.default
    for path in added { try? fm.removeItem(atPath: path) }
    for folder in createdFolders.reversed() { try? fm.removeItem(atPath: folder) }
    added = []
    createdFolders = []
  }

  func finish() {
    guard !sharedWithBackup else { return }
    for uuid in oldReferences.subtracting(references) { try? FileManager.default.removeItem(atPath: "\(data)/\(uuid)") }
  }
}
