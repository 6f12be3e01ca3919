import MapRuntime

/// Core Data's SQL for derived attributes (`Specs/sqlite-store.md` §9, "Derived attributes"):
/// the triggers it creates with an entity's table to keep each derived value up to date, and the
/// statement it runs to fill the values of the rows already there. Learnt from Core Data's own
/// SQL generator (`NSSQLDerivedAttributeSQLGenerator`, read in public decompilations) and checked
/// against a real store's `now()` trigger; no store here holds one.
extension CoreDataSchema {
  /// One derived attribute's SQL: its triggers, and the statement that fills its values.
  struct DerivedSQL: Equatable {
    var entity: String
    var attribute: String
    var triggers: [String]
    var fill: String

    /// The triggers' names (`Z_DA_…`).
    var triggerNames: [String] {
      triggers.map { String($0.dropFirst("CREATE TRIGGER IF NOT EXISTS ".count).prefix { $0 != " " }) }
    }
  }

  /// Each derived attribute's SQL, entity by entity in `Z_ENT` order, an entity's attributes by
  /// name; nil for one whose expression Core Data's store does not turn into SQL (Core Data
  /// refuses to open such a store).
  func derivedSQL() -> [(entity: String, attribute: AttributeDescription, sql: DerivedSQL?)] {
    entities.flatMap { e in
      declaredDerived(e).map { a in
        (
          e.name, a,
          derivation(a, of: e).map { DerivedSQL(entity: e.name, attribute: a.name, triggers: $0.0, fill: $0.1) }
        )
      }
    }
  }

  /// The statements that make the derived attributes' triggers and fill their values, in the
  /// order Core Data runs them: for each entity, every trigger of its attributes, then every fill.
  func derivedStatements() -> [String] {
    var result: [String] = []
    var fills: [String] = []
    var entity: String?
    for (e, _, sql) in derivedSQL() {
      guard let sql else { continue }
      if e != entity {
        result += fills
        fills = []
        entity = e
      }
      result += sql.triggers
      fills.append(sql.fill)
    }
    return result + fills
  }

  private func declaredDerived(_ e: Entity) -> [AttributeDescription] {
    (model.entity(named: e.name)?.attributes ?? []).filter { $0.isDerived && !$0.isTransient }.sorted {
      $0.name < $1.name
    }
  }

  /// The highest `Z_ENT` of `e` and the entities under it (numbered depth-first, so they follow it).
  private func lastNumber(_ e: Entity) -> Int {
    entities.filter { model.isKind($0.name, of: e.name) }.map(\.number).max() ?? e.number
  }

  /// Core Data's condition on `Z_ENT` for an entity that shares its table with its parent:
  /// `n = Z_ENT`, or `n <= Z_ENT AND Z_ENT <= m` when it has sub-entities; nil for a root.
  private func kindCondition(_ e: Entity, _ row: String) -> String? {
    guard e.superNumber != 0 else { return nil }
    let last = lastNumber(e)
    return e.number >= last
      ? "\(e.number) = \(row)Z_ENT" : "\(e.number) <= \(row)Z_ENT AND \(row)Z_ENT <= \(last)"
  }

  private static func notice(_ insert: Bool, _ table: String, _ attribute: String, _ column: String) -> String {
    let function =
      insert ? "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue" : "NSCoreDataDATriggerUpdatedAffectedObjectValue"
    return " SELECT \(function)('\(table)', Z_ENT, Z_PK, '\(attribute)', \(column)) FROM \(table)"
  }

  private static let sqlFunctions = [
    "canonical": "NSCoreDataCanonical", "uppercase": "NSCoreDataToUpper", "lowercase": "NSCoreDataToLower",
  ]

