import MapRuntime

/// Core Data's SQLite store (`NSSQLiteStoreType`) as a store format: read by `CoreDataReader`,
/// written by `CoreDataWriter` into a new file that replaces the target atomically
/// (`SQLiteReplacement`; Specs/sqlite-store.md).
public struct SQLiteStoreFormat: StoreFormat {
  public init() {}

  /// Whether a store written has the model it was written for in `Z_MODELCACHE` (as Core Data
  /// leaves one); not the intermediate stores of a chain (`forIntermediateStores`).
  var writesModelCache = true

  public var name: String { "sqlite" }

  public func recognizes(prefix: [UInt8]) -> Bool { prefix.starts(with: Array("SQLite format 3\0".utf8)) }

  public func read(_ path: String, layout: StoreLayout, options: StoreReadOptions) throws(MigrationFailure)
    -> (ObjectGraph, StoreMetadata)
  {
    let store = try CoreDataStoreFile(path: path)
    let metadata = try CoreDataMetadata.read(store)
    var reader = CoreDataReader(store: store, layout: layout, maxErrors: options.maxErrors)
    reader.progress = options.rowProgress
    let graph = try reader.read()
    graph.finishBuilding(
      input: reader.transformables.bytes.take(path: path), transformableCodec: ArchivedBlobCodec.self)
    if !reader.externalFiles.isEmpty { graph.storeAttachment = reader.externalFiles }
    return (graph, Self.storeMetadata(metadata))
  }

  /// The metadata `read` returns for a store's `Z_METADATA`.
  static func storeMetadata(_ metadata: CoreDataMetadata) -> StoreMetadata {
    var result = StoreMetadata()
    result.modelVersionIdentifiers = metadata.identifiers
    result.entityVersionHashes = metadata.hashes.map { ($0.entity, Base64Codec.encode($0.hash)) }
    result.extra = metadata.carriedKeys.sorted { $0.key < $1.key }.map {
      ($0.key, CoreDataMetadataValues.value($0.value))
    }
    return result
  }

  /// The rows of the tables of the entities `Z_PRIMARYKEY` names without a parent (each holds
  /// its sub-entities' objects too), counted by SQLite (`count(*)` goes through the smallest
  /// index); the main file as it is: rows only a `-wal` holds are not counted. (`Z_MAX` is no
  /// bound to go by: it counts every object ever made, deleted ones too.)
  public func objectCountBound(_ path: String, cap: Int) -> Int? {
    guard let db = try? SQLiteDatabase(.uri(SQLiteDatabase.immutableURI(path))),
      let tables = try? db.rows(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (SELECT 'Z' || upper(Z_NAME) FROM Z_PRIMARYKEY WHERE Z_SUPER = 0)"
      )
    else { return nil }
    var total = 0
    for case .text(let table)? in tables.map(\.first) {
      guard let n = (try? db.rows("SELECT count(*) FROM \(SQLiteDatabase.quote(table))"))?.first?.first?.integer
      else { return nil }
      total = total.addingReportingOverflow(Int(clamping: n)).partialValue
    }
    return total
  }

