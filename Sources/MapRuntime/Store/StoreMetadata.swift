/// The `metadata` object of a JSON store (`Specs/store-format.md`), as read.
public struct StoreMetadata: Sendable {
  package var format: String?
  package var formatVersion: Int64?
  package var modelVersionIdentifiers: [String]?
  /// Entity name → base64 hash, in the order written.
  package var entityVersionHashes: [(entity: String, hash: String)]?
  /// Other keys with their raw JSON text, kept for the output.
  package var extra: [(key: String, json: ByteSlice)]

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
