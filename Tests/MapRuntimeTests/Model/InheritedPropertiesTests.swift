import MapRuntime
import Testing

/// `ObjectModel.allAttributes(of:)` and `allRelationships(of:)`, kept per entity once asked:
/// the model's own entities get the same lists as before, in every copy of the model; an entity
/// that is not the model's as it holds it (changed since) gets its own lists, not the kept ones.
struct InheritedPropertiesTests {
  static let model = ObjectModel(entities: [
    EntityDescription(
      name: "Base",
      attributes: [
        AttributeDescription(name: "z", type: .string), AttributeDescription(name: "shared", type: .integer16),
      ],
      relationships: [RelationshipDescription(name: "owner", destinationEntity: "Base")]),
    EntityDescription(
      name: "Child", parentName: "Base",
      attributes: [
        AttributeDescription(name: "a", type: .date), AttributeDescription(name: "shared", type: .integer64),
      ]),
  ])

  @Test func inheritedOnesByNameTheEntitysOwnHidingItsAncestors() {
    let child = Self.model.entities[1]
    for _ in 0..<2 {
      let attributes = Self.model.allAttributes(of: child)
      #expect(attributes.map(\.name) == ["a", "shared", "z"])
      #expect(attributes[1].type == .integer64)
      #expect(Self.model.allRelationships(of: child).map(\.name) == ["owner"])
    }
    var copy = Self.model
    copy.versionName = "V2"
    #expect(copy.allAttributes(of: copy.entities[1]) == Self.model.allAttributes(of: child))
  }

  @Test func anEntityChangedSinceGetsItsOwnLists() {
    _ = Self.model.allAttributes(of: Self.model.entities[1])
    var changed = Self.model.entities[1]
    changed.attributes.append(AttributeDescription(name: "b", type: .boolean))
    changed.relationships.append(RelationshipDescription(name: "peer", destinationEntity: "Child"))
    #expect(Self.model.allAttributes(of: changed).map(\.name) == ["a", "b", "shared", "z"])
    #expect(Self.model.allRelationships(of: changed).map(\.name) == ["owner", "peer"])
    #expect(Self.model.allAttributes(of: Self.model.entities[1]).map(\.name) == ["a", "shared", "z"])
  }
}
