import MapRuntime

/// Every entity's properties, inherited ones included, found by name: built once per
/// compilation, so checking a key path costs dictionary lookups instead of collecting and
/// sorting an entity's properties for each key (`ObjectModel.allAttributes(of:)`).
package struct ModelIndex: Sendable {
  struct Properties: Sendable {
    /// Ordered by name, as `ObjectModel.allAttributes(of:)` gives them.
    var attributes: [AttributeDescription]
    var relationships: [RelationshipDescription]
    private var attributeIndex: [String: Int] = [:]
    private var relationshipIndex: [String: Int] = [:]

    init(_ entity: EntityDescription, in model: ObjectModel) {
      // An entity without a parent and without two properties of one name (the usual case):
      // its own properties sorted by name, which is what `allAttributes(of:)` gives, with one
      // copy of each instead of two.
      if entity.parentName == nil, let a = Self.sortedIfUnique(entity.attributes),
        let r = Self.sortedIfUnique(entity.relationships)
      {
        attributes = a
        relationships = r
      } else {
        attributes = model.allAttributes(of: entity)
        relationships = model.allRelationships(of: entity)
      }
      for (i, a) in attributes.enumerated() { attributeIndex[a.name] = i }
      for (i, r) in relationships.enumerated() { relationshipIndex[r.name] = i }
    }

    /// The properties sorted by name, or nil when two have equal names.
    private static func sortedIfUnique<P: NamedProperty>(_ properties: [P]) -> [P]? {
      let sorted = properties.sorted { $0.name < $1.name }
      for i in sorted.indices.dropFirst() where sorted[i - 1].name == sorted[i].name { return nil }
      return sorted
    }

    func attribute(_ name: String) -> AttributeDescription? { attributeIndex[name].map { attributes[$0] } }
    func relationship(_ name: String) -> RelationshipDescription? { relationshipIndex[name].map { relationships[$0] } }
    var names: [String] { attributes.map(\.name) + relationships.map(\.name) }
  }

  private let source: [String: Properties]
  private let destination: [String: Properties]

  package init(source: ObjectModel, destination: ObjectModel) {
    self.init(source: Self.entries(of: source), destination: Self.entries(of: destination))
  }

  /// An index from the two halves `entries(of:)` built.
  init(source: [String: Properties], destination: [String: Properties]) {
    self.source = source
    self.destination = destination
  }

  /// One side of the index: the properties of every entity of `model`, by entity name.
  static func entries(of model: ObjectModel) -> [String: Properties] {
    var result: [String: Properties] = [:]
    result.reserveCapacity(model.entities.count)
    for e in model.entities where result[e.name] == nil { result[e.name] = Properties(e, in: model) }
    return result
  }

  func properties(_ side: StaticType.Side, _ entity: String) -> Properties? {
    side == .source ? source[entity] : destination[entity]
  }
}

/// A property with a name, for `ModelIndex.Properties`.
protocol NamedProperty {
  var name: String { get }
}

extension AttributeDescription: NamedProperty {}
extension RelationshipDescription: NamedProperty {}
