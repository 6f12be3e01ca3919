internal import CSQLite
import Foundation
import MapArchives
import MapRuntime

/// The one place mapc talks to the SQLite library: a connection, prepared statements and rows.
/// Errors carry SQLite's own message and the file.
final class SQLiteDatabase {
  private(set) var handle: OpaquePointer?
  let path: String

  struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// What a connection opens: a file by its path, or an SQLite `file:` URI.
  enum Location {
    case path(String)
    case uri(String)

    /// The name SQLite is given. Connections are opened with URI names on, so a relative path
    /// that starts with `file:` (a folder or file of that name) is given as `./file:…`.
    var name: String {
      switch self {
      case .path(let p): p.hasPrefix("file:") ? "./" + p : p
      case .uri(let u): u
      }
    }
  }

  /// Opens the file at `path` (read-only unless `writable`). `create` makes a new database.
  convenience init(path: String, writable: Bool = false, create: Bool = false) throws(Failure) {
    try self.init(.path(path), writable: writable, create: create)
  }

  /// Opens `location` (read-only unless `writable`). `create` makes a new database.
  init(_ location: Location, writable: Bool = false, create: Bool = false) throws(Failure) {
    let path = location.name
    self.path = path
    _ = Self.configured
    var flags = writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY
    if create { flags |= SQLITE_OPEN_CREATE }
    flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    handle = db
    if rc != SQLITE_OK {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(db)
      handle = nil
      throw Failure(message: message)
    }
    sqlite3_extended_result_codes(db, 1)
  }

  deinit { sqlite3_close_v2(handle) }

  /// Process-wide settings, made once before the first connection: no memory statistics (they
  /// take a global lock on every allocation SQLite makes; mapc never reads them).
  private static let configured: Bool = csqlite_disable_memory_statistics() == SQLITE_OK

  /// Rows the last INSERT, UPDATE or DELETE changed.
  var changes: Int { Int(sqlite3_changes64(handle)) }

  var lastError: String {
    guard let handle else { return "closed" }
    return withSystemReason(String(cString: sqlite3_errmsg(handle)))
  }

  /// SQLite says "disk I/O error" or "database or disk is full" whatever the system said: its
  /// reason (`file too large`, `no space left on device`, …) is added when the last failure was
  /// a read or a write.
  private func withSystemReason(_ text: String) -> String {
    guard let handle else { return text }
    let primary = sqlite3_extended_errcode(handle) & 0xff
    let err = sqlite3_system_errno(handle)
    guard primary == SQLITE_IOERR || primary == SQLITE_FULL, err != 0 else { return text }
    return "\(text) (\(systemErrorText(err)))"
  }

  /// Runs statements that return no rows.
  func execute(_ sql: String) throws(Failure) {
    var message: UnsafeMutablePointer<CChar>?
    if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
      let text = message.map { withSystemReason(String(cString: $0)) } ?? lastError
      sqlite3_free(message)
      throw Failure(message: text)
    }
  }

  func prepare(_ sql: String) throws(Failure) -> SQLiteStatement {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(message: lastError)
    }
    return SQLiteStatement(statement, database: self)
  }

  /// Every row of a query, as values.
  func rows(_ sql: String) throws(Failure) -> [[SQLiteValue]] {
    let s = try prepare(sql)
    var result: [[SQLiteValue]] = []
    while try s.step() { result.append((0..<s.columnCount).map { s.value($0) }) }
    return result
  }

  /// The URI that opens the file at `path` as immutable (read-only, no locks, no `-shm`): for a
  /// WAL-mode file known to have no `-wal` beside it.
  static func immutableURI(_ path: String) -> String {
    // Made absolute without folding `..` (SQLite opens the path as the file system resolves it);
    // `file://` + an absolute path leaves the URI's authority empty.
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return "file://" + PathText.uriEncoded(absolute) + "?immutable=1"
  }

  /// Quotes a name for SQL (`"name"`).
  static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

/// A value of a result column, as SQLite stored it.
enum SQLiteValue: Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  /// TEXT whose bytes are not UTF-8: never decoded with replacement characters, so that a value
  /// is carried exactly or refused (`byteCount` bytes, the first bad one at `offset`).
  case malformedText(byteCount: Int, offset: Int)

  var integer: Int64? { if case .integer(let i) = self { i } else { nil } }
  var isNull: Bool { if case .null = self { true } else { false } }
  var text: String? { if case .text(let t) = self { t } else { nil } }
  var blob: [UInt8]? { if case .blob(let b) = self { b } else { nil } }

  var typeName: String {
    switch self {
    case .null: "NULL"
    case .integer: "INTEGER"
    case .real: "REAL"
    case .text, .malformedText: "TEXT"
    case .blob: "BLOB"
    }
  }
}

/// A prepared statement; finalized when dropped.
final class SQLiteStatement {
  private let statement: OpaquePointer
  private let database: SQLiteDatabase

  init(_ statement: OpaquePointer, database: SQLiteDatabase) {
    self.statement = statement
    self.database = database
  }

  deinit { sqlite3_finalize(statement) }