  /// The triggers and fill of derived attribute `a` of `e`, or nil when Core Data's store does
  /// not support its expression.
  private func derivation(_ a: AttributeDescription, of e: Entity) -> ([String], String)? {
    guard let text = a.derivationExpression, let form = DerivationForm(text),
      let column = column(a.name, of: e.name), let d = model.entity(named: e.name)
    else { return nil }
    let path: [String]
    let function: String?
    switch form {
    case .now:
      return ownRow(a, e, column: column, token: "NSCoreDataNow()", watched: "Z_OPT")
    case .keyPath(let p): (path, function) = (p, nil)
    case .function(let f, let p): (path, function) = (p, f)
    }
    if let attribute = model.allAttributes(of: d).first(where: { $0.name == path[0] }) {
      guard path.count == 1, attribute.type != .composite, let source = self.column(attribute.name, of: e.name) else {
        return nil
      }
      guard let f = function else { return ownRow(a, e, column: column, token: "NEW.\(source)", watched: source) }
      guard let sql = Self.sqlFunctions[f] else { return nil }
      return ownRow(a, e, column: column, token: "\(sql)(NEW.\(source))", watched: source)
    }
    guard let r = model.allRelationships(of: d).first(where: { $0.name == path[0] }), !r.isTransient,
      let target = entity(named: r.destinationEntity), let destination = model.entity(named: target.name)
    else { return nil }
    if !r.isToMany {
      guard path.count == 2, function.map({ Self.sqlFunctions[$0] != nil }) ?? true,
        model.allAttributes(of: destination).contains(where: { $0.name == path[1] && $0.type != .composite })
      else { return nil }
      return toOne(a, e, column: column, relationship: r, target: target, parameter: path[1], function: function)
    }
    guard let f = function else { return nil }
    if model.isManyToMany(r) {
      guard f == "count", path.count == 1, !model.isSelfInverse(r, of: e.name) else { return nil }
      return manyToManyCount(a, e, column: column, relationship: r)
    }
    guard let inverse = model.inverse(of: r), !inverse.isToMany,
      let key = self.column(inverse.name, of: target.name)
    else { return nil }
    let parameter = path.count == 2 ? model.allAttributes(of: destination).first { $0.name == path[1] } : nil
    if path.count == 2, parameter == nil || parameter?.type == .composite { return nil }
    let parameterColumn = parameter.flatMap { self.column($0.name, of: target.name) }
    switch f {
    case "count" where path.count == 1:
      return toManySum(a, e, column: column, target: target, key: key, counted: nil)
    case "count" where parameter?.type == .boolean, "sum" where parameterColumn != nil:
      return toManySum(a, e, column: column, target: target, key: key, counted: parameterColumn)
    case "min" where parameterColumn != nil, "max" where parameterColumn != nil:
      return toManyExtreme(
        a, e, column: column, target: target, key: key, parameter: parameterColumn!, isMin: f == "min")
    default:
      return nil
    }
  }

  /// A value of the row itself: one of its attributes, a function of one, or the time.
  private func ownRow(_ a: AttributeDescription, _ e: Entity, column: String, token: String, watched: String) -> (
    [String], String
  ) {
    let t = e.table
    let name = "Z_DA_\(t)_\(e.name)_\(a.name)"
    let set = " UPDATE \(t) SET \(column) = \(token) WHERE Z_PK = NEW.Z_PK;"
    let insert =
      "CREATE TRIGGER IF NOT EXISTS \(name)_INSERT AFTER INSERT ON \(t) FOR EACH ROW WHEN (NEW.\(watched) NOT NULL) BEGIN"
      + set + Self.notice(true, t, a.name, column) + " WHERE Z_PK = NEW.Z_PK; END"
    let update =
      "CREATE TRIGGER IF NOT EXISTS \(name)_UPDATE AFTER UPDATE OF \(watched) ON \(t) FOR EACH ROW BEGIN"
      + set + Self.notice(false, t, a.name, column) + " WHERE Z_PK = NEW.Z_PK; END"
    let kinds = e.superNumber != 0 ? "WHERE \(e.number) <= Z_ENT AND Z_ENT <= \(lastNumber(e))" : ""
    let fill = "UPDATE \(t) SET \(column) = \(token.replacingOccurrences(of: "NEW.", with: "")) \(kinds)"
    return ([insert, update], fill)
  }

