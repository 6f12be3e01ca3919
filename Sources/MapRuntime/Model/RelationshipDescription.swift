/// Core Data's `NSDeleteRule`, spelled as Xcode writes `deletionRule="…"`.
public enum DeleteRule: String, Sendable, Hashable, Codable, CaseIterable {
  case noAction = "No Action"
  case nullify = "Nullify"
  case cascade = "Cascade"
  case deny = "Deny"
}

/// One relationship of an entity.
public struct RelationshipDescription: Sendable, Hashable, Codable {
  public var name: String
  public var destinationEntity: String
  public var inverseName: String?
  public var inverseEntity: String?
  public var isOptional: Bool
  public var isTransient: Bool
  public var isToMany: Bool
  public var isOrdered: Bool
  /// Lower bound on the number of objects (0 = none).
  public var minCount: Int
  /// Upper bound on the number of objects: 1 for to-one, 0 for an unbounded to-many.
  public var maxCount: Int
  public var deleteRule: DeleteRule
  public var renamingIdentifier: String?
  public var versionHashModifier: String?
  public var userInfo: UserInfo
  public var location: SourceLocation?

  public init(
    name: String,
    destinationEntity: String,
    inverseName: String? = nil,
    inverseEntity: String? = nil,
    isOptional: Bool = false,
    isTransient: Bool = false,
    isToMany: Bool = false,
    isOrdered: Bool = false,
    minCount: Int = 0,
    maxCount: Int = 1,
    deleteRule: DeleteRule = .nullify,
    renamingIdentifier: String? = nil,
    versionHashModifier: String? = nil,
    userInfo: UserInfo = UserInfo(),
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.destinationEntity = destinationEntity
    self.inverseName = inverseName
    self.inverseEntity = inverseEntity
    self.isOptional = isOptional
    self.isTransient = isTransient
    self.isToMany = isToMany
    self.isOrdered = isOrdered
    self.minCount = minCount
    self.maxCount = maxCount
    self.deleteRule = deleteRule
    self.renamingIdentifier = renamingIdentifier
    self.versionHashModifier = versionHashModifier
    self.userInfo = userInfo
    self.location = location
  }
}