  public func peekMetadata(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek {
    let store = try CoreDataStoreFile(path: path)
    let metadata = try CoreDataMetadata.read(store)
    var hashes: [String: String] = [:]
    for h in metadata.hashes { hashes[h.entity] = Base64Codec.encode(h.hash) }
    let steps = metadata.plist.first { $0.key == StoreMetadataPeek.migrationsKey }?.value.arrayValue ?? []
    var peek = StoreMetadataPeek.found(hashes: hashes, migrations: steps.map(CoreDataMetadataValues.value))
    peek.writtenBy = metadata.plist.filter { $0.key == "NSPersistenceFrameworkVersion" }.map {
      ($0.key, CoreDataMetadataValues.value($0.value))
    }
    return peek
  }

  public func write(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, to target: String?,
    backup: String?, options: StoreWriteOptions
  ) throws(MigrationFailure) {
    let input = source?.input ?? graph.input
    var writer = CoreDataWriter(
      graph: graph, input: input, codec: source?.transformableCodec ?? graph.transformableCodec,
      metadata: CoreDataMetadataOut(metadata: metadata),
      externalFiles: (source ?? graph).storeAttachment as? ExternalFilesRead)
    writer.progress = options.objectProgress
    writer.ancillarySource = options.bookkeepingFrom
    writer.writesModelCache = writesModelCache
    // A dry run: the rows are written to a store in memory and dropped.
    try Self.write(&writer, to: target, dryRun: ":memory:", backup: backup, durable: options.durable)
  }

  /// Writes `writer`'s store to `target` through `SQLiteReplacement`, or for a dry run (nil) to
  /// `dryRun`, which is not kept.
  static func write(
    _ writer: inout CoreDataWriter, to target: String?, dryRun: String, backup: String?, durable: Bool
  ) throws(MigrationFailure) {
    guard let target else {
      do throws(CoreDataWriter.Failure) {
        try writer.write(to: dryRun)
      } catch {
        throw MigrationFailure([
          MigrationError("sqlite-write", "cannot write the store: \(error.message)", file: nil)
        ])
      }
      return
    }
    try SQLiteReplacement.replace(target, backup: backup, durable: durable, external: { writer.external }) {
      (temporary: String) throws(MigrationFailure) in
      do throws(CoreDataWriter.Failure) {
        try writer.write(to: temporary)
      } catch {
        throw MigrationFailure([
          MigrationError("sqlite-write", "cannot write the store: \(error.message)", file: target)
        ])
      }
    }
  }

  /// Its UUID, framework version and version identifiers, its hashes in the order of
  /// `Z_METADATA`, its entities (`Z_ENT`, name, table, parent) with their rows, and apart
  /// from them the history and CloudKit tables (§4).
  public func summary(_ path: String) throws(MigrationFailure) -> StoreSummary {
    let info = try Self.info(path)
    var facts = [(label: "store UUID", value: info.uuid ?? "(none)")]
    if let v = info.frameworkVersion { facts.append(("framework version", "\(v)")) }
    facts.append(
      (
        "version identifiers",
        info.identifiers.isEmpty ? "(none)" : info.identifiers.map { "\"\($0)\"" }.joined(separator: ", ")
      ))
    let width = info.entities.map { "\($0.number) \($0.name)".count }.max() ?? 0
    var own: [String] = []
    for e in info.entities where e.isAncillary {
      own.append("  \(e.table) (Z_ENT \(e.number) \(e.name)): \(e.rows.map { "\($0) rows" } ?? "no table")")
    }
    for table in info.tables where table.hasPrefix("ANSCK") {
      own.append("  \(table) (CloudKit mirroring)")
    }
    let lines = info.entities.filter { !$0.isAncillary }.map { e in
      let label = "\(e.number) \(e.name)"
      let parent = e.superNumber == 0 ? "" : ", parent \(e.superNumber)"
      let rows = e.rows.map { "\($0) rows" } ?? "no table"
      return "  " + label + String(repeating: " ", count: width - label.count + 2) + "\(e.table)\(parent): \(rows)"
    }
    return StoreSummary(
      facts: facts, entityVersionHashes: info.hashes.map { ($0.entity, Base64Codec.encode($0.hash)) },
      entities: lines.isEmpty ? nil : ("entities (Z_ENT, name, table, rows):", lines),
      ownTables: own.isEmpty ? nil : ("Core Data's own tables (not entities of the model):", own))
  }

  /// `-wal`, `-shm` and `-journal` beside the store.
  public var hasCompanionFiles: Bool { true }

  /// Summary of a store without a model: its metadata, entities and rows per entity.
  public static func info(_ path: String) throws(MigrationFailure) -> SQLiteStoreInfo {
    let store = try CoreDataStoreFile(path: path)
    let metadata = try CoreDataMetadata.read(store)
    let tables = try store.tables()
    let keys = try store.primaryKeys(tables: tables)
    var entities: [SQLiteStoreInfo.Entity] = []
    var byNumber: [Int: CoreDataStoreFile.PrimaryKeyRow] = [:]
    for k in keys { byNumber[k.number] = k }
    for k in keys {
      var root = k
      while root.superNumber != 0, let p = byNumber[root.superNumber] { root = p }
      let table = (k.number >= CoreDataStoreFile.firstAncillaryEntity ? "A" : "Z") + CoreDataSchema.upper(root.name)
      var rows: Int? = nil
      if tables[table]?.contains("Z_ENT") == true {
        rows =
          (try? store.database.rows("SELECT count(*) FROM \(SQLiteDatabase.quote(table)) WHERE Z_ENT = \(k.number)"))?
          .first?.first?.integer.map(Int.init)
      }
      entities.append(.init(number: k.number, name: k.name, superNumber: k.superNumber, table: table, rows: rows))
    }
    return SQLiteStoreInfo(
      uuid: metadata.uuid, hashes: metadata.hashes.map { ($0.entity, $0.hash) }, identifiers: metadata.identifiers,
      frameworkVersion: metadata.plist.first { $0.key == "NSPersistenceFrameworkVersion" }?.value.integerValue,
      entities: entities, tables: tables.keys.sorted())
  }
}

/// What `mapc store info` prints about an SQLite store.
public struct SQLiteStoreInfo: Sendable {
  public struct Entity: Sendable {
    public var number: Int
    public var name: String
    public var superNumber: Int
    public var table: String
    /// Rows of this entity (nil when its table is missing).
    public var rows: Int?
    /// A persistent-history entity (`Z_ENT` 16000 and above, table `A…`): Core Data's own,
    /// not the model's (§4).
    public var isAncillary: Bool { number >= CoreDataStoreFile.firstAncillaryEntity }
  }
  public var uuid: String?
  public var hashes: [(entity: String, hash: [UInt8])]
  public var identifiers: [String]
  public var frameworkVersion: Int64?
  public var entities: [Entity]
  public var tables: [String]
}