  /// Advances to the next row; false when there is none.
  func step() throws(SQLiteDatabase.Failure) -> Bool {
    switch sqlite3_step(statement) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw SQLiteDatabase.Failure(message: database.lastError)
    }
  }

  func reset() {
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
  }

  /// Makes the statement ready to run again, keeping its bindings (for a caller that binds
  /// every parameter each time).
  func rewind() { sqlite3_reset(statement) }

  var columnCount: Int { Int(sqlite3_column_count(statement)) }

  func isNull(_ i: Int) -> Bool { sqlite3_column_type(statement, Int32(i)) == SQLITE_NULL }

  func int64(_ i: Int) -> Int64 { sqlite3_column_int64(statement, Int32(i)) }

  func value(_ i: Int) -> SQLiteValue {
    let c = Int32(i)
    switch sqlite3_column_type(statement, c) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, c))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, c))
    case SQLITE_TEXT:
      let n = Int(sqlite3_column_bytes(statement, c))
      guard let p = sqlite3_column_text(statement, c) else { return .text("") }
      let bytes = UnsafeBufferPointer(start: p, count: n)
      if let s = UTF8Validation.string(bytes) { return .text(s) }
      return .malformedText(byteCount: n, offset: Self.firstInvalidUTF8(bytes))
    case SQLITE_BLOB:
      let n = Int(sqlite3_column_bytes(statement, c))
      guard n > 0, let p = sqlite3_column_blob(statement, c) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: p, count: n)))
    default: return .null
    }
  }

  /// About what the current row takes: 8 bytes per column, and the bytes of its texts and
  /// BLOBs (what a run in chunks counts against its budget).
  func storedBytes() -> Int {
    var total = 0
    for c in 0..<sqlite3_column_count(statement) {
      let type = sqlite3_column_type(statement, c)
      total += type == SQLITE_TEXT || type == SQLITE_BLOB ? 8 + Int(sqlite3_column_bytes(statement, c)) : 8
    }
    return total
  }

  /// The bytes of column `i` when it holds a BLOB (nil otherwise), valid only inside `body`:
  /// read without copying them into an array.
  func withBlob<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
    let c = Int32(i)
    guard sqlite3_column_type(statement, c) == SQLITE_BLOB else { return nil }
    let n = Int(sqlite3_column_bytes(statement, c))
    return body(UnsafeRawBufferPointer(start: n > 0 ? sqlite3_column_blob(statement, c) : nil, count: n))
  }

  func bind(_ i: Int, _ v: SQLiteValue) throws(SQLiteDatabase.Failure) {
    let c = Int32(i + 1)
    let rc: Int32
    switch v {
    case .null: rc = sqlite3_bind_null(statement, c)
    case .integer(let n): rc = sqlite3_bind_int64(statement, c, n)
    case .real(let d): rc = sqlite3_bind_double(statement, c, d)
    case .text(let s): return try bindText(i, s)  // with its length: a U+0000 inside is kept
    case .blob(let b):
      rc = b.withUnsafeBytes { sqlite3_bind_blob(statement, c, $0.baseAddress, Int32($0.count), csqlite_transient()) }
    case .malformedText: throw SQLiteDatabase.Failure(message: "text that is not UTF-8 cannot be written")
    }
    if rc != SQLITE_OK { throw SQLiteDatabase.Failure(message: database.lastError) }
  }

  // Binding without building a `SQLiteValue` first: the writer's per-cell path.

  func bindNull(_ i: Int) throws(SQLiteDatabase.Failure) {
    try check(sqlite3_bind_null(statement, Int32(i + 1)))
  }

  func bindInteger(_ i: Int, _ n: Int64) throws(SQLiteDatabase.Failure) {
    try check(sqlite3_bind_int64(statement, Int32(i + 1), n))
  }

  func bindReal(_ i: Int, _ d: Double) throws(SQLiteDatabase.Failure) {
    try check(sqlite3_bind_double(statement, Int32(i + 1), d))
  }

  /// Binds UTF-8 text that stays valid and unchanged until the statement is stepped (SQLite
  /// does not copy it).
  func bindTextNoCopy(_ i: Int, _ utf8: UnsafeRawBufferPointer) throws(SQLiteDatabase.Failure) {
    try bindText(i, utf8, destructor: csqlite_static())
  }

  /// Binds UTF-8 text that SQLite copies.
  func bindTextCopy(_ i: Int, _ utf8: UnsafeRawBufferPointer) throws(SQLiteDatabase.Failure) {
    try bindText(i, utf8, destructor: csqlite_transient())
  }

  private func bindText(
    _ i: Int, _ utf8: UnsafeRawBufferPointer, destructor: sqlite3_destructor_type?
  ) throws(SQLiteDatabase.Failure) {
    guard let p = utf8.baseAddress, utf8.count > 0 else {
      return try check(csqlite_bind_empty_text(statement, Int32(i + 1)))
    }
    try check(
      sqlite3_bind_text(statement, Int32(i + 1), p.assumingMemoryBound(to: CChar.self), Int32(utf8.count), destructor))
  }

  /// Binds text that SQLite copies.
  func bindText(_ i: Int, _ s: String) throws(SQLiteDatabase.Failure) {
    var s = s
    let rc = s.withUTF8 { u in
      guard let p = u.baseAddress, u.count > 0 else { return csqlite_bind_empty_text(statement, Int32(i + 1)) }
      return sqlite3_bind_text(
        statement, Int32(i + 1), UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self), Int32(u.count),
        csqlite_transient())
    }
    try check(rc)
  }

  private func check(_ rc: Int32) throws(SQLiteDatabase.Failure) {
    if rc != SQLITE_OK { throw SQLiteDatabase.Failure(message: database.lastError) }
  }
}

extension SQLiteStatement {
  /// The offset of the first byte that breaks UTF-8.
  static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
    return offset
  }
}
