/// Everything `mapc run` needs to migrate a store, with no model or mapping file at hand:
/// both models, their entity version hashes, and the entity mappings in run order.
///
/// `MapCompiler` builds one from a mapping XML file and writes it with `PlanWriter`;
/// `PlanReader` reads it back. The binary layout is specified in `Specs/plan-format.md`.
public struct MigrationPlan: Sendable, Hashable {
  /// `<mappingModel name="…">`.
  public var name: String
  /// The mapping file the plan was compiled from, as given to `mapc compile` (diagnostics only).
  public var mappingPath: String
  public var userInfo: UserInfo
  public var sourceModel: ObjectModel
  public var destinationModel: ObjectModel
  /// Entity name → 32-byte SHA-256 version hash, sorted by entity name.
  public var sourceEntityHashes: [EntityHash]
  public var destinationEntityHashes: [EntityHash]
  /// In run order (document order of the mapping file).
  public var entityMappings: [EntityMapping]
  /// Predicates written as strings inside expressions (the `predicateString:` argument of
  /// `fetchRequestForSourceEntityNamed:predicateString:`, `<filter>`), parsed by the compiler
  /// so that the runtime never parses text. Sorted by text.
  public var predicates: [PrecompiledPredicate]

  public init(
    name: String, mappingPath: String, userInfo: UserInfo = UserInfo(),
    sourceModel: ObjectModel, destinationModel: ObjectModel,
    sourceEntityHashes: [EntityHash], destinationEntityHashes: [EntityHash],
    entityMappings: [EntityMapping], predicates: [PrecompiledPredicate] = []
  ) {
    self.name = name
    self.mappingPath = mappingPath
    self.userInfo = userInfo
    self.sourceModel = sourceModel
    self.destinationModel = destinationModel
    self.sourceEntityHashes = sourceEntityHashes
    self.destinationEntityHashes = destinationEntityHashes
    self.entityMappings = entityMappings
    self.predicates = predicates
  }

  public func entityMapping(named name: String) -> EntityMapping? {
    entityMappings.first { $0.name == name }
  }
}

/// An entity's version hash.
public struct EntityHash: Sendable, Hashable, Codable {
  public var entity: String
  /// 32 bytes (SHA-256).
  public var hash: [UInt8]
  public init(entity: String, hash: [UInt8]) {
    self.entity = entity
    self.hash = hash
  }
}

/// Core Data's `NSEntityMappingType`.
public enum EntityMappingType: String, Sendable, Hashable, Codable, CaseIterable {
  case undefined, custom, add, remove, copy, transform

  /// `NSEntityMappingType` raw value.
  public var coreDataCode: Int {
    switch self {
    case .undefined: 0
    case .custom: 1
    case .add: 2
    case .remove: 3
    case .copy: 4
    case .transform: 5
    }
  }
}

/// The text an expression was parsed from and where it starts in the mapping file, so that
/// run-time errors can point at it and `mapc dump` can show it.
public struct ExpressionSource: Sendable, Hashable, Codable {
  public var text: String
  public var location: SourceLocation
  public init(text: String, location: SourceLocation) {
    self.text = text
    self.location = location
  }
}

/// A compiled expression: the tree the runtime evaluates, and where it came from.
/// `source` is nil for expressions the compiler made up (default fetches, implicit
/// `$source.name` attribute mappings).
public struct CompiledExpression: Sendable, Hashable {
  public var expression: Expression
  public var source: ExpressionSource?
  public init(_ expression: Expression, source: ExpressionSource? = nil) {
    self.expression = expression
    self.source = source
  }
}

/// One entity mapping (Core Data's `NSEntityMapping`), plus mapc's `forEach` fan-out.
public struct EntityMapping: Sendable, Hashable {
  public var name: String
  public var type: EntityMappingType
  public var sourceEntity: String?
  public var destinationEntity: String?
  /// Policy class name as written (`App.LegacyToModernPolicy`), nil for the default policy.
  public var policyName: String?
  public var userInfo: UserInfo
  /// Yields the source instances; nil creates no instances from a source (add mappings use
  /// `forEach`). The compiler fills in Core Data's default FETCH when the file has none.
  public var sourceExpression: CompiledExpression?
  /// Optional fan-out: one destination instance per element of this collection.
  public var forEach: CompiledExpression?
  /// Destination attributes with a value expression, in destination-model order.
  public var attributeMappings: [PropertyMapping]
  /// Destination relationships with a value expression, in destination-model order.
  public var relationshipMappings: [PropertyMapping]
  /// Where `<entityMapping>` is in the mapping file.
  public var location: SourceLocation?

  public init(
    name: String, type: EntityMappingType, sourceEntity: String?, destinationEntity: String?,
    policyName: String? = nil, userInfo: UserInfo = UserInfo(),
    sourceExpression: CompiledExpression? = nil, forEach: CompiledExpression? = nil,
    attributeMappings: [PropertyMapping] = [], relationshipMappings: [PropertyMapping] = [],
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.type = type
    self.sourceEntity = sourceEntity
    self.destinationEntity = destinationEntity
    self.policyName = policyName
    self.userInfo = userInfo
    self.sourceExpression = sourceExpression
    self.forEach = forEach
    self.attributeMappings = attributeMappings
    self.relationshipMappings = relationshipMappings
    self.location = location
  }
}

/// One attribute or relationship mapping (Core Data's `NSPropertyMapping`).
public struct PropertyMapping: Sendable, Hashable {
  /// Destination property name.
  public var name: String
  public var valueExpression: CompiledExpression?
  public var userInfo: UserInfo
  /// Where the `<attribute>`/`<relationship>` element is; nil for implicit mappings.
  public var location: SourceLocation?

  public init(
    name: String, valueExpression: CompiledExpression?, userInfo: UserInfo = UserInfo(),
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.valueExpression = valueExpression
    self.userInfo = userInfo
    self.location = location
  }
}

/// A predicate string and its parsed form.
public struct PrecompiledPredicate: Sendable, Hashable {
  public var text: String
  public var predicate: Predicate
  public init(text: String, predicate: Predicate) {
    self.text = text
    self.predicate = predicate
  }
}
