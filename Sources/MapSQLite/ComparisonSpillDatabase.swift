import MapRuntime

/// The spill of a comparison of stores larger than memory (`StreamingComparison`): a scratch
/// SQLite database in the comparison's folder, one row per object (side, entity, position in
/// its store, id, its property texts), indexed by position and by id once every object is in.
/// SQLite because it is already mapc's (`Specs/limits.md` "Memory"): its B-trees and sorter
/// keep to their page cache and go to disk past it, so the look-up by id of one store's objects
/// in the other's is bounded in memory whatever the stores hold.
package final class ComparisonSpillDatabase: ComparisonSpill {
  private let path: String
  private let database: SQLiteDatabase
  private let insert: SQLiteStatement
  private var indexed = false

  /// A new spill at `folder/compare.sqlite`, with a page cache of `cacheKiB`.
  package init(folder: String, cacheKiB: Int) throws(MigrationFailure) {
    path = folder + "/compare.sqlite"
    do throws(SQLiteDatabase.Failure) {
      database = try SQLiteDatabase(path: path, writable: true, create: true)
      try database.execute(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = FILE; "
          + "PRAGMA cache_size = -\(cacheKiB); PRAGMA locking_mode = EXCLUSIVE; "
          + "CREATE TABLE objects (side INTEGER, entity INTEGER, position INTEGER, id TEXT, texts BLOB); BEGIN")
      insert = try database.prepare("INSERT INTO objects VALUES (?, ?, ?, ?, ?)")
    } catch {
      throw Self.failure(error, path)
    }
  }

  package func add(
    _ side: ComparisonSide, entity: Int, position: Int, id: String, texts: [String]
  ) throws(MigrationFailure) {
    do throws(SQLiteDatabase.Failure) {
      insert.rewind()
      try insert.bindInteger(0, Int64(side.rawValue))
      try insert.bindInteger(1, Int64(entity))
      try insert.bindInteger(2, Int64(position))
      try insert.bindText(3, id)
      try insert.bind(4, .blob(Self.encode(texts)))
      _ = try insert.step()
    } catch {
      throw Self.failure(error, path)
    }
  }

  package func eachExpected(entity: Int, _ body: (String, [String], [String]?) -> Bool) throws(MigrationFailure) {
    // The object of the other store with the id, its last if two had it (as the comparison in
    // memory's table of ids keeps the last).
    try each(
      "SELECT e.id, e.texts, (SELECT g.texts FROM objects g WHERE g.side = 1 AND g.entity = e.entity AND g.id = e.id ORDER BY g.position DESC LIMIT 1) "
        + "FROM objects e WHERE e.side = 0 AND e.entity = ? ORDER BY e.position", entity
    ) { row in
      guard case .text(let id) = row.value(0), case .blob(let want) = row.value(1) else { return false }
      let have: [String]?
      if case .blob(let bytes) = row.value(2) { have = Self.decode(bytes) } else { have = nil }
      return body(id, Self.decode(want), have)
    }
  }

  package func eachUnexpected(entity: Int, _ body: (String) -> Bool) throws(MigrationFailure) {
    // Unmatched: no expected object has its id, or a later object of its store has it too.
    try each(
      "SELECT g.id FROM objects g WHERE g.side = 1 AND g.entity = ?1 AND (NOT EXISTS (SELECT 1 FROM objects e WHERE e.side = 0 AND e.entity = ?1 AND e.id = g.id) "
        + "OR EXISTS (SELECT 1 FROM objects h WHERE h.side = 1 AND h.entity = ?1 AND h.id = g.id AND h.position > g.position)) ORDER BY g.position",
      entity
    ) { row in
      guard case .text(let id) = row.value(0) else { return false }
      return body(id)
    }
  }

  /// Runs `sql` with `entity` bound, calling `body` per row until it returns false; the indexes
  /// are made first, once every object is in.
  private func each(_ sql: String, _ entity: Int, _ body: (SQLiteStatement) -> Bool) throws(MigrationFailure) {
    do throws(SQLiteDatabase.Failure) {
      if !indexed {
        try database.execute(
          "COMMIT; CREATE INDEX byPosition ON objects (side, entity, position); CREATE INDEX byID ON objects (side, entity, id, position)"
        )
        indexed = true
      }
      let statement = try database.prepare(sql)
      try statement.bindInteger(0, Int64(entity))
      while try statement.step() {
        if !body(statement) { break }
      }
    } catch {
      throw Self.failure(error, path)
    }
  }

  /// The texts as one BLOB: their count, then each one's length and UTF-8 bytes (lengths as
  /// 4 bytes, little-endian). Never empty, so never bound as NULL.
  static func encode(_ texts: [String]) -> [UInt8] {
    var out: [UInt8] = []
    func length(_ n: Int) { withUnsafeBytes(of: UInt32(n).littleEndian) { out.append(contentsOf: $0) } }
    length(texts.count)
    for text in texts {
      length(text.utf8.count)
      out.append(contentsOf: text.utf8)
    }
    return out
  }

  static func decode(_ bytes: [UInt8]) -> [String] {
    var at = 0
    func length() -> Int {
      guard at + 4 <= bytes.count else { return 0 }
      defer { at += 4 }
      return Int(
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
    }
    let count = length()
    var texts: [String] = []
    texts.reserveCapacity(count)
    for _ in 0..<count {
      let n = min(length(), bytes.count - at)
      texts.append(String(decoding: bytes[at..<at + n], as: UTF8.self))
      at += n
    }
    return texts
  }

  private static func failure(_ error: SQLiteDatabase.Failure, _ path: String) -> MigrationFailure {
    MigrationFailure([
      MigrationError("io-system-error", "cannot keep the comparison's objects on disk: \(error.message)", file: path)
    ])
  }
}
