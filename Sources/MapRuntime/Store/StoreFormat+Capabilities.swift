/// What a format that lacks a capability answers: it carries no model, no bookkeeping and no
/// external files, is copied as bytes, has no schema beyond its hashes and hands no store on in
/// memory (a chain's steps hand theirs on through scratch stores).
extension StoreFormat {
  public var carriesModels: Bool { false }

  public var computesDerivedAttributes: Bool { false }

  public func carriedModel(_ path: String) throws(MigrationFailure) -> CarriedModel? { nil }

  public func bookkeeping(_ path: String) -> [StoreBookkeeping] { [] }

  public func missingExternalFiles(_ path: String, model: ObjectModel) -> [MissingExternalFiles] { [] }

  public var keepsMissingExternalFiles: Bool { false }

  public var isCopiedAsBytes: Bool { true }

  public func schema(_ path: String) throws(MigrationFailure) -> StoreSchema? { nil }

  public func readBack(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, layout: StoreLayout, path: String,
    progress: (@Sendable (Int, Int) -> Void)?
  ) -> (ObjectGraph, StoreMetadata)? { nil }

  /// `readBack` without progress.
  public func readBack(
    _ graph: ObjectGraph, source: ObjectGraph?, metadata: StoreWriteMetadata, layout: StoreLayout, path: String
  ) -> (ObjectGraph, StoreMetadata)? {
    readBack(graph, source: source, metadata: metadata, layout: layout, path: path, progress: nil)
  }
}
