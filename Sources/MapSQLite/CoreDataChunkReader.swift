import Foundation
import MapRuntime

/// Reads a Core Data SQLite store a chunk of rows at a time (`ChunkedStoreFormat`,
/// `Specs/limits.md` "Memory").
///
/// Without `stubs` each streamed entity is its hierarchy's only entity (`StreamingPlan`): its
/// table holds its rows only, and no other table's rows refer to them. With `stubs` the
/// entities of an inheritance tree stream together, a chunk of their table at a time; the objects a
/// chunk's rows refer to, and the members of their to-many relationships, are read as stubs
/// (`CoreDataReader.resolveReferencesWithStubs`), and the members count toward the chunk. Its rows are read in `Z_PK` order, a chunk at a
/// time, by the whole-store reader's own code (`CoreDataReader.readHierarchy`), each chunk the
/// rows after the previous chunk's last `Z_PK` until their values come to the budget's window.
/// Every other entity is read whole, last, within the budget's share for it.
final class CoreDataChunkReader: StoreChunkReader {
  private let store: CoreDataStoreFile
  private let layout: StoreLayout
  private let schema: CoreDataSchema
  private let budget: MemoryBudget
  private let maxErrors: Int
  /// Whether a chunk's references to objects outside it are read as stubs
  /// (`CoreDataReader.resolveReferencesWithStubs`).
  private let stubs: Bool
  /// The ordered relationships whose members in a chunk get their index in the whole
  /// relationship when the owner is a stub (`CoreDataReader.positionsOnly`).
  private let positionsOnly: Set<String>
  /// The positions of those relationships, spilled once counting them costs too much.
  private let positionSpill: PositionSpill
  private let tables: [String: [String]]
  private let primaryKeys: [CoreDataStoreFile.PrimaryKeyRow]
  /// Schema indexes of the roots of the streamed hierarchies (every entity of each streams), in
  /// table order.
  private let streamedRoots: [Int]
  private var current = 0
  /// The last `Z_PK` of the current entity's rows given so far (nil: none yet).
  private var after: Int64?
  private var heldGiven = false
  /// Rows of each entity (layout index) of the current streamed hierarchy given in chunks so far.
  private var given: [Int: Int] = [:]
  private let totalRows: Int

  init(
    path: String, layout: StoreLayout, streamed: Set<Int>, stubs: Bool, positionsOnly: Set<String>,
    budget: MemoryBudget, maxErrors: Int, scratch: String
  ) throws(MigrationFailure) {
    self.stubs = stubs
    self.positionsOnly = positionsOnly
    positionSpill = PositionSpill(folder: scratch, cacheKiB: CoreDataWriter.cacheKiB(limit: budget.limit))
    let store = try CoreDataStoreFile(path: path)
    let schema = CoreDataSchema.of(layout)
    let tables = try store.tables()
    self.store = store
    self.layout = layout
    self.schema = schema
    self.budget = budget
    self.maxErrors = maxErrors
    self.tables = tables
    primaryKeys = try store.primaryKeys(tables: tables)
    let roots = schema.roots.filter { root in
      schema.entities.contains { $0.root == root && streamed.contains($0.index) }
    }
    streamedRoots = roots
    for root in roots {
      let table = schema.entities[root].table
      // Chunks are taken by `Z_PK > last`: only a rowid key (Core Data's `INTEGER PRIMARY
      // KEY`) is unique and found without a sort.
      // (A table that is missing is reported by the reader, as in memory.)
      if tables[table] != nil, !(try Self.keyIsRowID(store, table)) {
        throw Self.refusal(
          path,
          "table \(table) has no INTEGER PRIMARY KEY Z_PK (Core Data's layout), so it cannot be read a chunk at a time")
      }
    }
    // Everything not streamed is read whole: it must fit its share of the limit. (The join
    // tables of streamed entities, whose both sides stream, are read with their chunks.)
    var streamedTables = Set(roots.map { schema.entities[$0].table })
    var mapped = CoreDataReader(store: store, layout: layout, maxErrors: maxErrors)
    mapped.tables = tables
    try mapped.mapEntities(primaryKeys)
    for root in roots {
      for e in schema.hierarchy(root) {
        guard let entity = layout.model.entity(named: e.name) else { continue }
        for r in entity.relationships where layout.model.isManyToMany(r) {
          streamedTables.formUnion(mapped.joinTableNames(entity.name, r))
        }
      }
    }
    var held = 0
    // Z_MODELCACHE is not read by a run.
    for name in tables.keys.sorted() where !streamedTables.contains(name) && name != "Z_MODELCACHE" {
      held += Self.tableBytes(store, name) ?? 0
    }
    // Binary values in external files are read with the part read whole (a streamed entity
    // has no attribute that allows them): their files count too.
    let external =
      layout.model.entities.contains { $0.attributes.contains(where: \.allowsExternalBinaryDataStorage) }
      ? Self.externalBytes(ofStore: path) : 0
    if held + external > budget.held {
      let files = external > 0 ? " and \(external) bytes of external files" : ""
      throw Self.refusal(
        path,
        "the tables of the entities that cannot be read a chunk at a time take \(held) bytes\(files), more than a quarter of the limit (\(budget.held) bytes)"
      )
    }
    // For progress: the rows of the tables read whole, and for a streamed table its highest
    // Z_PK (counting its rows would read the whole table once more).
    totalRows = schema.roots.reduce(0) { total, root in
      let table = schema.entities[root].table
      guard roots.contains(root) else { return total + mapped.rowCount(table) }
      let high = try? store.query("SELECT max(Z_PK) FROM \(SQLiteDatabase.quote(table))", what: table).first?.first?
        .integer
      return total + Int(clamping: max(0, high ?? 0))
    }
  }

