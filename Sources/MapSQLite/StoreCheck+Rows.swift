import MapRuntime

/// The row checks: primary key counters, entity numbers, references, positions and mandatory
/// values, each one query that streams.
extension StoreCheck {
  /// A root's `Z_PRIMARYKEY.Z_MAX` below the largest `Z_PK` of its table (its sub-entities
  /// share it): Core Data's next insert takes a number already used, and the save fails.
  mutating func primaryKeys() throws(MigrationFailure) {
    guard has("Z_PRIMARYKEY", ["Z_ENT", "Z_MAX"]) else { return }
    for root in schema.roots {
      let e = schema.entities[root]
      guard has(e.table, ["Z_PK"]) else { continue }
      let sql =
        "SELECT (SELECT max(Z_PK) FROM \(Self.q(e.table))), (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(e.number)), "
        + "(SELECT count(*) FROM Z_PRIMARYKEY WHERE Z_ENT = \(e.number))"
      try Self.each(store, sql, what: "Z_PRIMARYKEY") { row in
        let high = row[0].integer ?? 0
        let counter = row[1].integer ?? 0
        if row[2].integer == 0 {
          sink.add(
            StoreFinding(
              "check-primary-key-max", .error, "Z_PRIMARYKEY has no row for entity \(e.number) (\(e.name))",
              table: "Z_PRIMARYKEY", entity: e.name, repair: "the row is added with Z_MAX \(high)", fix: .safe))
        } else if counter < high {
          sink.add(
            StoreFinding(
              "check-primary-key-max", .error,
              "Z_MAX is \(counter), below the largest Z_PK \(high) of \(e.table): Core Data's next insert reuses a Z_PK and the save fails",
              table: "Z_PRIMARYKEY", entity: e.name, repair: "Z_MAX raised to \(high)", fix: .safe))
        }
      }
    }
  }

  /// Rows whose `Z_ENT` names no entity, an abstract one, or one whose rows live in another table.
  mutating func rowEntities() throws(MigrationFailure) {
    for root in schema.roots {
      let e = schema.entities[root]
      guard has(e.table, ["Z_PK", "Z_ENT"]) else { continue }
      let concrete = schema.hierarchy(root).filter { schema.model.entity(named: $0.name)?.isAbstract == false }
      let list = concrete.map { String($0.number) }.joined(separator: ", ")
      let sql =
        "SELECT Z_PK, Z_ENT FROM \(Self.q(e.table)) WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(list.isEmpty ? "NULL" : list)) ORDER BY Z_PK"
      try Self.each(store, sql, what: "the rows of \(e.table)") { row in
        let number = row[1].integer
        let named = number.flatMap { schema.entity(number: Int($0)) }
        let why: String
        if let named, named.table != e.table {
          why = "names entity \(named.name), whose rows are in \(named.table)"
        } else if let named {
          why = "names entity \(named.name), which is abstract"
        } else {
          why = number.map { "names no entity of the model (\($0))" } ?? "is NULL"
        }
        sink.add(
          StoreFinding(
            "check-row-entity", .error, "Z_ENT \(why): Core Data cannot make an object of the row",
            table: e.table, row: row[0].integer, entity: named?.name,
            repair: "the row is deleted with --allow-data-loss (its values are lost); not repaired otherwise",
            fix: .withConsent(name: nil)))
      }
    }
  }

  /// A stored key as a message shows it: `4`, `4.5`, `'text'`, `a blob of 3 bytes`.
  static func shown(_ v: SQLiteValue) -> String {
    switch v {
    case .integer(let i): "\(i)"
    case .real(let d): "\(d)"
    case .text(let t): "'\(t)'"
    case .blob(let b): "a blob of \(b.count) bytes"
    case .null: "NULL"
    case .malformedText(let n, _): "a text of \(n) bytes that is not UTF-8"
    }
  }

  /// To-one references (and the hidden keys of to-many relationships without inverse) naming no row.
  mutating func danglingToOne() throws(MigrationFailure) {
    for r in schema.referenceColumns()
    where has(r.table, ["Z_PK", "Z_ENT", r.column]) && has(r.target, ["Z_PK", "Z_ENT"]) {
      let sql =
        "SELECT a.Z_PK, a.Z_ENT, a.\(Self.q(r.column)) FROM \(Self.q(r.table)) a WHERE \(StoreCheckSQL.dangling(r, schema, alias: "a")) ORDER BY a.Z_PK"
      let what =
        r.hidden
        ? "the hidden key of \(r.entity).\(r.relationship) (a to-many without inverse)"
        : "\(r.entity).\(r.relationship)"
      try Self.each(store, sql, what: "\(r.table).\(r.column)") { row in
        sink.add(
          StoreFinding(
            "check-dangling-to-one", .error,
            "\(what) names Z_PK \(Self.shown(row[2])) of \(r.target), which has no such row of \(r.targetEntity) (or a sub-entity): the fault fails when fired",
            table: r.table, column: r.column, row: row[0].integer, entity: entityName(row[1]),
            repair: r.isOptional
              ? "set to NULL (the relationship is optional)"
              : "none: the relationship is mandatory, and NULL would fail the next save",
            fix: r.isOptional ? .safe : .none))
      }
    }
  }

