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
  /// Per entity (by its index in `entities`), its properties with inherited ones, as
  /// `allAttributes(of:)` and `allRelationships(of:)` return them: made on first use and kept
  /// for every copy of the model (its entities never change), not all at once (a chain of
  /// thousands of entities would take memory quadratic in its depth).
  private let inheritedByIndex = Memo<Int, InheritedProperties>()

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
    if let i = ownIndex(of: entity) { return inherited(i).attributes }
    return InheritedProperties.attributes(of: entity, in: self)
  }

  /// Relationships of the entity including inherited ones, ordered by name.
  public func allRelationships(of entity: EntityDescription) -> [RelationshipDescription] {
    if let i = ownIndex(of: entity) { return inherited(i).relationships }
    return InheritedProperties.relationships(of: entity, in: self)
  }

  /// The inverse of `r` (a relationship of this model): its destination entity's relationship
  /// (declared or inherited) named by `r.inverseName`.
  public func inverse(of r: RelationshipDescription) -> RelationshipDescription? {
    guard let name = r.inverseName, let d = entity(named: r.destinationEntity) else { return nil }
    return allRelationships(of: d).first { $0.name == name }
  }

  /// The entity that declares property `name` for `entity`: itself, or its nearest ancestor
  /// with an attribute or relationship of that name; nil when none has one.
  public func declaring(_ name: String, of entity: String) -> EntityDescription? {
    guard let e = self.entity(named: entity) else { return nil }
    return ([e] + ancestors(of: e)).first { d in
      d.attributes.contains { $0.name == name } || d.relationships.contains { $0.name == name }
    }
  }

  /// Whether `r`, a relationship of `owner` (its own or inherited), is its own inverse (Core
  /// Data's `REFLEXIVE` join column): the inverse its destination names is the relationship of
  /// the same name declared by the entity that declares `r`.
  public func isSelfInverse(_ r: RelationshipDescription, of owner: String) -> Bool {
    guard r.inverseName == r.name, let declarer = declaring(r.name, of: owner) else { return false }
    return declaring(r.name, of: r.destinationEntity)?.name == declarer.name
  }

  /// Whether `r` is stored in a join table: to-many, not transient, with a to-many inverse.
  public func isManyToMany(_ r: RelationshipDescription) -> Bool {
    r.isToMany && !r.isTransient && inverse(of: r)?.isToMany == true
  }

  /// The index of `entity` when it is this model's entity of its name, as the model holds it
  /// (an entity changed since, or of another model, is not).
  private func ownIndex(of entity: EntityDescription) -> Int? {
    guard let i = indexByName[entity.name], entities[i] == entity else { return nil }
    return i
  }

  private func inherited(_ i: Int) -> InheritedProperties {
    inheritedByIndex.value(i) { InheritedProperties(of: entities[i], in: self) }
  }
}

/// An entity's attributes and relationships with the inherited ones, an entity's own property
/// hiding an ancestor's of the same name, each list ordered by name.
private struct InheritedProperties: Sendable {
  var attributes: [AttributeDescription]
  var relationships: [RelationshipDescription]

  init(of entity: EntityDescription, in model: ObjectModel) {
    attributes = Self.attributes(of: entity, in: model)
    relationships = Self.relationships(of: entity, in: model)
  }

  static func attributes(of entity: EntityDescription, in model: ObjectModel) -> [AttributeDescription] {
    var byName: [String: AttributeDescription] = [:]
    for e in ([entity] + model.ancestors(of: entity)).reversed() {
      for a in e.attributes { byName[a.name] = a }
    }
    return byName.values.sorted { $0.name < $1.name }
  }

  static func relationships(of entity: EntityDescription, in model: ObjectModel) -> [RelationshipDescription] {
    var byName: [String: RelationshipDescription] = [:]
    for e in ([entity] + model.ancestors(of: entity)).reversed() {
      for r in e.relationships { byName[r.name] = r }
    }
    return byName.values.sorted { $0.name < $1.name }
  }
}
