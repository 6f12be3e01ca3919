/// A Core Data managed object model: what one `.xcdatamodel` version describes.
public struct ObjectModel: Sendable, Hashable, Codable {
  /// The most entities a model used for a migration may have (plans with more are refused).
  public static let maximumEntityCount = 0xFFFF
  /// Entities in the order the model file lists them.
  public private(set) var entities: [EntityDescription]
  /// `userDefinedModelVersionIdentifier` (Core Data's `versionIdentifiers`); Xcode writes one,
  /// possibly empty, string.
  public var versionIdentifiers: [String]
  public var fetchRequestTemplates: [FetchRequestTemplate]
  public var configurations: [ModelConfiguration]
  /// The version name (`Model 2` for `Model 2.xcdatamodel`), when known.
  public var versionName: String?
  /// The file the model was read from, for diagnostics.
  public var path: String?

  private var indexByName: [String: Int]

  public init(
    entities: [EntityDescription],
    versionIdentifiers: [String] = [""],
    fetchRequestTemplates: [FetchRequestTemplate] = [],
    configurations: [ModelConfiguration] = [],
    versionName: String? = nil,
    path: String? = nil
  ) {
    self.entities = entities
    self.versionIdentifiers = versionIdentifiers
    self.fetchRequestTemplates = fetchRequestTemplates
    self.configurations = configurations
    self.versionName = versionName
    self.path = path
    var index: [String: Int] = [:]
    for (i, entity) in entities.enumerated() where index[entity.name] == nil {
      index[entity.name] = i
    }
    self.indexByName = index
  }

  private enum CodingKeys: String, CodingKey {
    case entities, versionIdentifiers, fetchRequestTemplates, configurations, versionName, path
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      entities: try c.decode([EntityDescription].self, forKey: .entities),
      versionIdentifiers: try c.decode([String].self, forKey: .versionIdentifiers),
      fetchRequestTemplates: try c.decode([FetchRequestTemplate].self, forKey: .fetchRequestTemplates),
      configurations: try c.decode([ModelConfiguration].self, forKey: .configurations),
      versionName: try c.decodeIfPresent(String.self, forKey: .versionName),
      path: try c.decodeIfPresent(String.self, forKey: .path))
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(entities, forKey: .entities)
    try c.encode(versionIdentifiers, forKey: .versionIdentifiers)
    try c.encode(fetchRequestTemplates, forKey: .fetchRequestTemplates)
    try c.encode(configurations, forKey: .configurations)
    try c.encodeIfPresent(versionName, forKey: .versionName)
    try c.encodeIfPresent(path, forKey: .path)
  }

  public static func == (lhs: ObjectModel, rhs: ObjectModel) -> Bool {
    lhs.entities == rhs.entities && lhs.versionIdentifiers == rhs.versionIdentifiers
      && lhs.fetchRequestTemplates == rhs.fetchRequestTemplates
      && lhs.configurations == rhs.configurations && lhs.versionName == rhs.versionName
      && lhs.path == rhs.path
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(entities)
    hasher.combine(versionIdentifiers)
    hasher.combine(versionName)
  }

  /// Index of the entity with this name in `entities` (the first, if names repeat).
  public func entityIndex(named name: String) -> Int? { indexByName[name] }

  public func entity(named name: String) -> EntityDescription? {
    indexByName[name].map { entities[$0] }
  }

  /// The entity's ancestors, nearest first. Stops at a cycle or a missing parent.
  public func ancestors(of entity: EntityDescription) -> [EntityDescription] {
    var result: [EntityDescription] = []
    var seen: Set<String> = [entity.name]
    var current = entity
    while let parentName = current.parentName, let parent = self.entity(named: parentName),
      seen.insert(parent.name).inserted
    {
      result.append(parent)
      current = parent
    }
    return result
  }

  /// True when `entity` is `ancestor` or inherits from it.
  public func isKind(_ entity: String, of ancestor: String) -> Bool {
    if entity == ancestor { return true }
    guard let e = self.entity(named: entity) else { return false }
    return ancestors(of: e).contains { $0.name == ancestor }
  }

  /// Entities that inherit (directly or not) from `entity`, in model order.
  public func subentities(of entity: String) -> [EntityDescription] {
    entities.filter { $0.name != entity && isKind($0.name, of: entity) }
  }

  /// Attributes of the entity including inherited ones; an entity's own attribute hides an
  /// ancestor's of the same name. Ordered by name.
  public func allAttributes(of entity: EntityDescription) -> [AttributeDescription] {
    var byName: [String: AttributeDescription] = [:]
    for e in ([entity] + ancestors(of: entity)).reversed() {
      for a in e.attributes { byName[a.name] = a }
    }
    return byName.values.sorted { $0.name < $1.name }
  }

  /// Relationships of the entity including inherited ones, ordered by name.
  public func allRelationships(of entity: EntityDescription) -> [RelationshipDescription] {
    var byName: [String: RelationshipDescription] = [:]
    for e in ([entity] + ancestors(of: entity)).reversed() {
      for r in e.relationships { byName[r.name] = r }
    }
    return byName.values.sorted { $0.name < $1.name }
  }
}
