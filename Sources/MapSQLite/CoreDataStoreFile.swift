import Foundation
import MapRuntime

/// A Core Data SQLite store opened for reading, never written: its metadata (`Z_METADATA`), its
/// entity rows (`Z_PRIMARYKEY`) and its schema.
///
/// A store whose newest rows may sit in a journal beside it (a `-wal` or `-journal`) is read from
/// a private copy of the file and its journal, so that SQLite's recovery and its `-shm` index
/// never touch the originals. A store without a journal beside it is read in place: read-only,
/// and a WAL-mode one as immutable (SQLite then creates no `-shm` and takes no lock).
final class CoreDataStoreFile {
  let path: String
  /// The file's size in bytes when opened (without its journal).
  let size: Int
  let database: SQLiteDatabase
  /// What a second connection opens to read the same rows (the path, or the immutable URI),
  /// or nil when the store is read from a private copy, which only `database` can still see.
  private(set) var sharedLocation: SQLiteDatabase.Location?
  private var copyFolder: String?

  struct PrimaryKeyRow {
    var number: Int
    var name: String
    var superNumber: Int
    var max: Int64
  }

  /// `Z_ENT` of the persistent-history entities and above (reference §7): not model entities.
  static let firstAncillaryEntity = 16000

  init(path: String) throws(MigrationFailure) {
    self.path = path
    var info = stat()
    let found = stat(path, &info) == 0
    size = found ? Int(info.st_size) : 0
    if found, (info.st_mode & S_IFMT) != S_IFREG {
      throw Self.failure(
        "io-not-regular-file", "cannot read '\(path)': it is not a regular file; a store must be a regular file", path)
    }
    let header = Self.header(path)
    guard header.count >= 100 else {
      throw Self.failure(
        "sqlite-not-a-database",
        header.isEmpty
          ? "cannot read the file (missing, empty or unreadable)"
          : "the file is too short to be an SQLite database (\(header.count) bytes)",
        path)
    }
    guard header.starts(with: Array("SQLite format 3\0".utf8)) else {
      throw Self.failure("sqlite-not-a-database", "the file is not an SQLite database", path)
    }
    let fm = FileManager.default
    // An empty journal holds nothing (Core Data leaves an empty `-wal` after a checkpoint).
    let sidecars = ["-wal", "-journal"].filter {
      var sibling = stat()
      return stat(path + $0, &sibling) == 0 && ((sibling.st_mode & S_IFMT) != S_IFREG || sibling.st_size > 0)
    }
    var openPath = path
    var immutable = false
    if sidecars.isEmpty {
      // No journal beside it: the main file holds every row. A WAL-mode store is opened as
      // immutable (no `-shm` is created, nothing is locked or written), a rollback one read-only.
      immutable = header[18] == 2 || header[19] == 2
    } else {
      Self.removeStaleCopies()
      let folder = NSTemporaryDirectory() + "\(Self.copyPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      do {
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: false)
        copyFolder = folder
        let name = (path as NSString).lastPathComponent
        for suffix in [""] + sidecars { try fm.copyItem(atPath: path + suffix, toPath: "\(folder)/\(name)\(suffix)") }
        openPath = "\(folder)/\(name)"
      } catch {
        if let folder = copyFolder { try? fm.removeItem(atPath: folder) }
        throw Self.failure(
          "sqlite-unreadable", "cannot copy the store for reading: \(error.localizedDescription)", path)
      }
    }
    do {
      // The copy is opened writable so that SQLite can recover from its -wal.
      let location: SQLiteDatabase.Location =
        immutable ? .uri(SQLiteDatabase.immutableURI(openPath)) : .path(openPath)
      database = try SQLiteDatabase(location, writable: copyFolder != nil)
      sharedLocation = copyFolder == nil ? location : nil
      let fixed = try database.rows(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('Z_METADATA', 'Z_PRIMARYKEY')")
      let names = Set(fixed.compactMap { $0.first?.text })
      for table in ["Z_METADATA", "Z_PRIMARYKEY"] where !names.contains(table) {
        if let folder = copyFolder { try? fm.removeItem(atPath: folder) }
        throw Self.failure(
          "sqlite-not-core-data", "the SQLite database is not a Core Data store: it has no \(table) table", path)
      }
      if let folder = copyFolder {
        // The -wal is folded into the copy, which then needs no sibling: the copy is removed
        // now (the open connection keeps reading it), so a killed run leaves nothing behind.
        _ = try database.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        _ = try database.rows("PRAGMA journal_mode = DELETE")
        try? fm.removeItem(atPath: folder)
        copyFolder = nil
      }
    } catch let e as MigrationFailure {
      throw e
    } catch {
      if let folder = copyFolder { try? fm.removeItem(atPath: folder) }
      throw Self.failure("sqlite-not-a-database", "SQLite cannot read the file: \(error)", path)
    }
  }

  static let copyPrefix = "mapc-sqlite-"

  /// Removes the copies that runs killed while copying left in the temporary folder (their
  /// process gone).
  static func removeStaleCopies() {
    let fm = FileManager.default
    let folder = NSTemporaryDirectory()
    for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(copyPrefix) {
      guard let pid = Int32(name.dropFirst(copyPrefix.count).prefix { $0 != "-" }), pid != getpid() else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { try? fm.removeItem(atPath: folder + name) }
    }
  }

  deinit {
    if let folder = copyFolder { try? FileManager.default.removeItem(atPath: folder) }
  }

  static func header(_ path: String) -> [UInt8] {
    guard let h = FileHandle(forReadingAtPath: path) else { return [] }
    defer { try? h.close() }
    return [UInt8]((try? h.read(upToCount: 100)) ?? Data())
  }

  static func failure(_ code: String, _ message: String, _ path: String) -> MigrationFailure {
    MigrationFailure([MigrationError(code, message, file: path)])
  }

  func failure(_ code: String, _ message: String) -> MigrationFailure { Self.failure(code, message, path) }

  func query(_ sql: String, what: String) throws(MigrationFailure) -> [[SQLiteValue]] {
    do {
      return try database.rows(sql)
    } catch {
      throw failure("sqlite-unreadable", "cannot read \(what): \(error.message)")
    }
  }

  /// Table name → its columns, from the schema.
  func tables() throws(MigrationFailure) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for row in try query("SELECT name FROM sqlite_master WHERE type = 'table'", what: "the schema") {
      guard let name = row.first?.text else { continue }
      let columns = try query("PRAGMA table_info(\(SQLiteDatabase.quote(name)))", what: "the columns of \(name)")
      result[name] = columns.compactMap { $0.count > 1 ? $0[1].text : nil }
    }
    return result
  }

  /// `Z_PRIMARYKEY`, checked: numbers unique, every `Z_SUPER` an entity of the table, no cycle.
  func primaryKeys(tables: [String: [String]]) throws(MigrationFailure) -> [PrimaryKeyRow] {
    guard tables["Z_PRIMARYKEY"] != nil, tables["Z_METADATA"] != nil else {
      throw failure(
        "sqlite-not-core-data",
        "the SQLite database is not a Core Data store: it has no \(tables["Z_METADATA"] == nil ? "Z_METADATA" : "Z_PRIMARYKEY") table"
      )
    }
    var rows: [PrimaryKeyRow] = []
    for r in try query("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", what: "Z_PRIMARYKEY") {
      guard let n = r[0].integer, let name = r[1].text else {
        throw failure("sqlite-layout", "Z_PRIMARYKEY has a row without an integer Z_ENT and a text Z_NAME")
      }
      rows.append(
        PrimaryKeyRow(number: Int(n), name: name, superNumber: Int(r[2].integer ?? 0), max: r[3].integer ?? 0))
    }
    var byNumber: [Int: PrimaryKeyRow] = [:]
    for r in rows { byNumber[r.number] = r }
    for r in rows {
      var seen: Set<Int> = [r.number]
      var current = r
      while current.superNumber != 0 {
        guard let parent = byNumber[current.superNumber] else {
          throw failure(
            "sqlite-layout",
            "Z_PRIMARYKEY: entity \(current.number) (\(current.name)) has Z_SUPER \(current.superNumber), which is no entity of the table"
          )
        }
        guard seen.insert(parent.number).inserted else {
          throw failure(
            "sqlite-entity-cycle",
            "Z_PRIMARYKEY: following Z_SUPER from entity \(r.number) (\(r.name)) comes back to entity \(parent.number) (\(parent.name)), a cycle"
          )
        }
        current = parent
      }
    }
    return rows
  }
}
