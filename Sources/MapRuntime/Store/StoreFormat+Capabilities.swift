/// What a format that lacks a capability answers: it carries no model, no bookkeeping and no
/// external files, is copied as bytes and has no schema beyond its hashes.
extension StoreFormat {
  public var carriesModels: Bool { false }

  public func carriedModel(_ path: String) throws(MigrationFailure) -> CarriedModel? { nil }

  public func bookkeeping(_ path: String) -> [StoreBookkeeping] { [] }

  public func missingExternalFiles(_ path: String, model: ObjectModel) -> [MissingExternalFiles] { [] }

  public var keepsMissingExternalFiles: Bool { false }

  public var isCopiedAsBytes: Bool { true }

  public func schema(_ path: String) throws(MigrationFailure) -> StoreSchema? { nil }
}
