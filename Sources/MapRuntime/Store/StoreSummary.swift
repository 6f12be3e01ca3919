/// What `mapc store info` prints about a store without a model, as its format reads it: facts
/// about the file (its UUID, the framework version that wrote it), the entity version hashes it
/// records, and, where the format has them, its entities with their rows.
public struct StoreSummary: Sendable {
  /// `label: value` lines, in the order printed after the format's name.
  public var facts: [(label: String, value: String)]
  /// Entity name → base64 hash, in the order printed.
  public var entityVersionHashes: [(entity: String, hash: String)]
  /// The entity table: its heading and one laid-out line per entity (none: not printed).
  public var entities: (heading: String, lines: [String])?
  /// The tables the store keeps for itself, not for entities of the model (Core Data's
  /// persistent history and CloudKit mirroring): heading and lines (none: not printed).
  public var ownTables: (heading: String, lines: [String])?

  public init(
    facts: [(label: String, value: String)] = [], entityVersionHashes: [(entity: String, hash: String)],
    entities: (heading: String, lines: [String])? = nil, ownTables: (heading: String, lines: [String])? = nil
  ) {
    self.facts = facts
    self.entityVersionHashes = entityVersionHashes
    self.entities = entities
    self.ownTables = ownTables
  }
}
