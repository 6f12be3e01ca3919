import MapRuntime

/// Writes a Core Data SQLite store from chunks of destination objects (`ChunkedStoreFormat`).
///
/// A chunk of streamed objects (or one whose objects are all of entities without parent or
/// sub-entities) is rendered as it comes, each entity's rows into a scratch file of that
/// entity (`ScratchRows`): their keys are their numbers in the whole run, and the objects a
/// chunk's objects refer to are in the same chunk or its stubs (`StreamingPlan`), so their
/// foreign keys, entity columns and `Z_FOK_` positions are those of the whole run; an
/// inheritance tree's entities stream only when each of them is filled from one source tree,
/// whose numbers the objects keep. Any other chunk (the part of the store read whole, or one
/// with values read from external files) is kept as it is, and only one may come. `commit` writes the
/// store as the whole-store writer does, taking the scratch files' rows in their entities'
/// places: the file's bytes are those of the run over the whole store.
final class CoreDataChunkWriter: StoreChunkWriter {
  private let layout: StoreLayout
  private let target: String?
  private let scratch: String
  private let writesModelCache: Bool
  /// Per destination entity (layout index): whether its rows go through a scratch file.
  private let standsAlone: [Bool]
  private var rows: [Int: ScratchRows] = [:]
  /// Join rows per `Entity.relationship` (many-to-many), rendered from each side's chunks.
  private var joins: [String: ScratchRows] = [:]
  private var errors: [Int: [String]] = [:]
  private var held: (graph: ObjectGraph, source: ObjectGraph)?
  /// The run's memory: the store's page cache is sized from it (`CoreDataWriter.cacheKiB`).
  private let budget: MemoryBudget

  init(layout: StoreLayout, target: String?, scratch: String, writesModelCache: Bool, budget: MemoryBudget) {
    self.budget = budget
    self.layout = layout
    self.target = target
    self.scratch = scratch
    self.writesModelCache = writesModelCache
    let model = layout.model
    standsAlone = layout.entities.map { e in
      guard let d = model.entity(named: e.name) else { return false }
      return d.parentName == nil && !model.entities.contains { $0.parentName == e.name }
    }
  }

  /// Why entity `name` of the destination model cannot be written from chunks, beyond
  /// `StreamingPlan`'s rules (no parent, no sub-entities); nil when it can.
  static func cannotWrite(_ name: String, in model: ObjectModel) -> String? {
    guard let e = model.entity(named: name) else { return "it is not in the destination model" }
    if let r = e.relationships.first(where: {
      model.isManyToMany($0) && $0.inverseName == $0.name && $0.destinationEntity == name
    }) {
      return
        "its relationship \(r.name) is its own inverse (a join table's REFLEXIVE column), which a run in chunks cannot write yet"
    }
    if let a = e.attributes.first(where: { $0.allowsExternalBinaryDataStorage }) {
      return "its attribute \(a.name) may be stored in an external file, which a run in chunks cannot write yet"
    }
    return nil
  }

  func append(_ chunk: ObjectGraph, source: ObjectGraph) throws(MigrationFailure) {
    chunk.finalize()
    let filled = chunk.tables.indices.filter { chunk.tables[$0].realCount > 0 }
    // Values read from external files are written as references by the whole-store writer,
    // which gets the files read with the graph: such a part is kept whole.
    guard source.isStreamedChunk || filled.allSatisfy({ standsAlone[$0] }), source.storeAttachment == nil else {
      guard held == nil else {
        throw MigrationFailure([
          MigrationError(
            "sqlite-write",
            "cannot write the store from chunks: two parts of it must be written whole (their entities have parents, sub-entities or many-to-many relationships, or values read from external files)",
            file: target)
        ])
      }
      held = (chunk, source)
      return
    }
    var writer = CoreDataWriter(
      graph: chunk, input: source.input, codec: source.transformableCodec,
      metadata: CoreDataMetadataOut(metadata: StoreWriteMetadata(modelVersionIdentifiers: [], entityHashes: [])))
    for e in filled {
      if rows[e] == nil { rows[e] = try ScratchRows(path: "\(scratch)/\(e).rows") }
      writer.errors = []
      try writer.renderRows(of: e, into: rows[e]!)
      // Nothing of a chunk stays in memory after it (the rows gathered are about its size).
      try rows[e]!.flush(force: true)
      // A whole run reports the first 20 (`CoreDataWriter.write`).
      if errors[e, default: []].count < 20 { errors[e, default: []] += writer.errors.prefix(20) }
      // Join rows of its many-to-many relationships, from its side (the store's metadata, known
      // at the end, says which side's rows the join table takes).
      for (p, property) in layout.entities[e].properties.enumerated() {
        guard let r = property.relationship, layout.model.isManyToMany(r) else { continue }
        let id = "\(layout.entities[e].name).\(r.name)"
        if joins[id] == nil { joins[id] = try ScratchRows(path: "\(scratch)/\(e)-\(p).joins") }
        try writer.renderJoinRows(of: e, property: p, into: joins[id]!)
      }
    }
  }

