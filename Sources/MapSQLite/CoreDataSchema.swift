import MapRuntime

/// The names Core Data gives a model's entities, tables and columns in an SQLite store
/// (`Specs/sqlite-store.md`, "Layout"): entity numbers, one table per root entity, a column per
/// attribute and to-one relationship, hidden foreign keys, ordering columns and join tables.
struct CoreDataSchema {
  struct Entity {
    var name: String
    /// `Z_ENT`.
    var number: Int
    /// The parent's `Z_ENT`, 0 for a root.
    var superNumber: Int
    /// Index in the model (and in the graph's layout).
    var index: Int
    /// Index in `entities` of the root of its hierarchy.
    var root: Int
    /// `Z` + the root's name upper-cased.
    var table: String
    /// Column of each own attribute and to-one relationship (by property name); a Composite
    /// attribute has none, its elements have theirs (`elementColumns`).
    var columns: [String: String] = [:]
    /// The columns of each own Composite attribute (by its name): one per element, nested
    /// composites' elements in their place, in element order.
    var elementColumns: [String: [ElementColumn]] = [:]
  }

  /// One element of a Composite attribute and its column.
  struct ElementColumn {
    /// The element's name within the composite (more than one for a nested composite's element).
    var path: [String]
    var element: AttributeDescription
    var column: String
  }

  /// The elements of a composite in element order, a nested composite's in its place.
  static func leaves(of a: AttributeDescription, path: [String] = []) -> [(
    path: [String], element: AttributeDescription
  )] {
    a.compositeElements.flatMap { e in
      e.type == .composite ? leaves(of: e, path: path + [e.name]) : [(path + [e.name], e)]
    }
  }

  let model: ObjectModel
  /// In `Z_ENT` order.
  private(set) var entities: [Entity] = []
  private var byName: [String: Int] = [:]
  /// Indexes in `entities` of each hierarchy's members (by its root's index), in `Z_ENT` order:
  /// built once, so that asking for every hierarchy is linear in the entities.
  private var members: [Int: [Int]] = [:]
  /// The key column of each side of a many-to-many pair, by `Entity.relationship` of the side's
  /// declaring entity: the join-table column that holds that entity's objects.
  private var joinKeys: [String: String] = [:]
  /// The entity tables (`tables()`), made on first use (a store written) and kept with the
  /// schema (one key: the schema's tables).
  let entityTables = Memo<Int, [Table]>()
  /// What `nameProblem()` finds, found once per schema (the writer and the in-memory hand-off
  /// of every chain step ask).
  let checkedNames = Memo<Int, String?>()

  /// The schema of `layout`'s model, made once per layout (a chain's steps share a version's).
  static func of(_ layout: StoreLayout) -> CoreDataSchema {
    layout.derived(CoreDataSchema.self) { CoreDataSchema(model: $0.model) }
  }

  /// Numbers the entities as Core Data does: roots sorted by name case-insensitively, each
  /// followed depth-first by its sub-entities sorted the same way.
  init(model: ObjectModel) {
    self.model = model
    var children: [String: [EntityDescription]] = [:]
    var roots: [EntityDescription] = []
    for e in model.entities {
      if let p = e.parentName, model.entity(named: p) != nil {
        children[p, default: []].append(e)
      } else {
        roots.append(e)
      }
    }
    func sorted(_ list: [EntityDescription]) -> [EntityDescription] {
      list.sorted { a, b in
        let (x, y) = (Self.upper(a.name), Self.upper(b.name))
        return x != y ? x < y : a.name < b.name
      }
    }
    var visiting: Set<String> = []
    func visit(_ e: EntityDescription, root: Int?, superNumber: Int) {
      guard visiting.insert(e.name).inserted else { return }  // a parent cycle in a broken model
      let number = entities.count + 1
      let rootIndex = root ?? entities.count
      let table = root.map { entities[$0].table } ?? "Z" + Self.upper(e.name)
      byName[e.name] = entities.count
      entities.append(
        Entity(
          name: e.name, number: number, superNumber: superNumber, index: model.entityIndex(named: e.name) ?? 0,
          root: rootIndex, table: table))
      for c in sorted(children[e.name] ?? []) { visit(c, root: rootIndex, superNumber: number) }
    }
    for r in sorted(roots) { visit(r, root: nil, superNumber: 0) }
    for (k, e) in entities.enumerated() { members[e.root, default: []].append(k) }
    nameColumns()
    nameJoinKeys()
  }

