import MapRuntime

/// The tables, columns and indexes Core Data creates for a model (reference §§4–6), for the
/// writer: column order, declared types, join tables and index names.
extension CoreDataSchema {
  /// What a column holds, in the order Core Data ranks them (reference §4.3).
  enum ColumnKind: Int, Comparable {
    case integer = 0, real, decimal, text, uuid, transformable, binary
    static func < (a: ColumnKind, b: ColumnKind) -> Bool { a.rawValue < b.rawValue }

    var sqlType: String {
      switch self {
      case .integer: "INTEGER"
      case .real: "FLOAT"
      case .decimal: "DECIMAL"
      case .text: "VARCHAR"
      case .uuid, .transformable, .binary: "BLOB"
      }
    }

    init(_ type: AttributeType) {
      switch type {
      case .integer16, .integer32, .integer64, .boolean: self = .integer
      case .double, .float, .date: self = .real
      case .decimal: self = .decimal
      case .string, .uri: self = .text
      case .uuid: self = .uuid
      case .transformable, .undefined, .objectID, .composite: self = .transformable
      case .binary: self = .binary
      }
    }
  }

  struct Column {
    var name: String
    var kind: ColumnKind
    /// Declared type; dates are TIMESTAMP although they rank with FLOAT.
    var type: String
    /// What fills it.
    var role: Role
    /// Whether Core Data indexes it (`<table>_<column>_INDEX`).
    var indexed: Bool

    enum Role {
      case attribute(entity: String, AttributeDescription)
      /// The target's `Z_PK` of a to-one relationship.
      case foreignKey(entity: String, RelationshipDescription)
      /// The target's `Z_ENT` of a to-one whose destination has sub-entities.
      case entityKey(entity: String, RelationshipDescription)
      /// The position among the members of the inverse ordered to-many.
      case order(entity: String, RelationshipDescription)
      /// One element of a Composite attribute (`path` within it).
      case element(entity: String, composite: AttributeDescription, path: [String], AttributeDescription)
      /// The owner's `Z_PK` of a to-many without inverse (declared on `entity`).
      case hiddenKey(entity: String, RelationshipDescription)
      case hiddenOrder(entity: String, RelationshipDescription)
    }
  }

  struct Table {
    var name: String
    /// Schema index of the root entity.
    var root: Int
    var columns: [Column]
  }

  /// A many-to-many pair's table: the first key column holds the naming side's objects.
  struct JoinTable {
    var name: String
    /// `entity.relationship` whose members the second column holds; its inverse's the first.
    var owner: String
    var relationship: RelationshipDescription
    var inverse: RelationshipDescription
    var firstColumn: String
    var secondColumn: String
    /// `Z_FOK_` of the first column (when the inverse is ordered), then of the second.
    var firstOrder: String?
    var secondOrder: String?
  }

  /// The unique indexes of `table`: a uniqueness constraint is one, `Z_<Entity>_UNIQUE_<names>`
  /// over the constraint's columns in order [real: the single-property constraints of
  /// SwiftData's stores, 1403; names joined by `_`: inf], from framework version 640 on (the
  /// first with `Z_MODELCACHE`). A constraint naming a property without a column makes none.
  func uniqueIndexes(of table: Table, frameworkVersion: Int64) -> [(name: String, columns: [String])] {
    guard frameworkVersion >= CoreDataModelCache.firstFrameworkVersion else { return [] }
    var result: [(name: String, columns: [String])] = []
    for e in hierarchy(table.root) {
      for names in model.entity(named: e.name)?.uniquenessConstraints ?? [] where !names.isEmpty {
        let columns = names.compactMap { column($0, of: e.name) }
        guard columns.count == names.count else { continue }
        result.append(("Z_\(e.name)_UNIQUE_\(names.joined(separator: "_"))", columns))
      }
    }
    return result
  }

  func hasSubentities(_ name: String) -> Bool { model.entities.contains { $0.parentName == name } }

  func relationship(_ name: String, of entity: String) -> RelationshipDescription? {
    model.entity(named: entity).flatMap { model.allRelationships(of: $0).first { $0.name == name } }
  }

  /// Entity tables in `Z_ENT` order with their columns in Core Data's order.
  func tables() -> [Table] { entityTables.value(0) { makeTables() } }

