import Foundation
import MapRuntime

/// `mapc store repair`: a copy of a store (SQLite's `VACUUM INTO`: every row and its `Z_PK`
/// kept) with the repairs of `StoreCheck`'s findings applied in one transaction, each by the
/// same SQL condition the check used, so that every row the check would report is repaired,
/// listed or counted. The input is only read; the copy replaces `output` atomically
/// (`SQLiteReplacement`), its external data files beside it.
public struct StoreRepair {
  /// One kind of change made, with the rows it touched.
  public struct Change: Sendable, Equatable {
    public var id: String
    public var what: String
    public var rows: Int
  }

  /// What losses the user accepted (`--allow-data-loss`, `--allow-drop NAME`).
  public struct Consent: Sendable {
    public var all: Bool
    public var names: Set<String>

    public init(all: Bool, names: [String]) {
      self.all = all
      self.names = Set(names)
    }

    /// Whether a finding's repair may be made.
    public func allows(_ fix: StoreFinding.Fix) -> Bool {
      switch fix {
      case .none: false
      case .safe: true
      case .withConsent(let name): all || name.map { names.contains($0) || names.contains(entityPart($0)) } ?? false
      }
    }

    private func entityPart(_ name: String) -> String { String(name.prefix { $0 != "." }) }
  }

  let source: CoreDataStoreFile
  let schema: CoreDataSchema
  let frameworkVersion: Int64
  let findings: [StoreFinding]
  let consent: Consent
  var changes: [Change] = []

  /// Writes the repaired copy of the store at `path` (read with `model`, the version its
  /// metadata names) to `output`, for `findings` (the check's, of that store) whose repair
  /// `consent` allows. Returns the changes made.
  public static func repair(
    storeAt path: String, model: ObjectModel, findings: [StoreFinding], consent: Consent, to output: String
  ) throws(MigrationFailure) -> [Change] {
    let store = try CoreDataStoreFile(path: path)
    let check = try StoreCheck(store: store, model: model)
    var repair = StoreRepair(
      source: store, schema: check.schema, frameworkVersion: check.frameworkVersion, findings: findings,
      consent: consent)
    let external = ExternalCopy.files(ofStore: path)
    try SQLiteReplacement.replace(output, backup: nil, external: { external }) {
      (temporary: String) throws(MigrationFailure) in
      do throws(SQLiteDatabase.Failure) {
        try store.database.execute("VACUUM INTO \(Self.literal(temporary))")
        let db = try SQLiteDatabase(path: temporary, writable: true)
        // A store Core Data made may have its triggers for derived attributes, which call them.
        try db.registerCoreDataFunctions(now: ReproducibleClock.now())
        try db.execute("BEGIN")
        try repair.apply(db)
        try db.execute("COMMIT")
        try db.execute("PRAGMA journal_mode = WAL")
      } catch {
        throw MigrationFailure([
          MigrationError("sqlite-write", "cannot write the repaired store: \(error.message)", file: output)
        ])
      }
    }
    return repair.changes
  }

