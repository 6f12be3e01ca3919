/// The positions of ordered relationships, spilled to a scratch SQLite database once counting
/// them chunk by chunk (`CoreDataReader.Stubs.rank`) has read more rows of a relationship than
/// twice its table holds: a chunk of rows spread over a few large ordered relationships would
/// otherwise read each of them again in every chunk, a cost that grows with the square of the
/// store. The spill reads the relationship once and sorts it (SQLite's sorter, on disk past its
/// page cache); each member's index is then one look-up. The same counts either way: a member's
/// index is the number of rows of its owner that come before it (ordering value, then key).
final class PositionSpill {
  /// Where the spill's database goes (the run's scratch folder), created when first needed.
  private let folder: String
  /// A database's page cache and sorter, in KiB (`CoreDataWriter.cacheKiB`).
  private let cacheKiB: Int
  private var database: SQLiteDatabase?
  /// Rows counted so far per relationship (its table and owner column), until it is spilled.
  private var counted: [String: Int] = [:]
  /// Rows of each relationship's table.
  private var sizes: [String: Int] = [:]
  /// Per relationship spilled: the look-up of a member's index by owner, ordering value and key.
  private var lookups: [String: SQLiteStatement] = [:]

  /// Where the rows of an ordered relationship are: `id` names its table and owner column
  /// (whichever entity asks), `each` reads one owner's rows (ordering value, key), `all` every
  /// owner's (owner, ordering value, key).
  struct Side {
    var id: String
    var table: String
    var each: String
    var all: String
  }

  /// The side of each (owner entity, property) asked for so far in the run.
  var sides: [[Int]: Side] = [:]

  init(folder: String, cacheKiB: Int) {
    self.folder = folder
    self.cacheKiB = cacheKiB
  }

  /// The statement that gives the index of a member by owner, ordering value and key, for
  /// relationship `id` once spilled; nil before.
  func lookup(_ id: String) -> SQLiteStatement? { lookups[id] }

  /// Counts `rows` more rows read for relationship `id`, whose table has `tableRows` (asked
  /// once); true when it should now be spilled.
  func counts(_ rows: Int, for id: String, tableRows: () -> Int) -> Bool {
    counted[id, default: 0] += rows
    if sizes[id] == nil { sizes[id] = tableRows() }
    return counted[id, default: 0] > 2 * max(sizes[id]!, 1)
  }

  /// Spills relationship `id`: `rows` runs the reading (owner, ordering value, key per row, in
  /// any order) and is given the spill's insert, bound and stepped for each row.
  func spill(_ id: String, rows: (SQLiteStatement) throws(SQLiteDatabase.Failure) -> Void) throws(SQLiteDatabase
    .Failure)
  {
    let db: SQLiteDatabase
    if let database {
      db = database
    } else {
      db = try SQLiteDatabase(path: folder + "/positions.sqlite", writable: true, create: true)
      try db.execute(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = FILE; PRAGMA cache_size = -\(cacheKiB); "
          // Private to the run: locked once, not at every look-up (each took and gave back a
          // file lock, looked for a hot journal and read the header again).
          + "PRAGMA locking_mode = EXCLUSIVE;"
      )
      database = db
    }
    let n = lookups.count
    try db.execute("CREATE TABLE read\(n) (owner INTEGER, ord INTEGER, member INTEGER)")
    try db.execute("BEGIN")
    let insert = try db.prepare("INSERT INTO read\(n) VALUES (?, ?, ?)")
    try rows(insert)
    // A member's index: the rows of its owner before it (RANK, so equal rows share one).
    try db.execute(
      "CREATE TABLE index\(n) (owner INTEGER, ord INTEGER, member INTEGER, position INTEGER, PRIMARY KEY (owner, ord, member)) WITHOUT ROWID; "
        + "INSERT OR IGNORE INTO index\(n) SELECT owner, ord, member, RANK() OVER (PARTITION BY owner ORDER BY ord, member) - 1 FROM read\(n); "
        + "DROP TABLE read\(n); COMMIT")
    lookups[id] = try db.prepare("SELECT position FROM index\(n) WHERE owner = ? AND ord = ? AND member = ?")
  }
}