  /// The entity tables, as `tables()` makes them once.
  private func makeTables() -> [Table] {
    var hidden: [Int: [Column]] = [:]
    for e in entities {
      for r in model.entity(named: e.name)!.relationships where r.isToMany && !r.isTransient && r.inverseName == nil {
        guard let d = entity(named: r.destinationEntity) else { continue }
        let name = "\(e.number)\(Self.upper(r.name))"
        hidden[d.root, default: []].append(
          Column(name: "Z" + name, kind: .integer, type: "INTEGER", role: .hiddenKey(entity: e.name, r), indexed: true))
        if r.isOrdered {
          hidden[d.root, default: []].append(
            Column(
              name: "Z_FOK_" + name, kind: .integer, type: "INTEGER", role: .hiddenOrder(entity: e.name, r),
              indexed: false))
        }
      }
    }
    return roots.map { root in
      var base: [Column] = []
      var orders: [Column] = []
      for e in hierarchy(root) {
        let d = model.entity(named: e.name)!
        for a in d.attributes.filter({ !$0.isTransient }).sorted(by: { $0.name < $1.name }) {
          if a.type == .composite {
            for leaf in e.elementColumns[a.name] ?? [] {
              let kind = ColumnKind(leaf.element.type)
              base.append(
                Column(
                  name: leaf.column, kind: kind, type: leaf.element.type == .date ? "TIMESTAMP" : kind.sqlType,
                  role: .element(entity: e.name, composite: a, path: leaf.path, leaf.element), indexed: false))
            }
            continue
          }
          let kind = ColumnKind(a.type)
          base.append(
            Column(
              name: e.columns[a.name]!, kind: kind, type: a.type == .date ? "TIMESTAMP" : kind.sqlType,
              role: .attribute(entity: e.name, a), indexed: a.isIndexed))
        }
        for r in d.relationships.filter({ !$0.isTransient && !$0.isToMany }).sorted(by: { $0.name < $1.name }) {
          let fk = e.columns[r.name]!
          base.append(
            Column(name: fk, kind: .integer, type: "INTEGER", role: .foreignKey(entity: e.name, r), indexed: true))
          if let target = entity(named: r.destinationEntity), hasSubentities(target.name) {
            base.append(
              Column(
                name: "Z\(target.number)_" + fk.dropFirst(), kind: .integer, type: "INTEGER",
                role: .entityKey(entity: e.name, r), indexed: false))
          }
          if let inv = r.inverseName, let inverse = relationship(inv, of: r.destinationEntity), inverse.isToMany,
            inverse.isOrdered
          {
            orders.append(
              Column(
                name: CoreDataSchema.orderColumn(ofKey: fk), kind: .integer, type: "INTEGER",
                role: .order(entity: e.name, r),
                indexed: false))
          }
        }
      }
      let all = base + (hidden[root] ?? []) + orders
      // Stable sort by rank.
      let sorted = all.enumerated().sorted { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) }.map(
        \.element)
      return Table(name: entities[root].table, root: root, columns: sorted)
    }
  }

  /// Many-to-many tables. Each is named after one side of the pair, `Z_<n><NAME>` with `n` the
  /// number of the entity declaring it, and keyed by that side's owners first. Which side:
  /// the one declared first in `Z_ENT` order (then by name) in stores from framework 500 on
  /// (contentful's, 1327), the one declared last before (apptentive's, 419 and 479); the
  /// threshold between is not known (Specs/sqlite-store.md §9).
  func joinTables(frameworkVersion: Int64) -> [JoinTable] {
    var result: [JoinTable] = []
    var done: Set<String> = []
    for e in entities {
      for r in model.entity(named: e.name)!.relationships.sorted(by: { $0.name < $1.name })
      where r.isToMany && !r.isTransient {
        guard let inv = r.inverseName, let inverse = relationship(inv, of: r.destinationEntity), inverse.isToMany else {
          continue
        }
        let invOwner = declaring(inv, of: r.destinationEntity)?.name ?? r.destinationEntity
        guard !done.contains("\(e.name).\(r.name)") else { continue }
        done.insert("\(e.name).\(r.name)")
        done.insert("\(invOwner).\(inv)")
        // Walking in Z_ENT order meets (e, r) first; the old rule takes the other side. Both
        // sides on one entity: the later name (DuckDuckGo's Z_1FAVORITES, not FAVORITEFOLDERS).
        let (owner, named, other) =
          invOwner == e.name
          ? (e.name, r.name >= inverse.name ? r : inverse, r.name >= inverse.name ? inverse : r)
          : frameworkVersion >= 500 ? (e.name, r, inverse) : (invOwner, inverse, r)
        // The first column holds the naming side's objects, the second its members (§4.3).
        let first = joinKey(named.name, of: owner) ?? ""
        let reflexive = isSelfInverse(named, of: owner)
        let second = reflexive ? "REFLEXIVE" : joinKey(other.name, of: owner == e.name ? invOwner : e.name) ?? ""
        result.append(
          JoinTable(
            name: "Z_\(number(owner))\(Self.upper(named.name))", owner: owner, relationship: named, inverse: other,
            firstColumn: first, secondColumn: second,
            firstOrder: other.isOrdered ? "Z_FOK_" + first.dropFirst(2) : nil,
            secondOrder: named.isOrdered ? "Z_FOK_" + (reflexive ? second : String(second.dropFirst(2))) : nil))
      }
    }
    return result
  }

  func number(_ entity: String) -> Int { self.entity(named: entity)?.number ?? 0 }

  /// The statements that create an empty store's schema, in Core Data's order: each entity
  /// table followed by the join tables it names, then `Z_PRIMARYKEY`, `Z_METADATA`,
  /// `Z_MODELCACHE`, then the indexes. What changed between framework versions follows
  /// `frameworkVersion` (Specs/sqlite-store.md §9): `Z_MODELCACHE` from 640 on (absent in the
  /// real stores of 519 and before), indexed attributes named `Z_<Entity>_<attribute>` from 800
  /// on (`<table>_<column>_INDEX` in the real stores of 754 and before, the new name in 851).
  func createStatements(frameworkVersion: Int64) -> [String] {
    var statements: [String] = []
    var indexes: [String] = []
    let joins = joinTables(frameworkVersion: frameworkVersion)
    for t in tables() {
      statements.append(
        "CREATE TABLE \(t.name) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER"
          + t.columns.map { ", \($0.name) \($0.type)" }.joined() + " )")
      for c in t.columns where c.indexed {
        if case .attribute(let owner, let a) = c.role, frameworkVersion >= 800 {
          indexes.append("CREATE INDEX Z_\(owner)_\(a.name) ON \(t.name) (\(c.name) COLLATE BINARY ASC)")
        } else {
          indexes.append("CREATE INDEX \(t.name)_\(c.name)_INDEX ON \(t.name) (\(c.name))")
        }
      }
      if hierarchy(t.root).count > 1 { indexes.append("CREATE INDEX \(t.name)_Z_ENT_INDEX ON \(t.name) (Z_ENT)") }
      for e in hierarchy(t.root) {
        // Left out, and said so in Specs/sqlite-store.md §9: an R-tree index (Core Data makes a
        // virtual table `Z_RT_…` and triggers for it; no real store here shows them) and an
        // element that names no property (an expression).
        for f in model.entity(named: e.name)!.fetchIndexes
        where !f.elements.contains(where: { $0.type.lowercased() == "rtree" }) {
          let columns = f.elements.compactMap { el in
            column(el.property, of: e.name).map { "\($0) COLLATE BINARY \(el.ascending ? "ASC" : "DESC")" }
          }
          guard columns.count == f.elements.count, !columns.isEmpty else { continue }
          // Xcode's "Indexed" box is named after the property, the same index as the
          // attribute's own; any other fetch index (a descending one of that name too) keeps its name.
          let label = f.indexedProperty ?? f.name
          let statement = "CREATE INDEX Z_\(e.name)_\(label) ON \(t.name) (\(columns.joined(separator: ", ")))"
          if !indexes.contains(where: { $0.hasPrefix("CREATE INDEX Z_\(e.name)_\(label) ") }) {
            indexes.append(statement)
          }
        }
      }
      // A compound index (`<compoundIndexes>`) from 800 on is `Z_<Entity>_<p1>_<p2>…` over its
      // columns ascending [real: Wire's 2.80.0, 866]; before, `<T>_<C1>_<C2>…` over the bare
      // columns [inf: a team's report of older stores; no real store here]. One element that
      // names an index already made (an indexed attribute) adds none.
      for e in hierarchy(t.root) {
        let d = model.entity(named: e.name)!
        // Core Data keeps compound indexes as fetch indexes; a model read from a cache lists
        // each fetch index among its compound indexes too [real: SwiftData's cache of 1403].
        for names in d.compoundIndexes
        where !names.isEmpty && !d.fetchIndexes.contains(where: { $0.elements.map(\.property) == names }) {
          let columns = names.compactMap { column($0, of: e.name) }
          guard columns.count == names.count else { continue }
          let statement =
            frameworkVersion >= 800
            ? "CREATE INDEX Z_\(e.name)_\(names.joined(separator: "_")) ON \(t.name) (\(columns.map { "\($0) COLLATE BINARY ASC" }.joined(separator: ", ")))"
            : "CREATE INDEX \(t.name)_\(columns.joined(separator: "_")) ON \(t.name) (\(columns.joined(separator: ", ")))"
          let name = statement.dropFirst("CREATE INDEX ".count).prefix { $0 != " " }
          let single = "CREATE INDEX \(t.name)_\(columns.joined())_INDEX "
          if !indexes.contains(where: {
            $0.hasPrefix("CREATE INDEX \(name) ") || (names.count == 1 && $0.hasPrefix(single))
          }) {
            indexes.append(statement)
          }
        }
      }
      for u in uniqueIndexes(of: t, frameworkVersion: frameworkVersion) {
        let columns = u.columns.map { "\($0) COLLATE BINARY ASC" }
        indexes.append("CREATE UNIQUE INDEX \(u.name) ON \(t.name) (\(columns.joined(separator: ", ")))")
      }
      for j in joins where entity(named: j.owner)?.root == t.root {
        let orders = [j.firstOrder, j.secondOrder].compactMap { $0 }.map { ", \($0) INTEGER" }.joined()
        statements.append(
          "CREATE TABLE \(j.name) ( \(j.firstColumn) INTEGER, \(j.secondColumn) INTEGER\(orders), PRIMARY KEY (\(j.firstColumn), \(j.secondColumn)) )"
        )
        // Not in apptentive's stores of 419 and 479.
        if frameworkVersion >= 500 {
          indexes.append(
            "CREATE INDEX \(j.name)_\(j.secondColumn)_INDEX ON \(j.name) (\(j.secondColumn), \(j.firstColumn))")
        }
      }
    }
    statements.append(
      "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
    statements.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
    if frameworkVersion >= CoreDataModelCache.firstFrameworkVersion {
      statements.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
    }
    return statements + indexes
  }
}

