import Foundation
import MapArchives
import MapRuntime

/// Reads a Core Data SQLite store into a source object graph of a model (reference §§2–5):
/// rows of each root table by `Z_ENT`, attributes decoded by type, to-one relationships from
/// their foreign keys, to-many ones from the inverse's foreign key, a hidden foreign key or a
/// join table, in `Z_FOK_` order where ordered. A store whose layout does not fit the model is
/// an error naming the table and column; a value that does not fit, one naming the row too.
struct CoreDataReader {
  let store: CoreDataStoreFile
  let layout: StoreLayout
  let schema: CoreDataSchema
  let graph: ObjectGraph
  let maxErrors: Int
  let externalFolder: String
  /// The external files read and the references whose files are missing (§5).
  let externalFiles: ExternalFilesRead
  var errors: [MigrationError] = []
  /// Store `Z_ENT` → schema entity (by position in `schema.entities`).
  var entityOfNumber: [Int: Int] = [:]
  /// Model entity name → the store's `Z_ENT`.
  var numberOfEntity: [String: Int] = [:]
  /// Per hierarchy root (schema index): `Z_PK` → object.
  var objects: [Int: [Int64: ObjectRef]] = [:]
  var toOnes: [PendingToOne] = []
  var links: [Link] = []
  var tables: [String: [String]] = [:]
  /// The payloads of the Transformable values read (Specs/sqlite-store.md §5.1).
  var transformables: TransformableBlobs
  /// Rows read so far and the total (`StoreReadOptions.rowProgress`).
  var progress: (@Sendable (Int, Int) -> Void)?
  var rowsRead = 0
  var rowsTotal = 0
  /// Hierarchies (schema indexes of their roots) `read` leaves out: those a run in chunks
  /// reads a chunk at a time (`CoreDataChunkReader`).
  var skippedRoots: Set<Int> = []
  /// Reading one chunk of a hierarchy (`readHierarchy`): its rows with a `Z_PK` above `after`
  /// (nil: from the first row, whatever its key, so that a key out of range is reported),
  /// until their stored values come to `bytes`; a row of more than `largest` is refused.
  var chunk: (after: Int64?, bytes: Int, largest: Int)?
  /// After a chunk was read: the `Z_PK` of its last row, nil when the table has no more.
  var chunkLast: Int64?
  /// The hierarchy (schema index of its root) being read, -1 after them; and per error, the
  /// one it was found in, so a run in chunks can give the errors in this reader's order.
  var readingRoot = -1
  var errorRoots: [Int] = []
  /// Whether a chunk's rows count the members of their to-many relationships, which a chunk
  /// with stubs reads whole (`resolveReferencesWithStubs`), and the statements that count them.
  var countsMembers = false
  /// The ordered to-many relationships (`Entity.relationship`, the owner's entity as it is, not
  /// the one declaring it) whose members in a chunk get their index in the whole relationship
  /// (`ObjectGraph.orderedPositions`) when the owner is outside the chunk, instead of the whole
  /// relationship read as stubs (`Stubs.rank`).
  var positionsOnly: Set<String> = []
  /// Where those positions are spilled once counting them chunk by chunk reads too much
  /// (`PositionSpill`); the chunk reader's, shared by its chunks. Nil: always counted.
  var positionSpill: PositionSpill?
  var memberCounters: [String: SQLiteStatement] = [:]
  /// What a member read whole counts: toward its chunk's window for the members of the chunk's
  /// own rows (input bytes, which a chunk takes about six times in memory, `MemoryBudget.window`),
  /// and against a quarter of the limit for the ordered sides of the objects the chunk refers to
  /// where they are read whole (`Stubs.counts`; not those in `positionsOnly`). In memory a stub of another row, its links both ways and the
  /// destination's counterparts take about 300–400 bytes (the tree benchmark's many-to-many).
  static let bytesPerMember = 64
  /// Join tables' layouts found so far, per `Entity.relationship` (`joinLayout`; nil: missing).
  var joinLayouts: [String: JoinLayout?] = [:]
  /// Per schema entity, where its to-many relationships' members hold its keys (`memberKeys`).
  var memberKeyColumns: [Int: [(relationship: String, table: String, column: String)]] = [:]
  /// Members found through hidden foreign keys, resolved once every table is read.
  var hiddenLinks: [HiddenLink] = []
  typealias HiddenLink = (member: ObjectRef, owner: Int64, order: Int64, key: Int64, hidden: HiddenKey, table: String)

