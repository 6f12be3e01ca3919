import MapArchives
import MapRuntime

/// A store handed on in memory between the steps of a fused chain (`StoreFormat.readBack`):
/// only a graph without objects, whose round trip through a file holds nothing but the
/// metadata and each root's `Z_MAX`. The metadata goes through the writer's own property list
/// and the reader's own parsing, so it is what a read of the file would give by construction;
/// `Z_MAX` is what the writer numbers and the reader keeps. A graph with objects (values of
/// every kind, their order by `Z_PK`, to-many members rebuilt from foreign keys and `Z_FOK_`
/// columns, Transformable and external data) is written to a scratch store and read back.
extension SQLiteStoreFormat {
  public func readBack(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, layout: StoreLayout, path: String
  ) -> (ObjectGraph, StoreMetadata)? {
    guard graph.objectCount == 0, layout.model == graph.layout.model else { return nil }
    let schema = CoreDataSchema.of(layout)
    guard schema.nameProblem() == nil, Self.readsOwnEntities(schema, layout.model) else { return nil }
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
    let result = ObjectGraph(layout: layout, input: nil, isSource: true)
    // Z_MAX of each root as the writer gives it to a hierarchy without objects, kept by the
    // reader where it is above 0.
    for root in schema.roots {
      let name = schema.entities[root].name
      if let high = graph.keyHighWater[name], high > 0 { result.keyHighWater[name] = high }
    }
    result.finishBuilding(
      input: TransformableBlobs(expected: 0).bytes.take(path: path), transformableCodec: ArchivedBlobCodec.self)
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