extension CoreDataSchema {
  /// Why a name of the model cannot be part of Core Data's SQL (its tables, columns and indexes
  /// are named after entities, properties and fetch indexes, unquoted, as Core Data writes them),
  /// or nil. Xcode only makes names of letters, digits and `_`; a hand-written model may hold a
  /// space, a quote or a line break, which would otherwise reach the SQL text.
  func nameProblem() -> String? { checkedNames.value(0) { findNameProblem() } }

  private func findNameProblem() -> String? {
    func identifier(_ s: String) -> Bool {
      guard let first = s.first, first.isLetter || first == "_" else { return false }
      return s.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.unicodeScalars.count == 1 }
    }
    for e in entities {
      guard identifier(e.name) else { return "the entity name '\(e.name)' is not a name SQLite can hold unquoted" }
      guard let entity = model.entity(named: e.name) else { continue }
      let names = entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchIndexes.map(\.name)
      for n in names where !identifier(n) {
        return "the name '\(n)' of entity \(e.name) is not a name SQLite can hold unquoted"
      }
    }
    // A root's table is `Z` + its name upper-cased: two roots differing only in case (or one
    // named like Core Data's own tables) would share one.
    var tables: [String: String] = [:]
    for (k, e) in entities.enumerated() where e.root == k {
      if ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(e.table) {
        return "entity \(e.name) would have the table \(e.table), one of Core Data's own"
          + " (a root entity's table is Z and its name in upper case)"
      }
      if let other = tables[e.table] {
        return "entities \(other) and \(e.name) would both have the table \(e.table)"
          + " (a root entity's table is Z and its name in upper case)"
      }
      tables[e.table] = e.name
    }
    return nil
  }
}