  static func literal(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
  static func q(_ s: String) -> String { SQLiteDatabase.quote(s) }

  /// The findings of `id` whose repair is allowed.
  func wanted(_ id: String) -> [StoreFinding] { findings.filter { $0.id == id && consent.allows($0.fix) } }

  mutating func run(
    _ db: SQLiteDatabase, _ sql: String, id: String, _ what: String
  ) throws(SQLiteDatabase.Failure) {
    try db.execute(sql)
    let n = db.changes
    if n > 0 { changes.append(Change(id: id, what: what, rows: n)) }
  }

  mutating func apply(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
    try layout(db)
    try rowEntities(db)
    try values(db)
    try references(db)
    try positions(db)
    try counters(db)
  }

  /// Missing tables and indexes created by the model's statements, missing columns added.
  mutating func layout(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
    let ids = ["check-layout-table", "check-layout-index", "check-layout-column"]
    let wanted = ids.flatMap(wanted).filter { $0.severity != .note }
    guard !wanted.isEmpty else { return }
    let expected = try StoreCheck.columnsOf(schema, frameworkVersion: frameworkVersion)
    for f in wanted where f.id == ids[2] {
      guard let table = f.table, let column = f.column, let type = expected[table]?[column] else { continue }
      try db.execute("ALTER TABLE \(Self.q(table)) ADD COLUMN \(Self.q(column)) \(type)")
      changes.append(Change(id: ids[2], what: "added \(table).\(column) \(type)", rows: 0))
    }
    let have = try db.rows("SELECT name FROM sqlite_master").compactMap { $0.first?.text }
    for s in schema.createStatements(frameworkVersion: frameworkVersion) {
      let words = s.split(separator: " ")
      let name = String(words[words[1] == "UNIQUE" ? 3 : 2])
      if !have.contains(name), wanted.contains(where: { $0.table == name || $0.message.contains(" \(name) ") }) {
        try db.execute(s)
        if name == "Z_MODELCACHE" { try writeModelCache(db) }
        changes.append(Change(id: s.contains("INDEX") ? ids[1] : ids[0], what: "created \(name)", rows: 0))
      }
    }
    for f in wanted where f.id == ids[1] && f.message.contains(" differs ") {
      guard let name = f.message.split(separator: " ").dropFirst(2).first.map(String.init),
        let s = schema.createStatements(frameworkVersion: frameworkVersion).first(where: {
          $0.contains(" INDEX \(name) ")
        })
      else { continue }
      try db.execute("DROP INDEX \(Self.q(name))")
      try db.execute(s)
      changes.append(Change(id: ids[1], what: "created \(name) again", rows: 0))
    }
  }

  /// The model cache Core Data keeps (`Specs/sqlite-store.md` §7.1), in a `Z_MODELCACHE` made
  /// again: the model the store was checked against, which is the version its metadata names.
  func writeModelCache(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
    do {
      try CoreDataModelCache.write(schema.model, frameworkVersion: frameworkVersion, to: db)
    } catch let e as SQLiteDatabase.Failure {
      throw e
    } catch {
      throw SQLiteDatabase.Failure(message: "cannot write the model cache: \(error)")
    }
  }

  /// Rows whose `Z_ENT` names no entity of their table, deleted (only with consent).
  mutating func rowEntities(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
    let tables = Set(wanted("check-row-entity").compactMap(\.table))
    for root in schema.roots where tables.contains(schema.entities[root].table) {
      let t = schema.entities[root].table
      let list = schema.hierarchy(root).filter { schema.model.entity(named: $0.name)?.isAbstract == false }
        .map { String($0.number) }.joined(separator: ", ")
      try run(
        db, "DELETE FROM \(Self.q(t)) WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(list.isEmpty ? "NULL" : list))",
        id: "check-row-entity", "deleted the rows of \(t) whose Z_ENT names no entity of the table")
    }
  }

  /// Values that do not decode and references to missing external files, set to NULL (only
  /// with consent, optional attributes only).
  mutating func values(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
    let wanted = wanted("check-value-undecodable") + wanted("check-external-missing")
    let columns = Set(wanted.compactMap { f in f.table.flatMap { t in f.column.map { "\(t)\u{0}\($0)" } } })
    let folder = ExternalData.dataFolder(ofStore: source.path)
    for t in schema.tables() {
      for c in t.columns where columns.contains("\(t.name)\u{0}\(c.name)") {
        let a: AttributeDescription
        let entity: String
        switch c.role {
        case .attribute(let e, let x): (entity, a) = (e, x)
        case .element(let e, _, _, let x): (entity, a) = (e, x)
        default: continue
        }
        var keys: [Int64] = []
        let s = try db.prepare(
          "SELECT Z_PK, \(Self.q(c.name)) FROM \(Self.q(t.name)) WHERE \(Self.q(c.name)) IS NOT NULL ORDER BY Z_PK")
        while try s.step() {
          if StoreCheck.problem(s.value(1), a, folder: folder) != nil { keys.append(s.int64(0)) }
        }
        let update = try db.prepare("UPDATE \(Self.q(t.name)) SET \(Self.q(c.name)) = NULL WHERE Z_PK = ?")
        for k in keys {
          update.reset()
          try update.bind(0, .integer(k))
          _ = try update.step()
        }
        if !keys.isEmpty {
          let external = a.type == .binary && a.allowsExternalBinaryDataStorage
          changes.append(
            Change(
              id: external ? "check-external-missing" : "check-value-undecodable",
              what: "set \(t.name).\(c.name) (\(entity)) to NULL where it could not be read",
              rows: keys.count))
        }
      }
    }
  }

  /// Dangling optional to-one references set to NULL (with their entity key and position),
  /// orphan join rows deleted.
  mutating func references(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
    let toOne = Set(wanted("check-dangling-to-one").compactMap { f in f.table.map { "\($0)\u{0}\(f.column ?? "")" } })
    for r in schema.referenceColumns() where r.isOptional && toOne.contains("\(r.table)\u{0}\(r.column)") {
      let set = ([r.column] + r.companions).map { "\(Self.q($0)) = NULL" }.joined(separator: ", ")
      try run(
        db, "UPDATE \(Self.q(r.table)) AS a SET \(set) WHERE \(StoreCheckSQL.dangling(r, schema, alias: "a"))",
        id: "check-dangling-to-one",
        "set \(r.table).\(r.column) (\(r.entity).\(r.relationship)) to NULL where it named no row")
    }
    let keys = Set(wanted("check-entity-key").compactMap { f in f.table.map { "\($0)\u{0}\(f.column ?? "")" } })
    for r in schema.referenceColumns() {
      guard let key = r.entityKey, keys.contains("\(r.table)\u{0}\(key)") else { continue }
      try run(
        db,
        "UPDATE \(Self.q(r.table)) AS a SET \(Self.q(key)) = (SELECT b.Z_ENT FROM \(Self.q(r.target)) b "
          + "WHERE b.Z_PK = a.\(Self.q(r.column))) WHERE \(StoreCheckSQL.wrongEntityKey(r, key: key, alias: "a")) "
          + "AND NOT (\(StoreCheckSQL.dangling(r, schema, alias: "a")))",
        id: "check-entity-key", "set \(r.table).\(key) to the Z_ENT of the row \(r.column) names")
    }
    let joins = Set(wanted("check-dangling-join").compactMap(\.table))
    for j in schema.joinReferences(frameworkVersion: frameworkVersion) where joins.contains(j.join.name) {
      try run(
        db, "DELETE FROM \(Self.q(j.join.name)) AS a WHERE \(StoreCheckSQL.orphan(j, schema, alias: "a"))",
        id: "check-dangling-join", "deleted the rows of \(j.join.name) that link to no row")
    }
  }

  /// The members of an owner with colliding positions numbered 2048, 3072, … in the order of
  /// their positions, then their row.
  mutating func positions(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
    let wanted = Set(
      wanted("check-ordered-collision").compactMap { f in f.table.map { "\($0)\u{0}\(f.column ?? "")" } })
    for g in StoreCheckSQL.orderGroups(schema, frameworkVersion: frameworkVersion)
    where wanted.contains("\(g.table)\u{0}\(g.position)") {
      let (t, o, p) = (Self.q(g.table), Self.q(g.owner), Self.q(g.position))
      let sql = """
        WITH r AS (SELECT rowid AS k, 1024 * (ROW_NUMBER() OVER (PARTITION BY \(o) ORDER BY \(p), rowid) + 1) AS n \
        FROM \(t) WHERE \(o) IN (\(StoreCheckSQL.collidingOwners(table: g.table, owner: g.owner, position: g.position)))) \
        UPDATE \(t) SET \(p) = (SELECT n FROM r WHERE r.k = \(t).rowid) WHERE rowid IN (SELECT k FROM r)
        """
      try run(
        db, sql, id: "check-ordered-collision",
        "numbered again the positions \(g.table).\(g.position) of the owners whose members collided")
    }
  }

  /// `Z_MAX` raised to the largest `Z_PK` of each root's table, missing rows added.
  mutating func counters(_ db: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
    let wanted = Set(wanted("check-primary-key-max").compactMap(\.entity))
    for root in schema.roots where wanted.contains(schema.entities[root].name) {
      let e = schema.entities[root]
      let high = "(SELECT ifnull(max(Z_PK), 0) FROM \(Self.q(e.table)))"
      try run(
        db,
        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT \(e.number), \(Self.literal(e.name)), 0, \(high) "
          + "WHERE NOT EXISTS (SELECT 1 FROM Z_PRIMARYKEY WHERE Z_ENT = \(e.number))",
        id: "check-primary-key-max", "added the Z_PRIMARYKEY row of \(e.name)")
      try run(
        db, "UPDATE Z_PRIMARYKEY SET Z_MAX = \(high) WHERE Z_ENT = \(e.number) AND ifnull(Z_MAX, 0) < \(high)",
        id: "check-primary-key-max", "raised Z_MAX of \(e.name) to the largest Z_PK of \(e.table)")
    }
  }
}
