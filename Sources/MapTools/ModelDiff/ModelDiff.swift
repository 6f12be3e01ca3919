import MapRuntime

/// What changed between two versions of a data model (`mapc diff`, Specs/model-diff.md):
/// entities and properties added, removed, renamed (matched by the destination's renaming
/// identifier, as Core Data matches them) and changed, and whether Core Data can infer the step.
public struct ModelDiff: Sendable {
  public enum Kind: String, Sendable {
    case added, removed, renamed, changed, unchanged
  }

  /// One property (attribute or relationship) of a matched entity that differs.
  public struct PropertyChange: Sendable {
    /// Its destination name (its source name when removed).
    public var name: String
    public var isRelationship: Bool
    public var kind: Kind
    /// Its source name, when renamed.
    public var renamedFrom: String?
    /// `type: String → Integer 64`, one per changed facet.
    public var changes: [String]
    /// A short description of the property as it is in the destination (the source when removed).
    public var summary: String
  }

  /// One entity of either model.
  public struct EntityChange: Sendable {
    /// Its destination name (its source name when removed).
    public var name: String
    public var kind: Kind
    public var renamedFrom: String?
    /// Entity-level changes: parent, abstract, hash modifier, constraints, indexes.
    public var changes: [String]
    public var properties: [PropertyChange]
    /// True when Core Data's version hash of the entity differs (stores see the change).
    public var hashChanged: Bool
  }

  /// Whether Core Data's lightweight migration can make the step, and at what cost.
  public enum Inference: Sendable, Equatable {
    /// It can, and nothing the store holds is dropped.
    case inferable
    /// It can, but these entities' objects or properties' values are dropped.
    case losesData([String])
    /// It cannot: these are the reasons (`infer-*` errors).
    case notInferable([String])
  }

  /// Labels of the two versions (`Model 1`, `Model 2`).
  public var from: String
  public var to: String
  /// Destination entities in model order, then removed source entities in theirs.
  public var entities: [EntityChange]
  public var inference: Inference
  /// The destination model (for diagrams).
  public var destination: ObjectModel
  /// Whether the two versions' entity version hashes are equal: Core Data opens a store of the
  /// first with the second without migrating (no step runs).
  public var sameHashes = false
  /// Renaming identifiers of the destination that name nothing in the source, one line each.
  public var unmatchedRenamings: [String] = []

  public var changedEntities: [EntityChange] { entities.filter { $0.kind != .unchanged } }
}
