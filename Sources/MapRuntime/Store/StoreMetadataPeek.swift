/// The parts of a store's `metadata` that `mapc migrate` needs before it runs anything, read
/// without reading the objects (their value is skipped token by token, nothing is built).
public struct StoreMetadataPeek: Sendable {
  /// Entity name → base64 hash; nil when the store records none.
  package var entityVersionHashes: [String: String]?
  /// `mapcMigrations`: the steps earlier `mapc migrate` runs applied (empty when absent).
  package var migrations: [MetadataValue] = []
  /// The metadata keys that say which version of the store's library wrote it, and so the
  /// layout a store written like it takes (a Core Data store's `NSPersistenceFrameworkVersion`).
  package var writtenBy: [(key: String, value: MetadataValue)] = []

  package init(entityVersionHashes: [String: String]? = nil, migrations: [MetadataValue] = []) {
    self.entityVersionHashes = entityVersionHashes
    self.migrations = migrations
  }

  /// The metadata key `mapc migrate` records applied steps under.
  package static let migrationsKey = "mapcMigrations"

  /// Whether `recorded` (entity → base64 hash) names exactly the entities and hashes of `model`.
  package static func sameHashes(_ recorded: [String: String], _ model: [EntityHash]) -> Bool {
    var wanted: [String: String] = [:]
    for h in model { wanted[h.entity] = Base64Codec.encode(h.hash) }
    return !wanted.isEmpty && recorded == wanted
  }
}