  struct Stop: Error {}

  struct PendingToOne {
    var owner: ObjectRef
    var property: Int
    var targetRoot: Int
    var key: Int64
    /// The ordering value for the inverse to-many, when it is ordered.
    var order: Int64
    var table: String
    var column: String
    var ownerKey: Int64
  }

  /// A member to add to a to-many relationship; added sorted by owner, order and key.
  struct Link {
    var owner: ObjectRef
    var property: Int
    var order: Int64
    var key: Int64
    var member: ObjectRef
  }

  /// Extra columns of a root table that belong to relationships of other entities: hidden
  /// foreign keys of to-many relationships without an inverse.
  struct HiddenKey {
    var column: String
    var orderColumn: String?
    var ownerEntity: String
    var relationship: String
    var destination: String
  }

  init(store: CoreDataStoreFile, layout: StoreLayout, maxErrors: Int) {
    self.store = store
    self.layout = layout
    self.schema = CoreDataSchema.of(layout)
    self.graph = ObjectGraph(layout: layout, input: nil, isSource: true)
    self.maxErrors = maxErrors
    // The payloads cannot take much more room than the file they come from.
    self.transformables = TransformableBlobs(expected: Self.expectedPayloadBytes(store))
    self.externalFolder = ExternalData.dataFolder(ofStore: store.path)
    self.externalFiles = ExternalFilesRead(folder: externalFolder)
  }

  /// What a reader of `store`'s Transformable values reserves for their payloads: the file's
  /// size, up to 1 GiB (address space, not memory, until written).
  static func expectedPayloadBytes(_ store: CoreDataStoreFile) -> Int { min(store.size, 1 << 30) }

  mutating func report(_ code: String, _ message: String) throws(Stop) {
    errors.append(MigrationError(code, message, file: store.path))
    errorRoots.append(readingRoot)
    if errors.count >= maxErrors { throw Stop() }
  }

  func fail(_ code: String, _ message: String) -> MigrationFailure { store.failure(code, message) }

  mutating func read() throws(MigrationFailure) -> ObjectGraph {
    tables = try store.tables()
    try mapEntities(try store.primaryKeys(tables: tables))
    return try readMapped()
  }

  /// `read` once `tables` is known and the entities mapped.
  mutating func readMapped() throws(MigrationFailure) -> ObjectGraph {
    do throws(Stop) {
      let hidden = hiddenKeys()
      if let progress {
        rowsTotal = schema.roots.filter { !skippedRoots.contains($0) }.reduce(0) {
          $0 + rowCount(schema.entities[$1].table)
        }
        progress(0, rowsTotal)
      }
      for root in schema.roots where !skippedRoots.contains(root) {
        readingRoot = root
        try readHierarchy(root, hidden: hidden[root] ?? [])
      }
      readingRoot = -1
      progress?(rowsRead, max(rowsRead, rowsTotal))
      try resolveReferences()
      // (A join table of entities read a chunk at a time is read with their chunks.)
      for (e, r) in manyToManyPairs() where !isSkipped(e) && !isSkipped(r.destinationEntity) {
        try readJoinTable(e, r)
      }
    } catch {}
    if !errors.isEmpty { throw MigrationFailure(errors, truncated: errors.count >= maxErrors) }
    addLinks()
    return graph
  }

  /// Adds the to-many members found (`links`), by owner, then order, then key; none are left.
  mutating func addLinks() { Self.add(&links, to: graph) }

  /// Adds `links` to `graph`'s to-many relationships by owner, then order, then key; none are
  /// left (`HandedRows` adds what a read of a written store finds the same way).
  static func add(_ links: inout [Link], to graph: ObjectGraph) {
    links.sort { a, b in
      (a.owner.entity, a.owner.row, a.property, a.order, a.key) < (
        b.owner.entity, b.owner.row, b.property, b.order, b.key
      )
    }
    for l in links { graph.addToMany(l.owner, property: l.property, l.member) }
    links = []
  }

