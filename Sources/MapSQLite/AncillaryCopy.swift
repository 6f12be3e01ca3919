import MapRuntime

/// Core Data's own tables of a store (persistent history: `ACHANGE`, `ATRANSACTION`,
/// `ATRANSACTIONSTRING`; CloudKit mirroring: `ANSCK…`), copied into a new store that holds the
/// same objects under the same keys and entity numbers (a conversion, Specs/sqlite-store.md
/// §4.1): each table as the source declares it, its rows as they are, its indexes, and the
/// `Z_PRIMARYKEY` rows of the history entities, after the model's tables, as Core Data places
/// them.
enum AncillaryCopy {
  static func copy(from path: String, into db: SQLiteDatabase) throws {
    let source: CoreDataStoreFile
    do {
      source = try CoreDataStoreFile(path: path)
    } catch {
      throw CoreDataWriter.Failure(message: "cannot read \(path) for its history tables: \(error)")
    }
    let keys = try source.database.rows(
      "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT >= \(CoreDataStoreFile.firstAncillaryEntity) ORDER BY Z_ENT"
    )
    var wanted = Set(keys.compactMap { $0[1].text.map { "A" + $0 } })
    let master = try source.database.rows(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
    for row in master where row[0].text == "table" {
      if let name = row[1].text, name.hasPrefix("ANSCK") { wanted.insert(name) }
    }
    let tables = master.filter { $0[0].text == "table" && wanted.contains($0[1].text ?? "") }
    guard !tables.isEmpty || !keys.isEmpty else { return }
    for t in tables {
      guard let name = t[1].text, let sql = t[3].text else { continue }
      try db.execute(sql)
      try copyRows(of: name, from: source.database, into: db)
    }
    for i in master where i[0].text == "index" && wanted.contains(i[2].text ?? "") {
      if let sql = i[3].text { try db.execute(sql) }
    }
    let insert = try db.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
    for k in keys {
      insert.reset()
      for (i, v) in k.enumerated() { try insert.bind(i, v) }
      _ = try insert.step()
    }
  }

  /// Every row of `table`, value for value (a text that is not UTF-8 is refused by `bind`).
  private static func copyRows(of table: String, from source: SQLiteDatabase, into db: SQLiteDatabase) throws {
    let quoted = SQLiteDatabase.quote(table)
    let select = try source.prepare("SELECT * FROM \(quoted) ORDER BY rowid")
    var insert: SQLiteStatement? = nil
    while try select.step() {
      let n = select.columnCount
      if insert == nil {
        insert = try db.prepare(
          "INSERT INTO \(quoted) VALUES (\(Array(repeating: "?", count: n).joined(separator: ", ")))")
      }
      guard let insert else { break }
      insert.reset()
      for i in 0..<n {
        do {
          try insert.bind(i, select.value(i))
        } catch {
          throw CoreDataWriter.Failure(message: "\(table): \(error.message)")
        }
      }
      _ = try insert.step()
    }
  }
}
