import MapArchives
import MapRuntime

/// A store handed on in memory between the steps of a fused chain (`StoreFormat.readBack`):
/// the graph and metadata a read of the store `write` would write gives, made without the
/// file. The metadata goes through the writer's own property list and the reader's own
/// parsing; the objects, their numbers, values and relationships through the writer's own
/// cells read as the reader reads rows (`HandedRows`), which gives up (nil: the store is
/// written and read back) wherever it cannot follow the round trip exactly.
extension SQLiteStoreFormat {
  public func readBack(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, layout: StoreLayout, path: String,
    progress: (@Sendable (Int, Int) -> Void)?
  ) -> (ObjectGraph, StoreMetadata)? {
    guard layout.model == graph.layout.model else { return nil }
    let schema = CoreDataSchema.of(layout)
    guard schema.nameProblem() == nil, Self.readsOwnEntities(schema, layout.model) else { return nil }
    // Derived values are computed by SQL in the store (`CoreDataWriter.writeDerived`), not in the graph.
    guard schema.derivedStatements().isEmpty else { return nil }
    let written = CoreDataMetadataOut(metadata: metadata)
    // Z_UUID is text; one with a NUL is not sure to come back whole.
    guard !written.uuid.utf8.contains(0) else { return nil }
    let stored: CoreDataMetadata
    do {
      stored = try CoreDataMetadata.parse(
        uuid: written.uuid, plist: BinaryPropertyListWriter.write(written.plist()), path: path)
    } catch {
      return nil  // the read would fail: written and read, it says why
    }
    // The writer as `write` makes it.
    let writer = CoreDataWriter(
      graph: graph, input: source?.input ?? graph.input, codec: source?.transformableCodec ?? graph.transformableCodec,
      metadata: written, externalFiles: (source ?? graph).storeAttachment as? ExternalFilesRead)
    var rows = HandedRows(writer: writer, layout: layout)
    rows.progress = progress
    guard let result = rows.make(path: path) else { return nil }
    return (result, Self.storeMetadata(stored))
  }

  /// Whether the reader maps the `Z_PRIMARYKEY` rows the writer writes for `schema` back to the
  /// model's entities without an error: every entity once, by a name no other has, under the
  /// parent the model gives it.
  private static func readsOwnEntities(_ schema: CoreDataSchema, _ model: ObjectModel) -> Bool {
    let names = schema.entities.map(\.name)
    guard schema.entities.count == model.entities.count, Set(names).count == names.count else { return false }
    return schema.entities.allSatisfy { e in
      let parent = e.superNumber == 0 ? nil : names[e.superNumber - 1]
      return e.number >= 1 && e.number < CoreDataStoreFile.firstAncillaryEntity
        && parent == model.entity(named: e.name)?.parentName
    }
  }
}