  func commit(
    metadata: StoreWriteMetadata, keyHighWater: [String: Int64], backup: String?, durable: Bool,
    bookkeepingFrom: String?, written: (@Sendable (Int) -> Void)?
  ) throws(MigrationFailure) {
    let graph = held?.graph ?? ObjectGraph(layout: layout, input: nil, isSource: false)
    for (root, high) in keyHighWater where layout.entityIndex(root) != nil {
      graph.keyHighWater[root] = max(graph.keyHighWater[root] ?? 0, high)
    }
    if let e = rows.keys.sorted().first(where: { graph.tables[$0].count > 0 }) {
      throw MigrationFailure([
        MigrationError(
          "sqlite-write",
          "cannot write the store from chunks: entity \(layout.entities[e].name) has objects in more than one part",
          file: target)
      ])
    }
    var writer = CoreDataWriter(
      graph: graph, input: held?.source.input, codec: held?.source.transformableCodec,
      metadata: CoreDataMetadataOut(metadata: metadata),
      externalFiles: held?.source.storeAttachment as? ExternalFilesRead)
    writer.writesModelCache = writesModelCache
    writer.cacheKiB = CoreDataWriter.cacheKiB(limit: budget.limit)
    writer.ancillarySource = bookkeepingFrom
    writer.takeStreamed(rows, errors: errors)
    writer.streamedJoins = joins
    // A dry run writes into the scratch folder (not into memory: the store may be larger).
    try SQLiteStoreFormat.write(
      &writer, to: target, dryRun: "\(scratch)/dry-run.sqlite", backup: backup, durable: durable)
  }

  func discard() {
    rows = [:]
    joins = [:]
    held = nil
  }
}

extension SQLiteStoreFormat: ChunkedStoreFormat {
  /// The store's metadata (`Z_METADATA`, as `CoreDataChunkReader.finish` reads it) and the
  /// highest numbers `Z_PRIMARYKEY` records for its root entities (as the reader carries them).
  package func metadataForecast(_ path: String, layout: StoreLayout) -> (
    StoreMetadata, keyHighWater: [String: Int64]
  )? {
    guard let store = try? CoreDataStoreFile(path: path), let tables = try? store.tables(),
      let keys = try? store.primaryKeys(tables: tables), let metadata = try? CoreDataMetadata.read(store)
    else { return nil }
    var high: [String: Int64] = [:]
    for k in keys where k.superNumber == 0 && k.max > 0 { high[k.name] = k.max }
    return (Self.storeMetadata(metadata), high)
  }

  package func openChunks(
    _ path: String, layout: StoreLayout, streamed: Set<Int>, stubs: Bool, positionsOnly: Set<String>,
    budget: MemoryBudget, maxErrors: Int, scratch: String, firstPass: (@Sendable (Int, Int) -> Void)?
  ) throws(MigrationFailure) -> any StoreChunkReader {
    try CoreDataChunkReader(
      path: path, layout: layout, streamed: streamed, stubs: stubs, positionsOnly: positionsOnly, budget: budget,
      maxErrors: maxErrors, scratch: scratch)
  }

  package func openChunkWriter(layout: StoreLayout, target: String?, scratch: String, budget: MemoryBudget)
    throws(MigrationFailure) -> any StoreChunkWriter
  {
    CoreDataChunkWriter(
      layout: layout, target: target, scratch: scratch, writesModelCache: writesModelCache, budget: budget)
  }

  package func cannotStream(source name: String, in model: ObjectModel) -> String? {
    guard let e = model.entity(named: name) else { return nil }
    if let a = e.attributes.first(where: { $0.allowsExternalBinaryDataStorage }) {
      return "its attribute \(a.name) may be stored in an external file, which a run in chunks cannot read yet"
    }
    return nil
  }

  package func cannotStream(destination name: String, in model: ObjectModel) -> String? {
    CoreDataChunkWriter.cannotWrite(name, in: model)
  }

  /// A streamed table's `Z_PK` is its rowid (`CoreDataChunkReader` refuses a table declared
  /// otherwise): unique, and a key of 0 or below is an error of the read.
  package var keepsObjectKeysInChunks: Bool { true }

  /// A chunk's reference to a row outside it is read as a stub, its `Z_PK` looked up by rowid.
  package var readsReferencesAsStubs: Bool { true }

  /// A one-to-many is kept in its members' rows (their foreign keys and `Z_FOK_` positions);
  /// a many-to-many in its join table.
  package var listsToManyMembers: Bool { false }
}
