/// How a model's objects are laid out in an `ObjectGraph`: every entity with its properties,
/// inherited ones included, sorted by name (the order the JSON store writes them in).
public final class StoreLayout: Sendable {
  package let model: ObjectModel
  package let entities: [EntityLayout]
  private let indexByName: [String: Int]
  /// What a store format derives from the layout (Core Data SQLite: its schema), made once per
  /// layout: a chain's steps share each version's layout (`ChainRun`).
  private let derivedValues = Memo<ObjectIdentifier, any Sendable>()

  package init(model: ObjectModel) {
    self.model = model
    let names = model.entities.map(\.name)
    var index: [String: Int] = [:]
    for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
    self.indexByName = index
    // Each entity's ancestors once (at most Limits.inheritanceDepth each), and the kinds of an
    // entity by inverting them: linear in entities × depth, where asking every pair of entities
    // whether one inherits from the other was quadratic (10,000 entities took 18 minutes).
    let ancestors = model.entities.map { model.ancestors(of: $0).compactMap { index[$0.name] } }
    var kinds: [[Int]] = model.entities.indices.map { [$0] }
    for (i, list) in ancestors.enumerated() {
      for a in list where a != i { kinds[a].append(i) }
    }
    var layouts: [EntityLayout] = []
    for (i, entity) in model.entities.enumerated() {
      layouts.append(
        EntityLayout(
          index: i, entity: entity, model: model, entityIndex: index, kindIndexes: kinds[i],
          ancestorIndexes: Set(ancestors[i]).union([i])))
    }
    self.entities = layouts
  }

  /// `given` when it lays out `model` (a chain's steps share each version's layout: `ChainRun`),
  /// else a new layout of `model`.
  package static func of(_ model: ObjectModel, reusing given: StoreLayout?) -> StoreLayout {
    if let given, given.model == model { return given }
    return StoreLayout(model: model)
  }

  package func entityIndex(_ name: String) -> Int? { indexByName[name] }
  package func entity(_ name: String) -> EntityLayout? { indexByName[name].map { entities[$0] } }

  /// The value of type `T` derived from this layout by `make`, made on first use and kept with
  /// the layout (one value per type: `make` must depend on the layout only).
  package func derived<T: Sendable>(_ type: T.Type, _ make: (StoreLayout) -> T) -> T {
    // One value per type: the cast cannot fail.
    derivedValues.value(ObjectIdentifier(type)) { make(self) } as! T
  }
}

/// One entity's layout.
package final class EntityLayout: Sendable {
  package let index: Int
  package let name: String
  package let isAbstract: Bool
  /// Properties including inherited ones, sorted by name.
  package let properties: [PropertyLayout]
  /// What each property stores (same order), without the rest of its description.
  package let shapes: [PropertyShape]
  /// The UTF-8 bytes of each property name (same order), for matching JSON keys quickly.
  package let propertyNameBytes: [[UInt8]]
  /// Indexes of this entity and every entity that inherits from it, in model order.
  package let kindIndexes: [Int]
  /// Indexes of this entity and its ancestors.
  package let ancestorIndexes: Set<Int>
  private let propertyIndexByName: [String: Int]

  init(
    index: Int, entity: EntityDescription, model: ObjectModel, entityIndex: [String: Int], kindIndexes: [Int],
    ancestorIndexes: Set<Int>
  ) {
    self.index = index
    self.name = entity.name
    self.isAbstract = entity.isAbstract
    var props: [PropertyLayout] = []
    for a in model.allAttributes(of: entity) where !a.isTransient {
      props.append(PropertyLayout(attribute: a))
    }
    for r in model.allRelationships(of: entity) where !r.isTransient {
      props.append(PropertyLayout(relationship: r, destinationIndex: entityIndex[r.destinationEntity]))
    }
    props.sort { $0.name < $1.name }
    self.properties = props
    self.propertyNameBytes = props.map { Array($0.name.utf8) }
    self.shapes = props.map { p in
      switch p.kind {
      case .attribute(let a): .attribute(a.type)
      case .relationship(let r): .relationship(isToMany: r.isToMany)
      }
    }
    var byName: [String: Int] = [:]
    for (i, p) in props.enumerated() { byName[p.name] = i }
    self.propertyIndexByName = byName
    self.kindIndexes = kindIndexes
    self.ancestorIndexes = ancestorIndexes
  }

  package func propertyIndex(_ name: String) -> Int? { propertyIndexByName[name] }
}

/// One stored property of an entity.
package struct PropertyLayout: Sendable {
  package enum Kind: Sendable {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)
  }
  package let name: String
  package let kind: Kind
  /// For relationships: the destination entity's index (nil if the model is broken).
  package let destinationIndex: Int?

  init(attribute: AttributeDescription) {
    self.name = attribute.name
    self.kind = .attribute(attribute)
    self.destinationIndex = nil
  }

  init(relationship: RelationshipDescription, destinationIndex: Int?) {
    self.name = relationship.name
    self.kind = .relationship(relationship)
    self.destinationIndex = destinationIndex
  }

  package var attribute: AttributeDescription? {
    if case .attribute(let a) = kind { return a }
    return nil
  }

  package var relationship: RelationshipDescription? {
    if case .relationship(let r) = kind { return r }
    return nil
  }

  package var isOptional: Bool {
    switch kind {
    case .attribute(let a): a.isOptional
    case .relationship(let r): r.isOptional
    }
  }
}

/// The part of a property description that reading and writing values need.
package enum PropertyShape: Sendable, Hashable {
  case attribute(AttributeType)
  case relationship(isToMany: Bool)
}
