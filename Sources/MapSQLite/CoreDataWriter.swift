import Foundation
import MapArchives
import MapRuntime

/// Writes an object graph as a new Core Data SQLite store for the graph's model, in the layout
/// Core Data creates (`CoreDataSchema.createStatements`, reference §§2–6): `Z_PK` numbered per
/// hierarchy in `Z_ENT` order, `Z_OPT` as the graph carries it (else 1), foreign keys, entity keys, `Z_FOK_` positions (2048,
/// 3072, …), join rows, hidden keys, `Z_PRIMARYKEY` with `Z_MAX` on roots, and `Z_METADATA`.
struct CoreDataWriter {
  let graph: ObjectGraph
  /// The bytes string slices of `graph` refer to.
  let input: InputBytes?
  /// How the Transformable payloads in `input` are encoded (`ArchivedBlobCodec`: the bytes to
  /// store as they are).
  let codec: (any TransformableCodec.Type)?
  let schema: CoreDataSchema
  let metadata: CoreDataMetadataOut
  /// `Z_PK` of every object: `keys[entity][row]`.
  private(set) var keys: [[Int64]] = []
  var maxKey: [Int: Int64] = [:]
  var errors: [String] = []
  /// Called with the objects (entity rows) inserted so far, after each chunk of rows
  /// (`StoreWriteOptions.objectProgress`).
  var progress: (@Sendable (Int) -> Void)?
  /// A store with the same objects whose persistent-history and CloudKit tables the new store
  /// keeps (`AncillaryCopy`).
  var ancillarySource: String?
  /// Values read from external files, written to files of the same names; references to
  /// missing files carried (`ExternalFilesWritten`, Specs/sqlite-store.md §7).
  var external: ExternalFilesWritten
  /// Whether `Z_MODELCACHE` gets its row (`SQLiteStoreFormat.writesModelCache`).
  var writesModelCache = true
  /// SQLite's page cache while the store is written, in KiB (its sorter, building the indexes,
  /// takes as much again): 16 MiB, or less under a `--memory-limit` (`cacheKiB(limit:)`).
  var cacheKiB = 16_384

  /// The page cache for a store written under `limit` bytes of memory: an eighth of it, at
  /// least 1 MiB and at most the usual 16 MiB. The pages written do not depend on it.
  static func cacheKiB(limit: Int) -> Int { min(max(limit / 8 / 1024, 1024), 16_384) }
  /// Rows of entities (layout index) rendered from chunks of a run in chunks, written in
  /// their place instead of the graph's (`CoreDataChunkWriter`), and the errors found while
  /// they were rendered.
  var streamed: [Int: ScratchRows] = [:]
  var streamedErrors: [Int: [String]] = [:]
  /// Join rows rendered from chunks, per `Entity.relationship` of the side that owns them
  /// (`CoreDataChunkWriter`): taken in place of the graph's for a join table named after it.
  var streamedJoins: [String: ScratchRows] = [:]

  init(
    graph: ObjectGraph, input: InputBytes?, codec: (any TransformableCodec.Type)?, metadata: CoreDataMetadataOut,
    externalFiles: ExternalFilesRead? = nil
  ) {
    self.graph = graph
    self.external = ExternalFilesWritten(read: externalFiles)
    self.input = input
    self.codec = codec
    self.schema = CoreDataSchema.of(graph.layout)
    self.metadata = metadata
    keys = graph.tables.map { [Int64](repeating: 0, count: $0.count) }
    graph.resolveObjectKeys()
    for root in schema.roots { number(root) }
  }

  /// Gives the objects of a hierarchy their `Z_PK`: the graph's own numbers where its objects
  /// have them (a store read from SQLite, or migrated by an inferred step), the others the
  /// numbers after the highest one; `Z_MAX` is the highest, or the source's `Z_MAX` when that
  /// is higher (objects were deleted). Numbers that repeat within the hierarchy are not
  /// kept: every object is numbered from 1 in `Z_ENT` order, as a graph without numbers is.
  private mutating func number(_ root: Int) {
    let hierarchy = schema.hierarchy(root)
    var seen = Set<Int64>()
    var repeated = false
    for e in hierarchy {
      let t = graph.tables[e.index]
      for row in 0..<t.count {
        let k = t.objectKey(row)
        if k > 0 && !seen.insert(k).inserted { repeated = true }
      }
    }
    var high = repeated ? 0 : max(seen.max() ?? 0, graph.keyHighWater[schema.entities[root].name] ?? 0)
    // Numbers from a file (Z_PK, Z_MAX, a JSON store's ids) near Int64.max leave no room for the
    // new ones: every object is numbered from 1, as when numbers repeat.
    let objects = hierarchy.reduce(0) { $0 + graph.tables[$1.index].count }
    if high > Int64.max - Int64(objects) {
      repeated = true
      high = 0
    }
    var next = high
    for e in hierarchy {
      let t = graph.tables[e.index]
      for row in 0..<t.count {
        let k = repeated ? 0 : t.objectKey(row)
        if k > 0 {
          keys[e.index][row] = k
        } else {
          next += 1
          keys[e.index][row] = next
        }
      }
    }
    maxKey[root] = max(next, high)
  }