  /// An attribute of the object a to-one relationship names, or a function of it.
  private func toOne(
    _ a: AttributeDescription, _ e: Entity, column: String, relationship r: RelationshipDescription, target: Entity,
    parameter: String, function: String?
  ) -> ([String], String)? {
    guard let key = self.column(r.name, of: e.name), let p = self.column(parameter, of: target.name) else {
      return nil
    }
    let (t, dt) = (e.table, target.table)
    let sql = function.flatMap { Self.sqlFunctions[$0] }
    let (newToken, selected) = sql.map { ("\($0)(NEW.\(p))", "\($0)(\(p))") } ?? ("NEW.\(p)", p)
    let source = "Z_DA_\(t)_\(e.name)_\(a.name)_SOURCE"
    let parameterName = "Z_DA_\(dt)_\(e.name)_\(a.name)_PARAMETER"
    let and = kindCondition(e, "NEW.").map { " AND \($0)" } ?? ""
    let when = kindCondition(e, "NEW.").map { " WHEN \($0)" } ?? ""
    let andOwn = kindCondition(e, "").map { " AND \($0)" } ?? ""
    let fetch =
      " UPDATE \(t) SET \(column) = (SELECT \(selected) FROM \(dt) WHERE Z_PK = NEW.\(key)) WHERE Z_PK = NEW.Z_PK"
    let push = " UPDATE \(t) SET \(column) = \(newToken) WHERE \(key) = NEW.Z_PK\(andOwn);"
    return (
      [
        "CREATE TRIGGER IF NOT EXISTS \(source)_INSERT AFTER INSERT ON \(t) FOR EACH ROW BEGIN" + fetch + and + ";"
          + Self.notice(true, t, a.name, column) + " WHERE Z_PK = NEW.Z_PK\(and); END",
        "CREATE TRIGGER IF NOT EXISTS \(source)_UPDATE AFTER UPDATE OF \(key) ON \(t) FOR EACH ROW\(when) BEGIN" + fetch
          + ";" + Self.notice(false, t, a.name, column) + " WHERE Z_PK = NEW.Z_PK; END",
        "CREATE TRIGGER IF NOT EXISTS \(parameterName)_INSERT AFTER INSERT ON \(dt) FOR EACH ROW BEGIN" + push
          + Self.notice(true, t, a.name, column) + " WHERE \(key) = NEW.Z_PK\(andOwn); END",
        "CREATE TRIGGER IF NOT EXISTS \(parameterName)_UPDATE AFTER UPDATE OF \(p) ON \(dt) FOR EACH ROW BEGIN" + push
          + Self.notice(false, t, a.name, column) + " WHERE \(key) = NEW.Z_PK\(andOwn); END",
      ],
      // Core Data's fill names both tables alike, which for a relationship within one table
      // reads the inner row's key, and has no condition on Z_ENT: the member's table is aliased
      // and the rows are the entity's own (`Specs/sqlite-store.md` §9).
      "UPDATE \(t) SET \(column) = (SELECT \(sql.map { "\($0)(m.\(p))" } ?? "m.\(p)") FROM \(dt) AS m WHERE m.Z_PK = \(t).\(key))"
        + (kindCondition(e, "").map { " WHERE \($0)" } ?? "")
    )
  }

