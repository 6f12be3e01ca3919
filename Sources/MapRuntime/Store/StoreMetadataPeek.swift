/// The parts of a store's `metadata` that `mapc migrate` needs before it runs anything, read
/// without reading the objects (their value is skipped token by token, nothing is built).
public struct StoreMetadataPeek: Sendable {
  /// Entity name → base64 hash; nil when the store records none.
  package var entityVersionHashes: [String: String]?
  /// `mapcMigrations`: the steps earlier `mapc migrate` runs applied (empty when absent).
  package var migrations: [MetadataValue] = []

  package init(entityVersionHashes: [String: String]? = nil, migrations: [MetadataValue] = []) {
    self.entityVersionHashes = entityVersionHashes
    self.migrations = migrations
  }

  /// The metadata key `mapc migrate` records applied steps under.
  package static let migrationsKey = "mapcMigrations"
}
