import MapRuntime

/// What a Core Data SQLite store holds besides the objects: the model that wrote it
/// (`Z_MODELCACHE`, Specs/sqlite-store.md §7.2), Core Data's own tables (§4), Binary values in
/// external files (§5), and a schema of tables and indexes.
extension SQLiteStoreFormat {
  public var carriesModels: Bool { true }

  /// Core Data's triggers and fill statements for derived attributes (`CoreDataSchema.derivedSQL`).
  public var computesDerivedAttributes: Bool { true }

  /// Without `Z_MODELCACHE` (its table made, empty): only mapc reads an intermediate store, with
  /// the step's model, and the cache is the writer's largest cost for a store with few rows
  /// (archiving the model). The store a chain writes last has it.
  public var forIntermediateStores: any StoreFormat {
    var format = self
    format.writesModelCache = false
    return format
  }

  /// The model's Core Data schema: entity numbers, tables and columns, and the check of its
  /// names.
  public func prepareLayout(_ layout: StoreLayout) {
    let schema = CoreDataSchema.of(layout)
    if schema.nameProblem() == nil { _ = schema.tables() }
  }

  public func carriedModel(_ path: String) throws(MigrationFailure) -> CarriedModel? {
    try CoreDataModelCacheReader.read(storeAt: path).map { CarriedModel(model: $0.model, omitted: $0.omitted) }
  }

  /// Persistent history with rows (`ATRANSACTION`, `ACHANGE`), and the CloudKit mirroring tables.
  public func bookkeeping(_ path: String) -> [StoreBookkeeping] {
    guard let info = try? Self.info(path) else { return [] }
    var found: [StoreBookkeeping] = []
    let history = info.entities.filter(\.isAncillary)
    let changes = history.first { $0.name == "CHANGE" }?.rows ?? 0
    let transactions = history.first { $0.name == "TRANSACTION" }?.rows ?? 0
    if changes + transactions > 0 { found.append(.persistentHistory(transactions: transactions, changes: changes)) }
    let cloudKit = info.tables.filter { $0.hasPrefix("ANSCK") }
    if !cloudKit.isEmpty { found.append(.cloudKitMirroring(tables: cloudKit)) }
    return found
  }

  public func missingExternalFiles(_ path: String, model: ObjectModel) -> [MissingExternalFiles] {
    ExternalData.missingFiles(path, model: model).map {
      MissingExternalFiles(entity: $0.entity, attribute: $0.attribute, count: $0.count)
    }
  }

  /// A store written from one with missing external files names the same files.
  public var keepsMissingExternalFiles: Bool { true }

  /// A copy is written again (keeping the history and CloudKit tables), not copied page by page.
  public var isCopiedAsBytes: Bool { false }

  /// `sqlite_master`'s tables, indexes and triggers (`CoreDataSchemaSnapshot`).
  public func schema(_ path: String) throws(MigrationFailure) -> StoreSchema? {
    StoreSchema(lines: try CoreDataSchemaSnapshot.lines(ofStoreAt: path))
  }
}