  struct Failure: Error { var message: String }

  func key(_ ref: ObjectRef) -> Int64 { keys[Int(ref.entity)][Int(ref.row)] }

  static func ref(_ v: Value) -> ObjectRef? {
    switch v {
    case .sourceObject(let r), .destinationObject(let r): r
    default: nil
    }
  }

  func members(_ object: ObjectRef, _ property: Int) -> [ObjectRef] {
    guard case .array(let items) = graph.tables[Int(object.entity)].value(Int(object.row), property) else { return [] }
    return items.compactMap(Self.ref)
  }

  func objects(ofKind name: String) -> [ObjectRef] {
    guard let e = graph.layout.entityIndex(name) else { return [] }
    return graph.objects(ofKind: e)
  }

  /// Position values of the members of every ordered to-many `relationship` of entities
  /// of kind `entity`: member → 2048 + 1024 × its index.
  /// (`[entity][row]`, 0 for an object that is no member: positions start at 2048.)
  func positions(_ entity: String, _ relationship: String) -> [[Int64]] {
    var result = graph.tables.map { [Int64](repeating: 0, count: $0.count) }
    guard let e = graph.layout.entityIndex(entity) else { return result }
    // Read in place, entity by entity: no list of owners or of members is built.
    for k in graph.layout.entities[e].kindIndexes {
      guard let p = graph.layout.entities[k].propertyIndex(relationship) else { continue }
      let table = graph.tables[k]
      let given = graph.orderedPositions
      for row in 0..<table.count {
        guard case .array(let items) = table.value(row, p) else { continue }
        var position: Int64 = 2048
        for item in items {
          guard let m = Self.ref(item) else { continue }
          // (A chunk's member of an object outside it has its index in the whole relationship.)
          if !given.isEmpty, let i = given[OrderedMember(owner: ObjectRef(entity: k, row: row), property: p, member: m)]
          {
            result[Int(m.entity)][Int(m.row)] = Self.position(at: i)
          } else {
            result[Int(m.entity)][Int(m.row)] = position
          }
          position += 1024
        }
      }
    }
    return result
  }

  /// Writes the store into `path` (a new file, or `:memory:`).
  mutating func write(to path: String) throws(Failure) {
    if let problem = schema.nameProblem() {
      throw Failure(message: problem + " (Core Data's tables and columns are named after entities and properties)")
    }
    let db: SQLiteDatabase
    do {
      db = try SQLiteDatabase(path: path, writable: true, create: true)
      // A 16 MB page cache at most (SQLite's sorter for the indexes uses as much again): rows go in
      // in key order, so a larger one saves little time and costs peak memory (the 300,000-record
      // diary: 64 MB gave a peak of 418 MB, 16 MB 344 MB, 1.6% slower; Benchmarks/README.md).
      try db.execute(
        "PRAGMA page_size = 4096; PRAGMA auto_vacuum = 2; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
          + "PRAGMA cache_size = -\(cacheKiB);")
      try db.execute("BEGIN")
      // Indexes come after every table in Core Data's schema, so they can be built once the
      // rows are in (one sort each, rather than an index insert per row) and still be in the
      // same place in sqlite_master.
      let statements = schema.createStatements(frameworkVersion: metadata.frameworkVersion)
      for s in statements where !s.hasPrefix("CREATE INDEX") { try db.execute(s) }
      try writeRows(db)
      try writeJoinRows(db)
      try writeFixedTables(db)
      for s in statements where s.hasPrefix("CREATE INDEX") { try db.execute(s) }
      try writeDerived(db)
      if let ancillarySource { try AncillaryCopy.copy(from: ancillarySource, into: db) }
      try db.execute("COMMIT")
      if !errors.isEmpty { throw Failure(message: errors.prefix(20).joined(separator: "; ")) }
      // WAL, as Core Data leaves a store: persistent in the header; the -wal is removed on close.
      try db.execute("PRAGMA journal_mode = WAL")
    } catch let e as Failure {
      throw e
    } catch {
      throw Failure(message: "\(error)")
    }
  }