  /// The key columns of the many-to-many join tables (Specs/sqlite-store.md §4.3). The column
  /// that holds entity E's objects for its relationship r is named after r's inverse:
  /// `Z_<n><INVERSE>`, `n` the number of the inverse's destination (E). Two such columns of one
  /// hierarchy with one name (Wire's `User.reactions` and `User.systemMessages`, whose inverses
  /// are both named `users`) are told apart as columns are: walking the entities in `Z_ENT`
  /// order and each one's relationships by name, a name already taken gets `1`, `2`, …
  /// [real: one store, Wire's 2.80.0: `Z_18USERS.Z_22USERS`, `Z_14USERS.Z_22USERS1`]. A
  /// relationship that is its own inverse keeps `Z_<n><R>` for one column and names the other
  /// `REFLEXIVE` [dec: the reference §5.1; no real store].
  private mutating func nameJoinKeys() {
    var taken: [Int: Set<String>] = [:]
    for e in entities {
      guard let d = model.entity(named: e.name) else { continue }
      for r in d.relationships.sorted(by: { $0.name < $1.name }) where r.isToMany && !r.isTransient {
        guard let inv = r.inverseName, let target = model.entity(named: r.destinationEntity),
          let inverse = model.allRelationships(of: target).first(where: { $0.name == inv }), inverse.isToMany
        else { continue }
        let base = "Z_\(entity(named: inverse.destinationEntity)?.number ?? 0)\(Self.upper(inv))"
        joinKeys["\(e.name).\(r.name)"] = Self.unique(base, in: &taken[e.root, default: []])
      }
    }
  }

  /// The join-table column that holds `entity`'s objects for its many-to-many relationship
  /// `relationship` (declared on `entity`), or nil.
  func joinKey(_ relationship: String, of entity: String) -> String? { joinKeys["\(entity).\(relationship)"] }

  /// Whether `r` of `entity` is its own inverse (`ObjectModel.isSelfInverse`).
  func isSelfInverse(_ r: RelationshipDescription, of entity: String) -> Bool {
    model.isSelfInverse(r, of: entity)
  }

  /// Column names per hierarchy: each entity in `Z_ENT` order, its attributes by name (a
  /// Composite attribute's elements in its place, in element order, each named after the
  /// element alone), then its to-one relationships by name; a name already taken in the table
  /// gets `1`, `2`, … appended (Specs/sqlite-store.md §4).
  private mutating func nameColumns() {
    var taken: [Int: Set<String>] = [:]
    for k in entities.indices {
      guard let e = model.entity(named: entities[k].name) else { continue }
      let root = entities[k].root
      func take(_ name: String) -> String { Self.unique("Z" + Self.upper(name), in: &taken[root, default: []]) }
      for a in e.attributes.filter({ !$0.isTransient }).sorted(by: { $0.name < $1.name }) {
        if a.type == .composite {
          entities[k].elementColumns[a.name] = Self.leaves(of: a).map {
            ElementColumn(path: $0.path, element: $0.element, column: take($0.element.name))
          }
        } else {
          entities[k].columns[a.name] = take(a.name)
        }
      }
      for name in e.relationships.filter({ !$0.isTransient && !$0.isToMany }).map(\.name).sorted() {
        entities[k].columns[name] = take(name)
      }
    }
  }

  /// The element columns of Composite `property` of `entity`, looked up on the entity that
  /// declares it.
  func elementColumns(_ property: String, of entity: String) -> [ElementColumn]? {
    var name: String? = entity
    var seen: Set<String> = []
    while let n = name, seen.insert(n).inserted, let e = self.entity(named: n) {
      if let c = e.elementColumns[property] { return c }
      name = model.entity(named: n)?.parentName
    }
    return nil
  }

  func entity(named name: String) -> Entity? { byName[name].map { entities[$0] } }

  /// The index in `entities` (`Z_ENT` - 1) of the entity with this name.
  func index(named name: String) -> Int? { byName[name] }

  func entity(number: Int) -> Entity? {
    number >= 1 && number <= entities.count ? entities[number - 1] : nil
  }

  /// The entities of the hierarchy whose root is `entities[root]`, in `Z_ENT` order.
  func hierarchy(_ root: Int) -> [Entity] { (members[root] ?? []).map { entities[$0] } }

  var roots: [Int] { entities.indices.filter { entities[$0].root == $0 } }

  /// The column of `property` of `entity`, looked up on the entity that declares it.
  func column(_ property: String, of entity: String) -> String? {
    var name: String? = entity
    var seen: Set<String> = []
    while let n = name, seen.insert(n).inserted, let e = self.entity(named: n) {
      if let c = e.columns[property] { return c }
      name = model.entity(named: n)?.parentName
    }
    return nil
  }

  /// The entity that declares `property` (itself or an ancestor).
  func declaring(_ property: String, of entity: String) -> Entity? {
    model.declaring(property, of: entity).flatMap { self.entity(named: $0.name) }
  }

  /// `base`, or `base` with `1`, `2`, … appended when that name is taken; recorded as taken.
  /// How Core Data tells apart the columns of one hierarchy (§4, and the join tables' keys).
  static func unique(_ base: String, in taken: inout Set<String>) -> String {
    var name = base
    var n = 0
    while taken.contains(name) {
      n += 1
      name = base + String(n)
    }
    taken.insert(name)
    return name
  }

  /// The column of an ordered relationship's positions (`Z_FOK_…`) beside the foreign key
  /// `column` (`Z…`) that holds the owner's key in the members' rows.
  static func orderColumn(ofKey column: some StringProtocol) -> String { "Z_FOK_" + column.dropFirst() }

  /// ASCII upper-casing, as Core Data names tables and columns.
  static func upper(_ s: String) -> String {
    String(decoding: s.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
  }
}