  /// Whether `entity`'s hierarchy is one `readMapped` leaves out (`skippedRoots`).
  func isSkipped(_ entity: String) -> Bool {
    schema.entity(named: entity).map { skippedRoots.contains($0.root) } ?? false
  }

  /// The rows of `table` (0 when it cannot be counted: reading it reports why).
  func rowCount(_ table: String) -> Int {
    guard tables[table] != nil,
      let statement = try? store.database.prepare("SELECT COUNT(*) FROM \(SQLiteDatabase.quote(table))"),
      (try? statement.step()) == true
    else { return 0 }
    return Int(statement.int64(0))
  }

  // MARK: - Entities

  /// Matches `Z_PRIMARYKEY` to the model: by `Z_NAME`, else (an entity renamed by a
  /// lightweight migration keeps its old `Z_NAME`) by the number Core Data would give it.
  /// Parents must agree.
  mutating func mapEntities(_ rows: [CoreDataStoreFile.PrimaryKeyRow]) throws(MigrationFailure) {
    let modelRows = rows.filter { $0.number < CoreDataStoreFile.firstAncillaryEntity }
    var superOfNumber: [Int: Int] = [:]
    for r in modelRows where superOfNumber[r.number] == nil { superOfNumber[r.number] = r.superNumber }
    for r in modelRows {
      let k =
        schema.index(named: r.name)
        ?? (r.number >= 1 && r.number <= schema.entities.count ? r.number - 1 : nil)
      guard let k else {
        throw fail(
          "sqlite-layout",
          "Z_PRIMARYKEY: entity \(r.number) (\(r.name)) is not in the model \(layout.model.versionName ?? "")")
      }
      guard numberOfEntity[schema.entities[k].name] == nil else {
        throw fail("sqlite-layout", "Z_PRIMARYKEY: entity \(schema.entities[k].name) appears twice")
      }
      entityOfNumber[r.number] = k
      numberOfEntity[schema.entities[k].name] = r.number
      // Z_MAX of a root: the highest Z_PK ever given in its table, kept for the next write.
      if r.superNumber == 0, r.max > 0 { graph.keyHighWater[schema.entities[k].name] = r.max }
    }
    for e in schema.entities {
      guard let n = numberOfEntity[e.name] else {
        throw fail("sqlite-layout", "Z_PRIMARYKEY has no row for entity \(e.name) of the model")
      }
      let storeSuper = superOfNumber[n] ?? 0
      let modelParent = layout.model.entity(named: e.name)?.parentName
      let storeParent = storeSuper == 0 ? nil : entityOfNumber[storeSuper].map { schema.entities[$0].name }
      if storeParent != modelParent {
        throw fail(
          "sqlite-layout",
          "Z_PRIMARYKEY: entity \(n) (\(e.name)) has Z_SUPER \(storeSuper) (\(storeParent ?? "none")), but its parent in the model is \(modelParent ?? "none")"
        )
      }
    }
  }

  func number(_ entity: String) -> Int { numberOfEntity[entity] ?? 0 }

  // MARK: - Rows

  /// The hidden foreign keys each root table holds (to-many relationships without inverse).
  func hiddenKeys() -> [Int: [HiddenKey]] {
    var result: [Int: [HiddenKey]] = [:]
    for e in layout.model.entities {
      for r in e.relationships where r.isToMany && !r.isTransient && r.inverseName == nil {
        guard let d = schema.entity(named: r.destinationEntity) else { continue }
        let column = hiddenKeyColumn(declaredBy: e.name, r.name)
        result[d.root, default: []].append(
          HiddenKey(
            column: column, orderColumn: r.isOrdered ? CoreDataSchema.orderColumn(ofKey: column) : nil,
            ownerEntity: e.name,
            relationship: r.name, destination: r.destinationEntity))
      }
    }
    return result
  }

