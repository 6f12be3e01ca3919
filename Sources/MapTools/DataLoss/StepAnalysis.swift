import MapRuntime

/// What one migration step (a plan) does to each source entity and property, and where each
/// destination entity's objects come from (`Specs/migrate.md` §6). Found from the plan alone;
/// `StoreCounts` adds what a store holds.
public struct StepAnalysis: Sendable, Hashable {
  public var sourceEntities: [SourceEntity]
  public var destinationEntities: [DestinationEntity]

  public struct SourceEntity: Sendable, Hashable {
    public var name: String
    public var isAbstract: Bool
    public var fate: EntityFate
    /// Stored attributes and relationships, inherited ones included, attributes first.
    public var properties: [SourceProperty]
  }

  public enum EntityFate: Sendable, Hashable {
    /// Read by these entity mappings (names).
    case migrated([String])
    /// No entity mapping reads it, and a `remove` mapping (named) says so: consent.
    case removed(String)
    /// No entity mapping reads it: its objects are lost.
    case dropped
  }

  public struct SourceProperty: Sendable, Hashable {
    public var name: String
    public var isRelationship: Bool
    public var fate: PropertyFate
    /// For a composite attribute copied into a composite of the destination that lacks some of
    /// its elements: those elements, whose values the copy loses.
    public var droppedElements: [ElementDrop] = []
  }

  /// An element of a source composite attribute that the destination composite it is copied
  /// into does not have.
  public struct ElementDrop: Sendable, Hashable {
    /// The element's path in the source composite (`location.longitude`).
    public var path: [String]
    /// Where the composite is copied to: the values there lose this element.
    public var destinationEntity: String
    public var destinationAttribute: String
  }

  public enum PropertyFate: Sendable, Hashable {
    /// Copied to the destination property of the same name and type.
    case kept
    /// Copied to a destination property of another name.
    case renamed(String)
    /// Copied to a property of another attribute type (named).
    case converted(String)
    /// Copied, nil replaced by the destination's default (`TERNARY(v != nil, v, default)`, or
    /// mapc's `defaultValue:for:`).
    case defaulted(String)
    /// Derived in both models: the destination store computes the destination attribute
    /// (named) again from its own data (`recomputingDerived`).
    case recomputed(String)
    /// Used by an expression or a custom policy.
    case read
    /// Nothing reads it: its values (links) are lost.
    case dropped
  }

  public struct DestinationEntity: Sendable, Hashable {
    public var name: String
    /// Entity mappings that create its objects, with their source entity (nil: none).
    public var madeBy: [(mapping: String, source: String?)]

    public static func == (a: Self, b: Self) -> Bool {
      a.name == b.name && a.madeBy.map(\.mapping) == b.madeBy.map(\.mapping)
    }
    public func hash(into hasher: inout Hasher) {
      hasher.combine(name)
      hasher.combine(madeBy.map(\.mapping))
    }
  }

  public func entity(named name: String) -> SourceEntity? { sourceEntities.first { $0.name == name } }
}

extension StepAnalysis.PropertyFate {
  /// One word or phrase for tables: `kept`, `renamed → x`, …
  public var label: String {
    switch self {
    case .kept: "kept"
    case .renamed(let to): "renamed → \(to)"
    case .converted(let type): "converted → \(type)"
    case .defaulted(let to): "defaulted → \(to)"
    case .recomputed(let to): "recomputed → \(to)"
    case .read: "read"
    case .dropped: "dropped"
    }
  }
}
