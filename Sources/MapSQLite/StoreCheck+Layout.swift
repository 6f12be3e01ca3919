import MapRuntime

/// The layout check: the store's tables, columns and indexes against the statements
/// `CoreDataSchema.createStatements` gives for the model and the store's framework version (the
/// exact text Core Data writes), run in an empty database in memory so that both sides are read
/// back the same way (`PRAGMA table_info`, `sqlite_master`). Core Data's own tables (persistent
/// history, CloudKit mirroring, R-tree indexes) are not the model's and are left out.
extension StoreCheck {
  /// One object of `sqlite_master`.
  struct MasterObject {
    var type: String
    var name: String
    var table: String
    var sql: String
  }

  /// Tables Core Data keeps for itself, whatever the model.
  static func isCoreDatasOwn(_ table: String) -> Bool {
    ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"].contains(table) || table.hasPrefix("ANSCK")
      || table.hasPrefix("Z_RT_") || table.hasPrefix("sqlite_")
  }

  /// Whether a trigger is one of Core Data's for derived attributes (`Z_DA_…`, reference §6).
  static func isDerivedAttributeTrigger(type: String, name: String) -> Bool {
    type == "trigger" && name.hasPrefix("Z_DA_")
  }

  static func master(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) -> [String: MasterObject] {
    var result: [String: MasterObject] = [:]
    for r in try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_master") {
      let t = r.map { $0.text ?? "" }
      // Core Data's triggers for derived attributes are its own, not the layout's statements.
      guard !isCoreDatasOwn(t[2]), !t[1].hasPrefix("sqlite_"), !isDerivedAttributeTrigger(type: t[0], name: t[1])
      else { continue }
      result[t[1]] = MasterObject(type: t[0], name: t[1], table: t[2], sql: CoreDataSchemaSnapshot.normalized(t[3]))
    }
    return result
  }

  /// `(name, declared type, pk)` of each column of `table`.
  static func columns(_ db: SQLiteDatabase, _ table: String) throws(SQLiteDatabase.Failure) -> [(
    String, String, Int64
  )] {
    try db.rows("PRAGMA table_info(\(q(table)))").map { ($0[1].text ?? "", $0[2].text ?? "", $0[5].integer ?? 0) }
  }

  /// The empty store of the model in memory, made by the writer's statements: the layout, then
  /// the derived attributes' triggers (`Z_DA_…`, which `master` leaves out of the layout).
  func expectedDatabase() throws(SQLiteDatabase.Failure) -> SQLiteDatabase {
    let db = try SQLiteDatabase(path: ":memory:", writable: true, create: true)
    for s in schema.createStatements(frameworkVersion: frameworkVersion) { try db.execute(s) }
    for case let (_, _, sql?) in schema.derivedSQL() {
      for t in sql.triggers { try db.execute(t) }
    }
    return db
  }

  /// Name → normalized SQL of each trigger of `db`.
  static func triggers(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) -> [String: String] {
    var result: [String: String] = [:]
    for r in try db.rows("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'") {
      result[r[0].text ?? ""] = CoreDataSchemaSnapshot.normalized(r[1].text ?? "")
    }
    return result
  }

  /// The entity that owns `table` (a root's table), for placing a finding.
  func tableEntity(_ table: String) -> String? {
    schema.roots.map { schema.entities[$0] }.first { $0.table == table }?.name
  }

  mutating func layout() throws(MigrationFailure) {
    let expected: [String: MasterObject]
    let got: [String: MasterObject]
    let model: SQLiteDatabase
    do {
      model = try expectedDatabase()
      expected = try Self.master(model)
      got = try Self.master(store.database)
    } catch {
      throw store.failure("sqlite-unreadable", "cannot compare the store's layout with the model's: \(error.message)")
    }
    let rebuild = "rebuilt from the model"
    for name in expected.keys.sorted() {
      let e = expected[name]!
      // A uniqueness constraint whose index is missing or not Core Data's: rows that break it
      // are said, and the index cannot be made until they are resolved.
      if e.type == "index", got[name]?.sql != e.sql, try uniqueDuplicates(name, table: e.table) {
        sink.add(
          StoreFinding(
            "check-layout-index", .warning,
            got[name] == nil
              ? "the index \(name) of the model's layout is missing"
              : "the index \(name) differs from the model's layout",
            table: e.table, entity: tableEntity(e.table),
            repair: "none: rows break its uniqueness constraint (check-unique-duplicate); resolve them first"))
        continue
      }
      guard let g = got[name] else {
        let what = e.type == "table" ? "table" : "index"
        sink.add(
          StoreFinding(
            e.type == "table" ? "check-layout-table" : "check-layout-index", e.type == "table" ? .error : .warning,
            "the \(what) \(name) of the model's layout is missing", table: e.table, entity: tableEntity(e.table),
            repair: "\(rebuild): the \(what) is created\(e.type == "table" ? " empty" : "")", fix: .safe))
        continue
      }
      guard g.sql != e.sql else { continue }
      if e.type == "table" {
        try compareColumns(name, model)
      } else {
        sink.add(
          StoreFinding(
            "check-layout-index", .warning, "the index \(name) differs from the model's layout: \(g.sql)",
            table: e.table, entity: tableEntity(e.table), repair: "\(rebuild): the index is created again", fix: .safe))
      }
    }
    for name in got.keys.sorted() where expected[name] == nil {
      let g = got[name]!
      sink.add(
        StoreFinding(
          g.type == "table" ? "check-layout-table" : "check-layout-index", .note,
          "the \(g.type) \(name) is not in the model's layout (Core Data does not use it)", table: g.table,
          entity: tableEntity(g.table), repair: "none needed: kept as it is"))
    }
  }

  /// Whether rows of `table` share the values of the uniqueness constraint whose index is
  /// `index` (none missing: SQLite's unique index lets NULLs repeat); each group of them is a
  /// `check-unique-duplicate` error, naming its rows. False for an index of no constraint.
  mutating func uniqueDuplicates(_ index: String, table: String) throws(MigrationFailure) -> Bool {
    guard let t = schema.tables().first(where: { $0.name == table }),
      let u = schema.uniqueIndexes(of: t, frameworkVersion: frameworkVersion).first(where: { $0.name == index }),
      has(table, u.columns)
    else { return false }
    let columns = u.columns.map { Self.q($0) }
    let sql =
      "SELECT group_concat(Z_PK, ', '), count(*) FROM \(Self.q(table)) WHERE "
      + columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
      + " GROUP BY \(columns.joined(separator: ", ")) HAVING count(*) > 1 ORDER BY min(Z_PK) LIMIT 20"
    let groups: [[SQLiteValue]]
    do {
      groups = try store.database.rows(sql)
    } catch {
      throw store.failure("sqlite-unreadable", "cannot read \(table) for its uniqueness constraint: \(error.message)")
    }
    for g in groups {
      sink.add(
        StoreFinding(
          "check-unique-duplicate", .error,
          "rows \(g[0].text ?? "?") of \(table) share their \(u.columns.joined(separator: ", ")), which the uniqueness constraint of \(index) forbids: Core Data's next save of them fails, and the index cannot be made",
          table: table, entity: tableEntity(table), count: Int(g[1].integer ?? 2),
          repair: "none: which row to keep is the app's to decide"))
    }
    return !groups.isEmpty
  }

  /// Derived attributes: Core Data keeps their values up to date with triggers it creates with
  /// the table (`Z_DA_…`, calling functions it registers on its own connection), which mapc
  /// writes too (`CoreDataSchema.derivedSQL`, `Specs/sqlite-store.md` §9). A trigger missing or
  /// not Core Data's SQL means nothing keeps the values right on the device.
  mutating func derivedTriggers() throws(MigrationFailure) {
    let derived = schema.derivedSQL().filter { d in
      schema.entity(named: d.entity).map { has($0.table, [schema.column(d.attribute.name, of: d.entity) ?? ""]) }
        ?? false
    }
    guard !derived.isEmpty else { return }
    let have: [String: String]
    let want: [String: String]
    do {
      have = try Self.triggers(store.database)
      want = try Self.triggers(try expectedDatabase())
    } catch {
      throw store.failure("sqlite-unreadable", "cannot read the store's triggers: \(error.message)")
    }
    for (entity, a, sql) in derived {
      let table = schema.entity(named: entity)?.table ?? ""
      let column = schema.column(a.name, of: entity)
      let expression = a.derivationExpression ?? "no expression"
      guard let sql else {
        sink.add(
          StoreFinding(
            "check-derived-trigger", .warning,
            "\(entity).\(a.name) is derived from \(expression), which Core Data's SQLite store does not support (it refuses to open a store of this model)",
            table: table, column: column, entity: entity, repair: "none: change the model"))
        continue
      }
      let missing = sql.triggerNames.filter { have[$0] == nil }
      let different = sql.triggerNames.filter { have[$0] != nil && have[$0] != want[$0] }
      guard !missing.isEmpty || !different.isEmpty else { continue }
      var parts: [String] = []
      if !missing.isEmpty { parts.append("has no \(missing.joined(separator: ", "))") }
      if !different.isEmpty { parts.append("has \(different.joined(separator: ", ")) not as Core Data makes it") }
      sink.add(
        StoreFinding(
          "check-derived-trigger", .warning,
          "\(entity).\(a.name) is derived (\(expression)), but \(table) \(parts.joined(separator: " and ")): Core Data keeps the values up to date with these triggers, which it creates with the table, so nothing updates them on the device",
          table: table, column: column, entity: entity,
          repair: "none: write the store again with mapc (store convert) to get Core Data's triggers"))
    }
  }

  mutating func compareColumns(_ table: String, _ model: SQLiteDatabase) throws(MigrationFailure) {
    let want: [(String, String, Int64)]
    let have: [(String, String, Int64)]
    do {
      want = try Self.columns(model, table)
      have = try Self.columns(store.database, table)
    } catch {
      throw store.failure("sqlite-unreadable", "cannot read the columns of \(table): \(error.message)")
    }
    let entity = tableEntity(table)
    var found = false
    for w in want {
      guard let h = have.first(where: { $0.0 == w.0 }) else {
        found = true
        sink.add(
          StoreFinding(
            "check-layout-column", .error, "the column \(w.0) (\(w.1)) of the model's layout is missing",
            table: table, column: w.0, entity: entity, repair: "rebuilt from the model: the column is added, NULL",
            fix: .safe))
        continue
      }
      if h.1 != w.1 || h.2 != w.2 {
        found = true
        sink.add(
          StoreFinding(
            "check-layout-column", .error,
            "the column \(w.0) is declared \(h.1)\(h.2 > 0 ? " (a key)" : ""); the model's layout declares \(w.1)\(w.2 > 0 ? " (a key)" : "")",
            table: table, column: w.0, entity: entity,
            repair: "none: SQLite cannot change a column's type in place, and its values may not fit"))
      }
    }
    for h in have where !want.contains(where: { $0.0 == h.0 }) {
      found = true
      sink.add(
        StoreFinding(
          "check-layout-column", .note, "the column \(h.0) is not in the model's layout (Core Data does not read it)",
          table: table, column: h.0, entity: entity, repair: "none needed: kept as it is"))
    }
    if !found {
      sink.add(
        StoreFinding(
          "check-layout-column", .note,
          "the table's columns are the model's, in another order or with other constraints", table: table,
          entity: entity, repair: "none needed: kept as it is"))
    }
  }
}

extension StoreCheck {
  /// Table → column → declared type, of the model's layout.
  static func columnsOf(
    _ schema: CoreDataSchema, frameworkVersion: Int64
  ) throws(SQLiteDatabase.Failure) -> [String: [String: String]] {
    let db = try SQLiteDatabase(path: ":memory:", writable: true, create: true)
    for s in schema.createStatements(frameworkVersion: frameworkVersion) { try db.execute(s) }
    var result: [String: [String: String]] = [:]
    for name in try Self.master(db).values.filter({ $0.type == "table" }).map(\.name) {
      for c in try columns(db, name) { result[name, default: [:]][c.0] = c.1 }
    }
    return result
  }
}