  /// Core Data's triggers for derived attributes, then its statements that fill their values,
  /// entity by entity as Core Data runs them (`CoreDataSchema.derivedSQL`), with its SQL
  /// functions registered on the connection (`registerCoreDataFunctions`).
  private func writeDerived(_ db: SQLiteDatabase) throws {
    let statements = schema.derivedStatements()
    guard !statements.isEmpty else { return }
    try db.registerCoreDataFunctions(now: ReproducibleClock.now())
    for s in statements { try db.execute(s) }
  }

  private func writeJoinRows(_ db: SQLiteDatabase) throws {
    for j in schema.joinTables(frameworkVersion: metadata.frameworkVersion) {
      let columns = [j.firstColumn, j.secondColumn] + [j.firstOrder, j.secondOrder].compactMap { $0 }
      let insert = try db.prepare(
        "INSERT INTO \(j.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
      )
      // From chunks: the files of the owner's entity and of each entity that inherits the
      // relationship, in the order `objects(ofKind:)` takes them.
      let kinds = graph.layout.entityIndex(j.owner).map { graph.layout.entities[$0].kindIndexes } ?? []
      let byKind = kinds.map {
        (k: $0, rows: streamedJoins["\(graph.layout.entities[$0].name).\(j.relationship.name)"])
      }
      let files = byKind.compactMap(\.rows)
      if !files.isEmpty {
        if let k = byKind.first(where: { $0.rows == nil && graph.tables[$0.k].count > 0 })?.k {
          throw Failure(
            message:
              "cannot write join table \(j.name) from chunks: \(graph.layout.entities[k].name)'s objects were not written in chunks"
          )
        }
        for rows in files { try insertStreamedJoins(rows, insert, columns: columns.count) }
        continue
      }
      let secondOrder = j.secondOrder != nil ? positionsByOwner(j.owner, j.relationship.name) : [:]
      let firstOrder = j.firstOrder != nil ? positionsByOwner(j.relationship.destinationEntity, j.inverse.name) : [:]
      for owner in objects(ofKind: j.owner) {
        guard let p = graph.layout.entities[Int(owner.entity)].propertyIndex(j.relationship.name) else { continue }
        for member in members(owner, p) {
          insert.reset()
          try insert.bind(0, .integer(key(owner)))
          try insert.bind(1, .integer(key(member)))
          var k = 2
          if j.firstOrder != nil {
            try insert.bind(k, firstOrder[member]?[owner].map(SQLiteValue.integer) ?? .null)
            k += 1
          }
          if j.secondOrder != nil { try insert.bind(k, secondOrder[owner]?[member].map(SQLiteValue.integer) ?? .null) }
          _ = try insert.step()
        }
      }
    }
  }

  /// Core Data's position (`Z_FOK_`) of the member at `index` of an ordered relationship.
  static func position(at index: Int) -> Int64 { 2048 + 1024 * Int64(index) }

  /// `[owner: [member: position]]` of an ordered to-many (`position(at:)`).
  func positionsByOwner(_ entity: String, _ relationship: String) -> [ObjectRef: [ObjectRef: Int64]] {
    let given = graph.orderedPositions
    var result: [ObjectRef: [ObjectRef: Int64]] = [:]
    for owner in objects(ofKind: entity) {
      guard let p = graph.layout.entities[Int(owner.entity)].propertyIndex(relationship) else { continue }
      for (i, m) in members(owner, p).enumerated() {
        let whole = given.isEmpty ? nil : given[OrderedMember(owner: owner, property: p, member: m)]
        result[owner, default: [:]][m] = Self.position(at: whole ?? i)
      }
    }
    return result
  }

  private func writeFixedTables(_ db: SQLiteDatabase) throws {
    let pk = try db.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
    for (k, e) in schema.entities.enumerated() {
      pk.reset()
      try pk.bind(0, .integer(Int64(e.number)))
      try pk.bind(1, .text(e.name))
      try pk.bind(2, .integer(Int64(e.superNumber)))
      try pk.bind(3, .integer(e.root == k ? maxKey[k] ?? 0 : 0))
      _ = try pk.step()
    }
    let meta = try db.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
    try meta.bind(0, .text(metadata.uuid))
    try meta.bind(1, .blob(BinaryPropertyListWriter.write(metadata.plist())))
    _ = try meta.step()
    if writesModelCache {
      try CoreDataModelCache.write(schema.model, frameworkVersion: metadata.frameworkVersion, to: db)
    }
  }
}
