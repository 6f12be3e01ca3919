/// One entity of a data model. Properties listed here are the entity's own; inherited ones are
/// reached through `ObjectModel`.
public struct EntityDescription: Sendable, Hashable, Codable {
  public var name: String
  /// `representedClassName`; nil means `NSManagedObject`.
  public var className: String?
  public var parentName: String?
  public var isAbstract: Bool
  /// Xcode's "Renaming ID" (`elementID`).
  public var renamingIdentifier: String?
  public var versionHashModifier: String?
  public var userInfo: UserInfo
  public var attributes: [AttributeDescription]
  public var relationships: [RelationshipDescription]
  public var fetchedProperties: [FetchedPropertyDescription]
  /// Each constraint is a list of property names (Xcode 7+ `uniquenessConstraints`).
  public var uniquenessConstraints: [[String]]
  public var compoundIndexes: [[String]]
  public var fetchIndexes: [FetchIndexDescription]
  public var location: SourceLocation?

  public init(
    name: String,
    className: String? = nil,
    parentName: String? = nil,
    isAbstract: Bool = false,
    renamingIdentifier: String? = nil,
    versionHashModifier: String? = nil,
    userInfo: UserInfo = UserInfo(),
    attributes: [AttributeDescription] = [],
    relationships: [RelationshipDescription] = [],
    fetchedProperties: [FetchedPropertyDescription] = [],
    uniquenessConstraints: [[String]] = [],
    compoundIndexes: [[String]] = [],
    fetchIndexes: [FetchIndexDescription] = [],
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.className = className
    self.parentName = parentName
    self.isAbstract = isAbstract
    self.renamingIdentifier = renamingIdentifier
    self.versionHashModifier = versionHashModifier
    self.userInfo = userInfo
    self.attributes = attributes
    self.relationships = relationships
    self.fetchedProperties = fetchedProperties
    self.uniquenessConstraints = uniquenessConstraints
    self.compoundIndexes = compoundIndexes
    self.fetchIndexes = fetchIndexes
    self.location = location
  }

  public func attribute(named name: String) -> AttributeDescription? {
    attributes.first { $0.name == name }
  }

  public func relationship(named name: String) -> RelationshipDescription? {
    relationships.first { $0.name == name }
  }
}
