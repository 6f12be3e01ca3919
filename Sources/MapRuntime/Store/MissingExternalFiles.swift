/// The values of one Binary attribute that a store keeps outside itself in files that are
/// missing (Core Data SQLite's external storage, Specs/sqlite-store.md §5).
public struct MissingExternalFiles: Sendable, Hashable {
  public var entity: String
  public var attribute: String
  /// How many values name a missing file.
  public var count: Int

  public init(entity: String, attribute: String, count: Int) {
    self.entity = entity
    self.attribute = attribute
    self.count = count
  }
}