  /// `@count` of a to-many whose inverse is a to-one (`counted` nil), or `@sum` of an attribute
  /// of its members (`@count` of a Boolean one is its sum too).
  private func toManySum(
    _ a: AttributeDescription, _ e: Entity, column: String, target: Entity, key: String, counted: String?
  ) -> ([String], String) {
    let (t, dt) = (e.table, target.table)
    let up = counted.map { "+ IFNULL(NEW.\($0), 0)" } ?? "+ 1"
    let down = counted.map { "- IFNULL(OLD.\($0), 0)" } ?? "- 1"
    let watched = counted.map { "\(key), \($0)" } ?? key
    let aggregate = counted == nil ? "COUNT(\(key))" : "SUM(\(counted!))"
    let parameter = "Z_DA_\(dt)_\(e.name)_\(a.name)_PARAMETER"
    let source = "Z_DA_\(t)_\(e.name)_\(a.name)_SOURCE"
    let and = kindCondition(e, "").map { " AND \($0)" } ?? ""
    let when = kindCondition(e, "NEW.").map { " WHEN \($0)" } ?? ""
    let whereKinds = kindCondition(e, "").map { " WHERE \($0)" } ?? ""
    func change(_ row: String, _ set: String) -> String {
      " BEGIN UPDATE \(t) SET \(column) = \(set) WHERE Z_PK = \(row).\(key)\(and);"
        + Self.notice(false, t, a.name, column)
        + " WHERE Z_PK = \(row).\(key)\(and); END"
    }
    return (
      [
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_INSERT AFTER INSERT ON \(dt) FOR EACH ROW WHEN (NEW.\(key) NOT NULL)"
          + change("NEW", "IFNULL(\(column), 0) \(up)"),
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_UPDATE_INCREMENT AFTER UPDATE OF \(watched) ON \(dt) FOR EACH ROW WHEN (NEW.\(key) NOT NULL)"
          + change("NEW", "\(column) \(up)"),
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_UPDATE_DECREMENT AFTER UPDATE OF \(watched) ON \(dt) FOR EACH ROW WHEN (OLD.\(key) NOT NULL)"
          + change("OLD", "\(column) \(down)"),
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_DELETE AFTER DELETE ON \(dt) FOR EACH ROW WHEN (OLD.\(key) NOT NULL)"
          + change("OLD", "\(column) \(down)"),
        "CREATE TRIGGER IF NOT EXISTS \(source)_INSERT AFTER INSERT ON \(t) FOR EACH ROW\(when) BEGIN UPDATE \(t) SET \(column) = (SELECT IFNULL(\(aggregate), 0) FROM \(dt) WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK;"
          + Self.notice(true, t, a.name, column) + " WHERE Z_PK = NEW.Z_PK; END",
      ],
      "UPDATE \(t) SET \(column) = (SELECT IFNULL(\(counted == nil ? "COUNT(m.\(key))" : "SUM(m.\(counted!))"), 0) FROM \(dt) AS m WHERE m.\(key) = \(t).Z_PK)\(whereKinds);"
    )
  }

  /// `@min` or `@max` of an attribute of a to-many's members (the inverse a to-one).
  private func toManyExtreme(
    _ a: AttributeDescription, _ e: Entity, column: String, target: Entity, key: String, parameter p: String,
    isMin: Bool
  ) -> ([String], String) {
    let (t, dt) = (e.table, target.table)
    let (op, f) = isMin ? ("<", "MIN") : (">", "MAX")
    let parameter = "Z_DA_\(dt)_\(e.name)_\(a.name)"
    let source = "Z_DA_\(t)_\(e.name)_\(a.name)"
    // Core Data's conditions on the member's kind name a bare Z_ENT, which a trigger's WHEN
    // cannot see ("no such column"): here the row's own, NEW or OLD.
    let newKind = kindCondition(target, "NEW.").map { " AND \($0)" } ?? ""
    let oldKind = kindCondition(target, "OLD.").map { " AND \($0)" } ?? ""
    let ownWhere = kindCondition(e, "").map { " WHERE \($0)" } ?? ""
    let ownWhen = kindCondition(e, "NEW.").map { " WHEN \($0)" } ?? ""
    let ownAnd = kindCondition(e, "").map { " AND \($0)" } ?? ""
    let notice = Self.notice(false, t, a.name, column)
    let recompute =
      " UPDATE \(t) SET \(column) = (SELECT \(f)(\(p)) FROM \(dt) WHERE \(key) = OLD.\(key)) WHERE Z_PK = OLD.\(key)\(ownAnd) AND OLD.\(p) \(op)= \(column);"
    let push =
      " UPDATE \(t) SET \(column) = NEW.\(p) WHERE Z_PK = NEW.\(key)\(ownAnd) AND (\(column) IS NULL OR NEW.\(p) \(op) \(column));"
    let unset =
      " BEGIN" + recompute + notice
      + " WHERE Z_PK = OLD.\(key)\(ownAnd) AND (\(column) IS NULL OR OLD.\(p) \(op)= \(column)); END"
    return (
      [
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_INSERT AFTER INSERT ON \(dt) FOR EACH ROW WHEN (NEW.\(key) NOT NULL AND NEW.\(p) NOT NULL\(newKind)) BEGIN"
          + push + notice
          + " WHERE Z_PK = NEW.\(key)\(ownAnd) AND (\(column) IS NULL OR NEW.\(p) \(op)= \(column)); END",
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_UPDATE_SET AFTER UPDATE OF \(key), \(p) ON \(dt) FOR EACH ROW WHEN (NEW.\(key) NOT NULL AND NEW.\(p) NOT NULL\(newKind)) BEGIN"
          + recompute + notice + " WHERE Z_PK = OLD.\(key)\(ownAnd) AND OLD.\(p) \(op)= \(column);" + push + notice
          + " WHERE Z_PK = NEW.\(key)\(ownAnd) AND NEW.\(p) \(op)= \(column); END",
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_UPDATE_UNSET AFTER UPDATE OF \(key), \(p) ON \(dt) FOR EACH ROW WHEN (OLD.\(key) NOT NULL AND OLD.\(p) NOT NULL AND (NEW.\(key) IS NULL OR NEW.\(p) IS NULL)\(oldKind))"
          + unset,
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_DELETE AFTER DELETE ON \(dt) FOR EACH ROW WHEN (OLD.\(key) NOT NULL AND OLD.\(p) NOT NULL\(oldKind))"
          + unset,
        "CREATE TRIGGER IF NOT EXISTS \(source)_INSERT AFTER INSERT ON \(t) FOR EACH ROW\(ownWhen) BEGIN UPDATE \(t) SET \(column) = (SELECT \(f)(\(p)) FROM \(dt) WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK;"
          + Self.notice(true, t, a.name, column) + " WHERE Z_PK = NEW.Z_PK; END",
      ],
      "UPDATE \(t) SET \(column) = (SELECT \(f)(m.\(p)) FROM \(dt) AS m WHERE m.\(key) = \(t).Z_PK)\(ownWhere);"
    )
  }

