import MapRuntime

/// The columns and join tables that name rows of other tables, as the check and the repair
/// both see them: one list, so that what is repaired is exactly what was found.
extension CoreDataSchema {
  /// A column holding the `Z_PK` of a row of `target`: a to-one relationship's foreign key, or
  /// the hidden key of a to-many without inverse (in the members' table, naming the owner).
  struct ReferenceColumn {
    var table: String
    var column: String
    var target: String
    /// The entity whose objects the key names (the destination, or the owner of a hidden key).
    var targetEntity: String
    /// The column holding the target's `Z_ENT` (when the destination has sub-entities).
    var entityKey: String?
    /// The entity that declares the relationship, and its name.
    var entity: String
    var relationship: String
    var isOptional: Bool
    /// The hidden key of a to-many without inverse.
    var hidden: Bool
    /// Columns that go with the key and mean nothing without it: the target's `Z_ENT`, the
    /// position in an ordered to-many.
    var companions: [String]
    /// The position column, when the inverse (or the hidden to-many) is ordered.
    var order: String?
  }

  func referenceColumns() -> [ReferenceColumn] {
    var result: [ReferenceColumn] = []
    for t in tables() {
      func companion(_ match: (Column.Role) -> Bool) -> String? { t.columns.first { match($0.role) }?.name }
      for c in t.columns {
        switch c.role {
        case .foreignKey(let entity, let r):
          guard let target = self.entity(named: r.destinationEntity)?.table else { continue }
          let key = companion {
            if case .entityKey(let e, let x) = $0 { e == entity && x.name == r.name } else { false }
          }
          let order = companion { if case .order(let e, let x) = $0 { e == entity && x.name == r.name } else { false } }
          result.append(
            ReferenceColumn(
              table: t.name, column: c.name, target: target, targetEntity: r.destinationEntity, entityKey: key,
              entity: entity, relationship: r.name, isOptional: r.isOptional, hidden: false,
              companions: [key, order].compactMap { $0 }, order: order))
        case .hiddenKey(let owner, let r):
          guard let target = self.entity(named: owner)?.table else { continue }
          let order = companion {
            if case .hiddenOrder(let e, let x) = $0 { e == owner && x.name == r.name } else { false }
          }
          result.append(
            ReferenceColumn(
              table: t.name, column: c.name, target: target, targetEntity: owner, entityKey: nil, entity: owner,
              relationship: r.name, isOptional: true, hidden: true, companions: [order].compactMap { $0 },
              order: order))
        default: continue
        }
      }
    }
    return result
  }

  /// A many-to-many table with the tables its two key columns name rows of.
  struct JoinReference {
    var join: JoinTable
    var firstTarget: String
    var secondTarget: String
  }

  /// `(n, m, …)`: the `Z_ENT` of `entity` and of its sub-entities, for SQL.
  func kindList(_ entity: String) -> String {
    let numbers = entities.filter { model.isKind($0.name, of: entity) }.map { String($0.number) }
    return "(" + (numbers.isEmpty ? "NULL" : numbers.joined(separator: ", ")) + ")"
  }

  func joinReferences(frameworkVersion: Int64) -> [JoinReference] {
    joinTables(frameworkVersion: frameworkVersion).compactMap { j in
      guard let first = entity(named: j.owner)?.table,
        let second = entity(named: j.relationship.destinationEntity)?.table
      else { return nil }
      return JoinReference(join: j, firstTarget: first, secondTarget: second)
    }
  }
}

/// The SQL conditions of the row checks, shared by the check (SELECT) and the repair (UPDATE,
/// DELETE): `a` is the checked table's alias.
enum StoreCheckSQL {
  static func q(_ s: String) -> String { SQLiteDatabase.quote(s) }

  /// A reference that names no row of its target's entity (or a sub-entity of it).
  static func dangling(_ r: CoreDataSchema.ReferenceColumn, _ schema: CoreDataSchema, alias a: String) -> String {
    // Read as Core Data reads a key (and mapc's reader): as an integer, so 4.5 names row 4.
    "\(a).\(q(r.column)) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(q(r.target)) b WHERE b.Z_PK = CAST(\(a).\(q(r.column)) AS INTEGER)"
      + " AND b.Z_ENT IN \(schema.kindList(r.targetEntity)))"
  }

  /// A reference whose entity-key column is not the `Z_ENT` of the row it names.
  static func wrongEntityKey(_ r: CoreDataSchema.ReferenceColumn, key: String, alias a: String) -> String {
    "\(a).\(q(r.column)) IS NOT NULL AND EXISTS (SELECT 1 FROM \(q(r.target)) b WHERE b.Z_PK = \(a).\(q(r.column))"
      + " AND b.Z_ENT IS NOT \(a).\(q(key)))"
  }

  /// A join row either of whose keys names no row.
  static func orphan(_ j: CoreDataSchema.JoinReference, _ schema: CoreDataSchema, alias a: String) -> String {
    let (first, second) = (schema.kindList(j.join.owner), schema.kindList(j.join.relationship.destinationEntity))
    return "NOT EXISTS (SELECT 1 FROM \(q(j.firstTarget)) b WHERE b.Z_PK = \(a).\(q(j.join.firstColumn))"
      + " AND b.Z_ENT IN \(first)) OR NOT EXISTS (SELECT 1 FROM \(q(j.secondTarget)) c"
      + " WHERE c.Z_PK = \(a).\(q(j.join.secondColumn)) AND c.Z_ENT IN \(second))"
  }

  /// The groups of an ordered relationship: `(table, owner column, position column)`, the
  /// members of one owner being the rows with one owner value.
  static func orderGroups(_ schema: CoreDataSchema, frameworkVersion: Int64) -> [(
    table: String, owner: String, position: String, entity: String, relationship: String
  )] {
    var result: [(table: String, owner: String, position: String, entity: String, relationship: String)] = []
    for r in schema.referenceColumns() {
      guard let order = r.order else { continue }
      result.append((r.table, r.column, order, r.entity, r.relationship))
    }
    for j in schema.joinReferences(frameworkVersion: frameworkVersion) {
      if let o = j.join.secondOrder {
        result.append((j.join.name, j.join.firstColumn, o, j.join.owner, j.join.relationship.name))
      }
      if let o = j.join.firstOrder {
        result.append((j.join.name, j.join.secondColumn, o, j.join.relationship.destinationEntity, j.join.inverse.name))
      }
    }
    return result
  }

  /// Owners with two members at one position.
  static func collidingOwners(table: String, owner: String, position: String) -> String {
    "SELECT \(q(owner)) FROM \(q(table)) WHERE \(q(owner)) IS NOT NULL AND \(q(position)) IS NOT NULL "
      + "GROUP BY \(q(owner)), \(q(position)) HAVING count(*) > 1"
  }
}
