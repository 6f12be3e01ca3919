/// A store's metadata as read, in any format: its version identifiers and entity version hashes,
/// and the other keys it carries, as typed values.
public struct StoreMetadata: Sendable {
  package var format: String?
  package var formatVersion: Int64?
  package var modelVersionIdentifiers: [String]?
  /// Entity name → base64 hash, in the order written.
  package var entityVersionHashes: [(entity: String, hash: String)]?
  /// Other keys with their values, kept for the output.
  package var extra: [(key: String, value: MetadataValue)]

  package init() {
    extra = []
  }

  /// Entities whose recorded hash differs from `expected` (missing on either side counts),
  /// sorted by name; empty when the store records no hashes.
  package func entitiesWithDifferentHashes(_ expected: [EntityHash]) -> [String] {
    guard let recorded = entityVersionHashes else { return [] }
    var stored: [String: String] = [:]
    for (e, h) in recorded { stored[e] = h }
    var wanted: [String: String] = [:]
    for h in expected { wanted[h.entity] = Base64Codec.encode(h.hash) }
    let names = Set(stored.keys).union(wanted.keys)
    return names.filter { stored[$0] != wanted[$0] }.sorted()
  }
}

/// The metadata a store format writes: the destination model's version identifiers and entity
/// hashes, the input's other keys carried over, and the keys mapc writes itself.
public struct StoreWriteMetadata: Sendable {
  package var modelVersionIdentifiers: [String]
  package var entityHashes: [EntityHash]
  /// Extra metadata keys carried over from the input, with their values.
  package var extra: [(key: String, value: MetadataValue)]
  /// Keys mapc writes itself; one of these replaces an `extra` key of the same name.
  package var generated: [(key: String, value: MetadataValue)]
  package init(
    modelVersionIdentifiers: [String], entityHashes: [EntityHash], extra: [(key: String, value: MetadataValue)] = [],
    generated: [(key: String, value: MetadataValue)] = []
  ) {
    self.modelVersionIdentifiers = modelVersionIdentifiers
    self.entityHashes = entityHashes
    self.extra = extra
    self.generated = generated
  }
}
