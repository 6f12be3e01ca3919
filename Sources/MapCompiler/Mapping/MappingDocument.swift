import MapRuntime
import MapSyntax

/// A mapping XML file as read, before validation: every element and attribute with its
/// position. `MappingReader` makes one; `MappingCompiler` checks it and builds a plan.
public struct MappingDocument: Sendable {
  public var path: String
  public var name: Located<String>?
  public var formatVersion: Located<String>?
  public var sourceModel: ModelReference?
  public var destinationModel: ModelReference?
  public var userInfo: UserInfo
  public var entityMappings: [EntityMappingElement]
  public var location: SourceLocation
  /// `<!-- mapc-lint-disable RULE: reason -->` comments, for the linter.
  public var suppressions: [Suppression]

  public init(
    path: String, name: Located<String>? = nil, formatVersion: Located<String>? = nil,
    sourceModel: ModelReference? = nil, destinationModel: ModelReference? = nil,
    userInfo: UserInfo = UserInfo(), entityMappings: [EntityMappingElement] = [],
    location: SourceLocation, suppressions: [Suppression] = []
  ) {
    self.path = path
    self.name = name
    self.formatVersion = formatVersion
    self.sourceModel = sourceModel
    self.destinationModel = destinationModel
    self.userInfo = userInfo
    self.entityMappings = entityMappings
    self.location = location
    self.suppressions = suppressions
  }
}

/// A value read from the file and where it was.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
  public var value: Value
  public var location: SourceLocation
  public init(_ value: Value, at location: SourceLocation) {
    self.value = value
    self.location = location
  }
}

/// `<sourceModel path="…" version="…" versionHash="…"/>` and its optional per-entity pins.
public struct ModelReference: Sendable {
  public var path: Located<String>
  public var version: Located<String>?
  /// Pinned model hash (see Specs/mapping-xml.md, "Pinned hashes").
  public var versionHash: Located<String>?
  /// `<entityVersionHash entity="…" hash="…"/>` children.
  public var entityPins: [EntityPin]
  public var location: SourceLocation

  public init(
    path: Located<String>, version: Located<String>? = nil, versionHash: Located<String>? = nil,
    entityPins: [EntityPin] = [], location: SourceLocation
  ) {
    self.path = path
    self.version = version
    self.versionHash = versionHash
    self.entityPins = entityPins
    self.location = location
  }
}

public struct EntityPin: Sendable, Hashable {
  public var entity: String
  public var hash: String
  public var location: SourceLocation
  public init(entity: String, hash: String, location: SourceLocation) {
    self.entity = entity
    self.hash = hash
    self.location = location
  }
}

/// `<entityMapping …>`.
public struct EntityMappingElement: Sendable {
  public var name: Located<String>?
  public var type: Located<String>?
  public var source: Located<String>?
  public var destination: Located<String>?
  public var policy: Located<String>?
  public var userInfo: UserInfo
  public var sourceExpression: ExpressionText?
  public var filter: ExpressionText?
  public var forEach: ExpressionText?
  public var attributes: [PropertyElement]
  public var relationships: [PropertyElement]
  public var location: SourceLocation

  public init(
    name: Located<String>? = nil, type: Located<String>? = nil, source: Located<String>? = nil,
    destination: Located<String>? = nil, policy: Located<String>? = nil,
    userInfo: UserInfo = UserInfo(), sourceExpression: ExpressionText? = nil,
    filter: ExpressionText? = nil, forEach: ExpressionText? = nil,
    attributes: [PropertyElement] = [], relationships: [PropertyElement] = [],
    location: SourceLocation
  ) {
    self.name = name
    self.type = type
    self.source = source
    self.destination = destination
    self.policy = policy
    self.userInfo = userInfo
    self.sourceExpression = sourceExpression
    self.filter = filter
    self.forEach = forEach
    self.attributes = attributes
    self.relationships = relationships
    self.location = location
  }
}

/// `<attribute name="…">expr</attribute>` or `<relationship …>`.
public struct PropertyElement: Sendable {
  public var name: Located<String>
  public var expression: ExpressionText?
  public var userInfo: UserInfo
  public var location: SourceLocation
  public init(
    name: Located<String>, expression: ExpressionText?, userInfo: UserInfo = UserInfo(), location: SourceLocation
  ) {
    self.name = name
    self.expression = expression
    self.userInfo = userInfo
    self.location = location
  }
}

/// `<!-- mapc-lint-disable RULE: reason -->`: applies to the element that follows it (or,
/// as the first child of an element, to that element).
public struct Suppression: Sendable, Hashable {
  public var rules: [String]
  public var reason: String
  public var location: SourceLocation
  /// Lines covered: the element the comment is attached to.
  public var scope: ClosedRange<Int>
  public init(rules: [String], reason: String, location: SourceLocation, scope: ClosedRange<Int>) {
    self.rules = rules
    self.reason = reason
    self.location = location
    self.scope = scope
  }
}