  /// `@count` of a many-to-many relationship, kept from its join table.
  private func manyToManyCount(
    _ a: AttributeDescription, _ e: Entity, column: String, relationship r: RelationshipDescription
  )
    -> ([String], String)?
  {
    guard let owner = declaring(r.name, of: e.name), let key = joinKey(r.name, of: owner.name),
      let join = joinTables(frameworkVersion: .max).first(where: {
        ($0.owner == owner.name && $0.relationship.name == r.name)
          || ($0.relationship.destinationEntity == owner.name && $0.relationship.inverseName == r.name)
      })?.name
    else { return nil }
    let t = e.table
    let parameter = "Z_DA_\(join)_\(e.name)_\(a.name)_PARAMETER"
    let source = "Z_DA_\(t)_\(e.name)_\(a.name)_SOURCE"
    let and = kindCondition(e, "").map { " AND \($0)" } ?? ""
    let when = kindCondition(e, "NEW.").map { " WHEN \($0)" } ?? ""
    let whereKinds = kindCondition(e, "").map { " WHERE \($0)" } ?? ""
    let notice = Self.notice(false, t, a.name, column)
    return (
      [
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_INSERT AFTER INSERT ON \(join) FOR EACH ROW BEGIN UPDATE \(t) SET \(column) = IFNULL(\(column), 0) + 1 WHERE Z_PK = NEW.\(key)\(and);"
          + notice + " WHERE Z_PK = NEW.\(key)\(and); END",
        "CREATE TRIGGER IF NOT EXISTS \(parameter)_DELETE AFTER DELETE ON \(join) FOR EACH ROW BEGIN UPDATE \(t) SET \(column) = \(column) - 1 WHERE Z_PK = OLD.\(key)\(and);"
          + notice + " WHERE Z_PK = OLD.\(key)\(and); END",
        "CREATE TRIGGER IF NOT EXISTS \(source)_INSERT AFTER INSERT ON \(t) FOR EACH ROW\(when) BEGIN UPDATE \(t) SET \(column) = (SELECT IFNULL(COUNT(\(key)), 0) FROM \(join) WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK;"
          + notice + " WHERE Z_PK = NEW.Z_PK; END",
      ],
      "UPDATE \(t) SET \(column) = (SELECT IFNULL(COUNT(m.\(key)), 0) FROM \(join) AS m WHERE m.\(key) = \(t).Z_PK)\(whereKinds);"
    )
  }
}
