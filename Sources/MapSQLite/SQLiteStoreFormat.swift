import MapRuntime

/// Core Data's SQLite store (`NSSQLiteStoreType`) as a store format: read by `CoreDataReader`,
/// written by `CoreDataWriter` into a new file that replaces the target atomically
/// (`SQLiteReplacement`; Specs/sqlite-store.md).
public struct SQLiteStoreFormat: StoreFormat {
  public init() {}

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
    let (input, extra) = CoreDataMetadataJSON.render(
      metadata.carriedKeys, path: path, prefix: reader.transformables.text)
    graph.finishBuilding(input: input, transformableCodec: TransformableText.codec)
    var result = StoreMetadata()
    result.modelVersionIdentifiers = metadata.identifiers
    result.entityVersionHashes = metadata.hashes.map { ($0.entity, Base64Codec.encode($0.hash)) }
    result.extra = extra
    return (graph, result)
  }

  public func peekMetadata(_ path: String) throws(MigrationFailure) -> StoreMetadataPeek {
    let store = try CoreDataStoreFile(path: path)
    let metadata = try CoreDataMetadata.read(store)
    var hashes: [String: String] = [:]
    for h in metadata.hashes { hashes[h.entity] = Base64Codec.encode(h.hash) }
    let steps = metadata.plist.first { $0.key == StoreMetadataPeek.migrationsKey }?.value.arrayValue ?? []
    return .found(hashes: hashes, migrations: steps.compactMap(CoreDataMetadataJSON.metadataValue))
  }

  public func write(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriter.Metadata, to target: String?,
    backup: String?, options: StoreWriteOptions
  ) throws(MigrationFailure) {
    let input = source?.input ?? graph.input
    var writer = CoreDataWriter(
      graph: graph, input: input, metadata: CoreDataMetadataOut(metadata: metadata, input: input))
    guard let target else {
      // A dry run: the rows are written to a store in memory and dropped.
      do throws(CoreDataWriter.Failure) {
        try writer.write(to: ":memory:")
      } catch {
        throw MigrationFailure([
          MigrationError("sqlite-write", "cannot write the migrated store: \(error.message)", file: nil)
        ])
      }
      return
    }
    try SQLiteReplacement.replace(target, backup: backup) { (temporary: String) throws(MigrationFailure) in
      do throws(CoreDataWriter.Failure) {
        try writer.write(to: temporary)
      } catch {
        throw MigrationFailure([
          MigrationError("sqlite-write", "cannot write the migrated store: \(error.message)", file: target)
        ])
      }
    }
    options.progress?(0, 0)
  }

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
  }
  public var uuid: String?
  public var hashes: [(entity: String, hash: [UInt8])]
  public var identifiers: [String]
  public var frameworkVersion: Int64?
  public var entities: [Entity]
  public var tables: [String]
}