  /// A to-one whose destination has sub-entities keeps the target's `Z_ENT` beside its
  /// `Z_PK`: when it is not the `Z_ENT` of the row named, the fault is made for another entity.
  mutating func entityKeys() throws(MigrationFailure) {
    for r in schema.referenceColumns() {
      guard let key = r.entityKey, has(r.table, ["Z_PK", "Z_ENT", r.column, key]), has(r.target, ["Z_PK", "Z_ENT"])
      else { continue }
      let sql =
        "SELECT a.Z_PK, a.Z_ENT, a.\(Self.q(key)), (SELECT b.Z_ENT FROM \(Self.q(r.target)) b WHERE b.Z_PK = a.\(Self.q(r.column))) "
        + "FROM \(Self.q(r.table)) a WHERE \(StoreCheckSQL.wrongEntityKey(r, key: key, alias: "a")) "
        + "AND NOT (\(StoreCheckSQL.dangling(r, schema, alias: "a"))) ORDER BY a.Z_PK"
      try Self.each(store, sql, what: "\(r.table).\(key)") { row in
        let said = row[2].integer.map(String.init) ?? "NULL"
        let real = row[3].integer.map(String.init) ?? "NULL"
        sink.add(
          StoreFinding(
            "check-entity-key", .error,
            "\(r.entity).\(r.relationship) says its row is of Z_ENT \(said), but the row it names is of Z_ENT \(real): the fault is made for the wrong entity",
            table: r.table, column: key, row: row[0].integer, entity: entityName(row[1]),
            repair: "set to the Z_ENT of the row named", fix: .safe))
      }
    }
  }

  /// Many-to-many rows either of whose keys names no row.
  mutating func danglingJoinRows() throws(MigrationFailure) {
    for j in schema.joinReferences(frameworkVersion: frameworkVersion)
    where has(j.join.name, [j.join.firstColumn, j.join.secondColumn]) && has(j.firstTarget, ["Z_PK"])
      && has(j.secondTarget, ["Z_PK"])
    {
      let (f, s) = (Self.q(j.join.firstColumn), Self.q(j.join.secondColumn))
      let sql =
        "SELECT a.\(f), a.\(s) FROM \(Self.q(j.join.name)) a WHERE \(StoreCheckSQL.orphan(j, schema, alias: "a")) ORDER BY a.\(f), a.\(s)"
      try Self.each(store, sql, what: "the rows of \(j.join.name)") { row in
        let (x, y) = (row[0].integer.map(String.init) ?? "NULL", row[1].integer.map(String.init) ?? "NULL")
        sink.add(
          StoreFinding(
            "check-dangling-join", .error,
            "the link (\(j.join.firstColumn) \(x), \(j.join.secondColumn) \(y)) of \(j.join.owner).\(j.join.relationship.name) names a row that does not exist",
            table: j.join.name, entity: j.join.owner,
            repair: "the join row is deleted (it links to nothing)", fix: .safe))
      }
    }
  }

  /// Two members of one ordered relationship at one position: their order is lost.
  mutating func orderCollisions() throws(MigrationFailure) {
    for g in StoreCheckSQL.orderGroups(schema, frameworkVersion: frameworkVersion)
    where has(g.table, [g.owner, g.position]) {
      let (o, p) = (Self.q(g.owner), Self.q(g.position))
      let sql =
        "SELECT \(o), \(p), count(*) FROM \(Self.q(g.table)) WHERE \(o) IS NOT NULL AND \(p) IS NOT NULL "
        + "GROUP BY \(o), \(p) HAVING count(*) > 1 ORDER BY \(o), \(p)"
      try Self.each(store, sql, what: "the positions of \(g.table).\(g.position)") { row in
        sink.add(
          StoreFinding(
            "check-ordered-collision", .warning,
            "\(row[2].integer ?? 0) members of \(g.entity).\(g.relationship) of Z_PK \(row[0].integer ?? 0) share position \(row[1].integer ?? 0): their order is not known",
            table: g.table, column: g.position, row: row[0].integer, entity: g.entity,
            repair: "the owner's members are numbered again in the order of their positions, then of their rows",
            fix: .safe))
      }
    }
  }

  /// Mandatory attributes and to-one relationships that are NULL: Core Data opens the store and
  /// fetches the object, but validation fails the next save or heavyweight migration.
  mutating func mandatoryValues() throws(MigrationFailure) {
    for t in schema.tables() {
      for c in t.columns {
        let entity: String
        let name: String
        switch c.role {
        case .attribute(let e, let a) where !a.isOptional && !a.isTransient && !a.isDerived:
          (entity, name) = (e, a.name)
        case .foreignKey(let e, let r) where !r.isOptional:
          (entity, name) = (e, r.name)
        default: continue
        }
        guard has(t.name, ["Z_PK", "Z_ENT", c.name]) else { continue }
        let sql =
          "SELECT Z_PK, Z_ENT FROM \(Self.q(t.name)) WHERE \(Self.q(c.name)) IS NULL AND Z_ENT IN \(kinds(entity)) ORDER BY Z_PK"
        try Self.each(store, sql, what: "\(t.name).\(c.name)") { row in
          sink.add(
            StoreFinding(
              "check-mandatory-null", .warning,
              "\(entity).\(name) is mandatory and NULL: the store opens, but the next save of the object or a heavyweight migration fails validation",
              table: t.name, column: c.name, row: row[0].integer, entity: entityName(row[1]),
              repair: "none: the value is not known"))
        }
      }
    }
  }
}