  /// The column of the members' table that holds the owner's key for `relationship`, a to-many
  /// without an inverse that entity `declaring` declares: `Z<ent><REL>` (its order column, when
  /// ordered, `Z_FOK_<ent><REL>`).
  func hiddenKeyColumn(declaredBy declaring: String, _ relationship: String) -> String {
    "Z\(number(declaring))\(CoreDataSchema.upper(relationship))"
  }

  mutating func readHierarchy(_ root: Int, hidden: [HiddenKey]) throws(Stop) {
    let members = schema.hierarchy(root)
    let table = schema.entities[root].table
    guard let present = tables[table].map(Set.init) else {
      try report("sqlite-layout", "the store has no table \(table) for entity \(schema.entities[root].name)")
      return
    }
    // Columns to select, and for each entity which property reads which selected column.
    var selected = ["Z_PK", "Z_ENT"]
    var position: [String: Int] = ["Z_PK": 0, "Z_ENT": 1]
    func select(_ column: String) -> Int {
      if let p = position[column] { return p }
      selected.append(column)
      position[column] = selected.count - 1
      return selected.count - 1
    }
    // Each row's Z_OPT (its optimistic-locking version), kept for a store written again.
    let versionColumn = present.contains("Z_OPT") ? select("Z_OPT") : nil
    struct Plan {
      var attributes: [(property: Int, column: Int, attribute: AttributeDescription)] = [] {
        didSet {
          properties = attributes.map(\.property)
          columns = attributes.map(\.column)
          archives = attributes.map {
            $0.attribute.type != .transformable ? 0 : CoreDataValues.isArchive($0.attribute) ? 1 : 2
          }
          types = attributes.map(\.attribute.type)
          externals = attributes.map { $0.attribute.type == .binary && $0.attribute.allowsExternalBinaryDataStorage }
        }
      }
      /// Per attribute, without copying its description per row: property, selected column,
      /// and 0 (not Transformable), 1 (an archive), 2 (a custom transformer's bytes).
      var properties: [Int] = []
      var columns: [Int] = []
      var archives: [UInt8] = []
      /// Each attribute's type, and whether it is a Binary that allows external storage.
      var types: [AttributeType] = []
      var externals: [Bool] = []
      var toOnes: [(property: Int, column: Int, order: Int?, destination: String)] = []
      /// Composite attributes: property, the selected column of each element, description.
      var composites:
        [(property: Int, columns: [Int], attribute: AttributeDescription, leaves: [CoreDataSchema.ElementColumn])] = []
    }
    var plans: [Int: Plan] = [:]
    var missing: [String] = []
    for m in members {
      let entity = layout.entities[m.index]
      var plan = Plan()
      for (p, property) in entity.properties.enumerated() {
        if let a = property.attribute, a.type == .composite {
          let leaves = schema.elementColumns(a.name, of: m.name) ?? []
          let absent = leaves.filter { !present.contains($0.column) }
          for leaf in absent {
            missing.append("\(leaf.column) (\(m.name).\(a.name).\(leaf.path.joined(separator: ".")))")
          }
          if absent.isEmpty { plan.composites.append((p, leaves.map { select($0.column) }, a, leaves)) }
        } else if let a = property.attribute {
          guard let c = schema.column(a.name, of: m.name), present.contains(c) else {
            missing.append("\(schema.column(a.name, of: m.name) ?? "?") (\(m.name).\(a.name))")
            continue
          }
          plan.attributes.append((p, select(c), a))
        } else if let r = property.relationship, !r.isToMany {
          guard let c = schema.column(r.name, of: m.name), present.contains(c) else {
            missing.append("\(schema.column(r.name, of: m.name) ?? "?") (\(m.name).\(r.name))")
            continue
          }
          var order: Int? = nil
          if let inv = r.inverseName, let d = layout.model.entity(named: r.destinationEntity),
            let inverse = layout.model.allRelationships(of: d).first(where: { $0.name == inv }), inverse.isToMany,
            inverse.isOrdered
          {
            let fok = CoreDataSchema.orderColumn(ofKey: c)
            if present.contains(fok) {
              order = select(fok)
            } else {
              missing.append("\(fok) (order of \(r.destinationEntity).\(inv))")
            }
          }
          plan.toOnes.append((p, select(c), order, r.destinationEntity))
        }
      }
      plans[m.number] = plan
    }
    var hiddenColumns: [(key: HiddenKey, column: Int, order: Int?)] = []
    for h in hidden {
      guard present.contains(h.column) else {
        missing.append("\(h.column) (\(h.ownerEntity).\(h.relationship), a to-many relationship without inverse)")
        continue
      }
      var order: Int? = nil
      if let o = h.orderColumn {
        if present.contains(o) {
          order = select(o)
        } else {
          missing.append("\(o) (order of \(h.ownerEntity).\(h.relationship))")
        }
      }
      hiddenColumns.append((h, select(h.column), order))
    }
    // Once per column (an inherited property is missing for every sub-entity too).
    var reported: Set<Substring> = []
    for m in missing {
      let column = m.prefix { $0 != " " }
      guard reported.insert(column).inserted else { continue }
      try report(
        "sqlite-layout",
        "table \(table) has no column \(column) for \(m.dropFirst(column.count + 1).dropFirst().dropLast())")
    }
    guard missing.isEmpty else { return }

    let sql =
      "SELECT \(selected.map(SQLiteDatabase.quote).joined(separator: ", ")) FROM \(SQLiteDatabase.quote(table))"
      + (chunk?.after != nil ? " WHERE Z_PK > ?" : "") + " ORDER BY Z_PK"
    let statement: SQLiteStatement
    do {
      statement = try store.database.prepare(sql)
      if let after = chunk?.after { try statement.bindInteger(0, after) }
    } catch {
      try report("sqlite-unreadable", "cannot read table \(table): \(error.message)")
      return
    }
    var archiveColumns: [Int: Bool] = [:]
    for plan in plans.values {
      for i in plan.archives.indices where plan.archives[i] != 0 {
        archiveColumns[plan.columns[i]] = plan.archives[i] == 1
      }
    }
    // A chunk is read by one thread (the prefetch converts the second half of a whole table).
    let prefetch =
      chunk != nil
      ? nil
      : TransformablePrefetch(
        location: store.sharedLocation, database: store.database, table: table, columns: selected,
        archives: archiveColumns, expected: Self.expectedPayloadBytes(store))
    var cursor = TransformablePrefetch.Cursor()
    var byKey: [Int64: ObjectRef] = [:]
    var pendingHidden: [(member: ObjectRef, owner: Int64, order: Int64, key: Int64, hidden: HiddenKey)] = []
    var chunkBytes = 0
    chunkLast = nil
    while true {
      let more: Bool
      do {
        more = try statement.step()
      } catch {
        try report("sqlite-unreadable", "cannot read table \(table): \(error.message)")
        return
      }
      guard more else { break }
      rowsRead += 1
      if rowsRead & 4095 == 0, let progress { progress(rowsRead, max(rowsRead, rowsTotal)) }
      let pk = statement.int64(0)
      guard !statement.isNull(0), !statement.isNull(1) else {
        try report("sqlite-layout", "\(table): a row has no Z_PK or Z_ENT")
        continue
      }
      guard pk >= 1 else {
        try report("sqlite-layout", "\(table): Z_PK \(pk) is out of range (Core Data's keys are 1 or more)")
        continue
      }
      let number = Int(statement.int64(1))
      guard let k = entityOfNumber[number], schema.entities[k].root == root, let plan = plans[schema.entities[k].number]
      else {
        try report("sqlite-layout", "\(table) row Z_PK=\(pk): Z_ENT \(number) is no entity of this table's hierarchy")
        continue
      }
      if byKey[pk] != nil {
        try report("sqlite-layout", "\(table): Z_PK \(pk) appears twice")
        continue
      }
      let object = graph.appendObject(entity: schema.entities[k].index)
      byKey[pk] = object
      graph.tables[Int(object.entity)].setObjectKey(Int(object.row), pk)
      if let versionColumn, !statement.isNull(versionColumn) {
        graph.tables[Int(object.entity)].setObjectVersion(Int(object.row), statement.int64(versionColumn))
      }
      for i in plan.attributes.indices {
        // A Transformable BLOB: converted by the prefetch, else here.
        if plan.archives[i] != 0,
          let v = prefetch?.value(key: pk, column: plan.columns[i], cursor: &cursor, into: &transformables)
            ?? statement.withBlob(
              plan.columns[i], { transformables.value($0, decoding: plan.archives[i] == 1, column: i) })
        {
          graph.set(object, property: plan.properties[i], v)
          continue
        }
        let stored = statement.value(plan.columns[i])
        // (The description is copied only for a message: a row reads none.)
        let property = plan.properties[i]
        do throws(CoreDataValues.Mismatch) {
          if plan.externals[i], case .blob(let b) = stored {
            // Read from its file, or carried as a reference when the file is missing (§5).
            switch try CoreDataValues.external(b, folder: externalFolder) {
            case .inline(let bytes):
              graph.set(object, property: property, .data(bytes))
            case .file(let uuid, let bytes):
              externalFiles.add(uuid, bytes)
              graph.set(object, property: property, .data(bytes))
            case .missing:
              externalFiles.missing["\(schema.entities[k].name).\(plan.attributes[i].attribute.name)", default: 0] += 1
              graph.set(object, property: property, transformables.missingExternal(b))
            }
            continue
          }
          let v = try CoreDataValues.decode(
            stored, type: plan.types[i], external: plan.externals[i], externalFolder: externalFolder)
          if !v.isNull { graph.set(object, property: property, v) }
        } catch {
          let a = plan.attributes[i]
          try report(
            "sqlite-value",
            "\(table).\(selected[a.column]) row Z_PK=\(pk) (\(schema.entities[k].name).\(a.attribute.name)): \(error.message)"
          )
        }
      }
      for c in plan.composites {
        var values: [Value] = []
        for (leaf, column) in zip(c.leaves, c.columns) {
          do throws(CoreDataValues.Mismatch) {
            values.append(
              try CoreDataValues.decode(statement.value(column), leaf.element, externalFolder: externalFolder))
          } catch {
            values.append(.null)
            try report(
              "sqlite-value",
              "\(table).\(selected[column]) row Z_PK=\(pk) (\(schema.entities[k].name).\(c.attribute.name).\(leaf.path.joined(separator: "."))): \(error.message)"
            )
          }
        }
        if let v = CoreDataComposites.value(c.attribute, leaves: c.leaves, values: values) {
          do throws(ArchivedValueError) {
            graph.set(object, property: c.property, try transformables.composite(v))
          } catch {
            try report(
              "sqlite-value",
              "\(table) row Z_PK=\(pk) (\(schema.entities[k].name).\(c.attribute.name)): the Composite value cannot be kept: \(error.message)"
            )
          }
        }
      }
      for t in plan.toOnes where !statement.isNull(t.column) {
        guard let d = schema.entity(named: t.destination) else { continue }
        toOnes.append(
          PendingToOne(
            owner: object, property: t.property, targetRoot: d.root, key: statement.int64(t.column),
            order: t.order.map { statement.int64($0) } ?? 0, table: table, column: selected[t.column], ownerKey: pk))
      }
      for h in hiddenColumns where !statement.isNull(h.column) {
        pendingHidden.append((object, statement.int64(h.column), h.order.map { statement.int64($0) } ?? 0, pk, h.key))
      }
      if let chunk {
        // With stubs, a row's to-many relationships are read whole with it: their members count.
        let rowBytes = statement.storedBytes()
        let bytes = rowBytes + (countsMembers ? try memberBytes(k, pk, table) : 0)
        if rowBytes > chunk.largest {
          try report(
            "run-memory-limit",
            "\(table) row Z_PK=\(pk) holds \(rowBytes) bytes, more than a quarter of the --memory-limit (\(chunk.largest) bytes) allows one object"
          )
        }
        chunkBytes += bytes
        if chunkBytes >= chunk.bytes {
          chunkLast = pk
          break
        }
      }
    }
    objects[root] = byKey
    hiddenLinks.append(contentsOf: pendingHidden.map { ($0.member, $0.owner, $0.order, $0.key, $0.hidden, table) })
  }
}