  static func refusal(_ path: String, _ why: String) -> MigrationFailure {
    MigrationFailure([MigrationError("run-memory-limit", "the store cannot be migrated in chunks: \(why)", file: path)])
  }

  /// Whether `Z_PK` is `table`'s rowid (declared `INTEGER PRIMARY KEY`, its only key column).
  private static func keyIsRowID(_ store: CoreDataStoreFile, _ table: String) throws(MigrationFailure) -> Bool {
    let columns = try store.query("PRAGMA table_info(\(SQLiteDatabase.quote(table)))", what: table)
    // table_info: cid, name, type, notnull, dflt_value, pk.
    let keys = columns.filter { ($0.count > 5 ? $0[5].integer ?? 0 : 0) > 0 }
    guard keys.count == 1, keys[0][1].text == "Z_PK" else { return false }
    return keys[0][2].text?.uppercased() == "INTEGER"
  }

  /// The bytes of the regular files in the store's folder of external Binary values (every
  /// file, whether a row names it or not: finding out would read every row).
  private static func externalBytes(ofStore path: String) -> Int {
    let folder = ExternalData.dataFolder(ofStore: path)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.reduce(0) { sum, name in
      let a = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
      guard a?[.type] as? FileAttributeType == .typeRegular else { return sum }
      return sum + ((a?[.size] as? NSNumber)?.intValue ?? 0)
    }
  }

  /// The bytes of `table`'s rows (their payload, SQLite's `dbstat`), nil when they cannot be
  /// counted.
  private static func tableBytes(_ store: CoreDataStoreFile, _ table: String) -> Int? {
    guard let statement = try? store.database.prepare("SELECT sum(payload) FROM dbstat WHERE name = ?"),
      (try? statement.bindText(0, table)) != nil, (try? statement.step()) == true
    else { return nil }
    return Int(statement.int64(0))
  }

  var progressTotal: Int { totalRows }
  var countsRows: Bool { true }
  func weight(of chunk: ObjectGraph) -> Int { chunk.tables.reduce(0) { $0 + $1.realCount } }

  private func reader(maxErrors: Int) throws(MigrationFailure) -> CoreDataReader {
    var reader = CoreDataReader(store: store, layout: layout, maxErrors: maxErrors)
    reader.tables = tables
    try reader.mapEntities(primaryKeys)
    return reader
  }

  /// Errors of the streamed tables found so far, per root. Once there is one, the rest of the
  /// store is only read for more (no chunk is given any more), and they are thrown with the
  /// errors of the part read whole in the order the whole-store reader finds them: table by
  /// table in the schema's order, then references, at most `maxErrors`.
  private var streamedErrors: [Int: [MigrationError]] = [:]

  func next() throws(MigrationFailure) -> ObjectGraph? {
    while current < streamedRoots.count {
      let root = streamedRoots[current]
      let found = streamedErrors[root]?.count ?? 0
      var reader = try reader(maxErrors: maxErrors - found)
      reader.chunk = (after, budget.window, budget.largestValue)
      reader.readingRoot = root
      reader.countsMembers = stubs
      reader.positionsOnly = positionsOnly
      reader.positionSpill = positionSpill
      do throws(CoreDataReader.Stop) {
        // (With stubs, a row's key of the owner of a to-many without an inverse is read too.)
        try reader.readHierarchy(root, hidden: stubs ? (reader.hiddenKeys()[root] ?? []) : [])
        if stubs { try reader.resolveReferencesWithStubs() }
      } catch {}
      if !reader.errors.isEmpty { streamedErrors[root, default: []] += reader.errors }
      let graph = reader.graph
      var rows = 0
      for e in schema.hierarchy(root) {
        let table = graph.tables[e.index]
        table.rowOffset = given[e.index, default: 0]
        given[e.index, default: 0] += table.realCount
        rows += table.realCount
      }
      if let last = reader.chunkLast, found + reader.errors.count < maxErrors {
        after = last
      } else {
        current += 1
        after = nil
        given = [:]
      }
      guard streamedErrors.isEmpty, rows > 0 else { continue }
      graph.finishBuilding(
        input: reader.transformables.bytes.take(path: store.path), transformableCodec: ArchivedBlobCodec.self)
      graph.isStreamedChunk = true
      for e in schema.entities where !streamedRoots.contains(e.root) { graph.tables[e.index].countsStubLinks = true }
      return graph
    }
    guard !heldGiven else { return nil }
    heldGiven = true
    var reader = try reader(maxErrors: maxErrors)
    reader.skippedRoots = Set(streamedRoots)
    var read: ObjectGraph?
    do {
      read = try reader.readMapped()
    } catch {
      if streamedErrors.isEmpty { throw error }
    }
    guard let graph = read, streamedErrors.isEmpty else {
      var all: [MigrationError] = []
      for root in schema.roots {
        all += streamedErrors[root] ?? zip(reader.errors, reader.errorRoots).filter { $0.1 == root }.map(\.0)
      }
      all += zip(reader.errors, reader.errorRoots).filter { $0.1 == -1 }.map(\.0)
      throw MigrationFailure(Array(all.prefix(maxErrors)), truncated: all.count >= maxErrors)
    }
    graph.finishBuilding(
      input: reader.transformables.bytes.take(path: store.path), transformableCodec: ArchivedBlobCodec.self)
    if !reader.externalFiles.isEmpty { graph.storeAttachment = reader.externalFiles }
    return graph
  }

  func finish() throws(MigrationFailure) -> StoreMetadata {
    SQLiteStoreFormat.storeMetadata(try CoreDataMetadata.read(store))
  }
}
