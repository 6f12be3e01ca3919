import Foundation
import MapRuntime

/// `mapc store check`: what would make Core Data fail or lose data on opening a store, found by
/// SQL over the store (Specs/store-check.md). The layout is compared with the one
/// `CoreDataSchema` derives for the model (the writer's, the only generator of it); rows are
/// checked by queries that stream (LEFT JOIN / NOT EXISTS for references, GROUP BY for
/// positions), never by tables read into memory. The store is only read.
public struct StoreCheck {
  /// Rows listed one by one for one check of one column; the others are counted in one finding.
  public static let rowsListed = 20

  let store: CoreDataStoreFile
  let schema: CoreDataSchema
  let frameworkVersion: Int64
  /// Table → its columns, as the store has them.
  let tables: [String: [String]]
  var sink = StoreFindingSink(limit: StoreCheck.rowsListed)

  init(store: CoreDataStoreFile, model: ObjectModel) throws(MigrationFailure) {
    self.store = store
    self.schema = CoreDataSchema(model: model)
    let metadata = try CoreDataMetadata.read(store)
    frameworkVersion =
      metadata.plist.first { $0.key == "NSPersistenceFrameworkVersion" }?.value.integerValue
      ?? CoreDataMetadataOut.defaultFrameworkVersion
    tables = try store.tables()
  }

  /// The findings of the store at `path` read with `model` (the version its metadata names),
  /// sorted by table, column and row.
  public static func run(storeAt path: String, model: ObjectModel) throws(MigrationFailure) -> [StoreFinding] {
    let store = try CoreDataStoreFile(path: path)
    var check = try StoreCheck(store: store, model: model)
    try check.runAll()
    return check.sink.findings.sorted(by: StoreFinding.ordered)
  }

  /// The entity version hashes `Z_METADATA` records (entity → base64), for the caller that
  /// matches them with model versions.
  public static func metadataHashes(storeAt path: String) throws(MigrationFailure) -> [String: String] {
    let store = try CoreDataStoreFile(path: path)
    var result: [String: String] = [:]
    for h in try CoreDataMetadata.read(store).hashes { result[h.entity] = Base64Codec.encode(h.hash) }
    return result
  }

  mutating func runAll() throws(MigrationFailure) {
    try integrity()
    if let problem = schema.nameProblem() {
      sink.add(StoreFinding("check-layout-table", .error, problem, repair: "none: the model cannot be laid out"))
      return
    }
    try layout()
    try primaryKeys()
    try rowEntities()
    try danglingToOne()
    try entityKeys()
    try danglingJoinRows()
    try orderCollisions()
    try mandatoryValues()
    try derivedTriggers()
    try values()
  }

  /// SQLite's own `PRAGMA integrity_check`, its first 100 messages.
  mutating func integrity() throws(MigrationFailure) {
    for row in try store.query("PRAGMA integrity_check(100)", what: "SQLite's integrity check") {
      guard let text = row.first?.text, text != "ok" else { continue }
      sink.add(
        StoreFinding(
          "check-integrity", .error, "SQLite's integrity check: \(text)",
          repair: "none by itself: an index the layout check also finds wrong is made again"))
    }
  }

  /// Runs `sql`, calling `body` with each row (streamed).
  static func each(
    _ store: CoreDataStoreFile, _ sql: String, what: String, _ body: ([SQLiteValue]) -> Void
  ) throws(MigrationFailure) {
    do {
      let s = try store.database.prepare(sql)
      while try s.step() { body((0..<s.columnCount).map { s.value($0) }) }
    } catch {
      throw store.failure("sqlite-unreadable", "cannot read \(what): \(error.message)")
    }
  }

  /// Whether `table` has every one of `columns` (a check skips what the layout check reports).
  func has(_ table: String, _ columns: [String]) -> Bool {
    guard let have = tables[table] else { return false }
    return columns.allSatisfy { have.contains($0) }
  }

  /// The `Z_ENT` numbers of `entity` and its sub-entities, as SQL `(1, 2)`.
  func kinds(_ entity: String) -> String {
    let numbers = schema.entities.filter { schema.model.isKind($0.name, of: entity) }.map { String($0.number) }
    return "(" + (numbers.isEmpty ? "NULL" : numbers.joined(separator: ", ")) + ")"
  }

  /// The name of entity `Z_ENT` = `number`, when it is one.
  func entityName(_ number: SQLiteValue) -> String? {
    number.integer.flatMap { schema.entity(number: Int($0))?.name }
  }

  static func q(_ name: String) -> String { SQLiteDatabase.quote(name) }
}

/// Findings as they are found: each check of one column lists its first rows one by one and
/// counts the rest in one finding, so that a store with a million bad rows makes a short report.
struct StoreFindingSink {
  let limit: Int
  private(set) var findings: [StoreFinding] = []
  private var listed: [String: Int] = [:]
  private var more: [String: Int] = [:]

  init(limit: Int) { self.limit = limit }

  mutating func add(_ f: StoreFinding) {
    let key = "\(f.id)\u{0}\(f.table ?? "")\u{0}\(f.column ?? "")"
    let n = listed[key, default: 0]
    if n < limit || f.row == nil {
      listed[key] = n + 1
      findings.append(f)
      return
    }
    if let k = more[key] {
      findings[k].count += 1
      findings[k].message = "\(findings[k].count) more rows like the ones above"
    } else {
      more[key] = findings.count
      var rest = f
      rest.row = nil
      rest.entity = nil
      rest.message = "1 more row like the ones above"
      findings.append(rest)
    }
  }
}
