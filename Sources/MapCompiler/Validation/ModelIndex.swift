import MapRuntime

/// Every entity's properties, inherited ones included, found by name: built once per
/// compilation, so checking a key path costs dictionary lookups instead of collecting and
/// sorting an entity's properties for each key (`ObjectModel.allAttributes(of:)`).
struct ModelIndex: Sendable {
  struct Properties: Sendable {
    /// Ordered by name, as `ObjectModel.allAttributes(of:)` gives them.
    var attributes: [AttributeDescription]
    var relationships: [RelationshipDescription]
    private var attributeIndex: [String: Int] = [:]
    private var relationshipIndex: [String: Int] = [:]

    init(_ entity: EntityDescription, in model: ObjectModel) {
      attributes = model.allAttributes(of: entity)
      relationships = model.allRelationships(of: entity)
      for (i, a) in attributes.enumerated() { attributeIndex[a.name] = i }
      for (i, r) in relationships.enumerated() { relationshipIndex[r.name] = i }
    }

    func attribute(_ name: String) -> AttributeDescription? { attributeIndex[name].map { attributes[$0] } }
    func relationship(_ name: String) -> RelationshipDescription? { relationshipIndex[name].map { relationships[$0] } }
    var names: [String] { attributes.map(\.name) + relationships.map(\.name) }
  }

  private let source: [String: Properties]
  private let destination: [String: Properties]

  init(source: ObjectModel, destination: ObjectModel) {
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
