import MapModelReader
import MapRuntime
import MapTools
import Testing

/// The reverse of an inferred step (`Specs/migrate.md` §3a): the forward inference's matching,
/// turned around, replaces the lookup by renaming identifier, so renames are undone and nothing
/// is matched that the forward step did not match.
struct ReverseInferenceTests {
  static func model(_ name: String, _ entities: [EntityDescription]) -> ObjectModel {
    ObjectModel(entities: entities, versionName: name, path: "/models/\(name)/contents")
  }

  /// V1: Item(note, old), Box, each renamed earlier (their renaming identifiers name a version
  /// before V1, the previous-name convention). V2: Item(details, renamed from note; fresh, new;
  /// old dropped), Crate, renamed from Box.
  static let v1 = model(
    "V1",
    [
      EntityDescription(
        name: "Item",
        attributes: [
          AttributeDescription(name: "note", type: .string, isOptional: true, renamingIdentifier: "text"),
          AttributeDescription(name: "old", type: .string, isOptional: true),
        ]),
      EntityDescription(
        name: "Box", renamingIdentifier: "Bin",
        attributes: [AttributeDescription(name: "label", type: .string, isOptional: true)]),
    ])

  static let v2 = model(
    "V2",
    [
      EntityDescription(
        name: "Item",
        attributes: [
          AttributeDescription(name: "details", type: .string, isOptional: true, renamingIdentifier: "note"),
          AttributeDescription(name: "fresh", type: .string, isOptional: true),
        ]),
      EntityDescription(
        name: "Crate", renamingIdentifier: "Box",
        attributes: [AttributeDescription(name: "label", type: .string, isOptional: true)]),
    ])

  static func infer(_ a: ObjectModel, _ b: ObjectModel, matching: InferenceMatching? = nil) -> InferredMapping {
    MappingInference.infer(
      source: a, destination: b, sourceHashes: VersionHasher.entityHashes(of: a),
      destinationHashes: VersionHasher.entityHashes(of: b), path: "inferred", matching: matching)
  }

  @Test func theForwardMatchingIsRecordedAndTurnedAround() throws {
    let forward = Self.infer(Self.v1, Self.v2)
    #expect(forward.matching.entities == ["Item": "Item", "Crate": "Box"])
    #expect(forward.matching.properties["Item"] == ["details": "note"])
    let back = try #require(forward.matching.reversed())
    #expect(back.entities == ["Item": "Item", "Box": "Crate"])
    #expect(back.properties["Item"] == ["note": "details"])
  }

  @Test func theReverseUndoesTheRenamesAndMatchesNothingElse() throws {
    let back = try #require(Self.infer(Self.v1, Self.v2).matching.reversed())
    let reverse = Self.infer(Self.v2, Self.v1, matching: back)
    let document = try #require(reverse.document, "\(reverse.diagnostics)")
    #expect(reverse.renames.sorted() == ["Crate → Box", "Item.details → Item.note"])
    #expect(reverse.removedEntities.isEmpty && reverse.addedEntities.isEmpty)
    let item = try #require(document.entityMappings.first { $0.destination?.value == "Item" })
    #expect(item.attributes.map { "\($0.name.value)=\($0.expression?.text ?? "")" } == ["note=$source.details"])
    // Without the forward matching, the lookup from V2 to V1 goes by V1's renaming identifiers,
    // which name versions before it: Box and `note` would be new, Crate's and `details`' data lost.
    let plain = Self.infer(Self.v2, Self.v1)
    #expect(plain.addedEntities == ["Box"])
    #expect(plain.removedEntities == ["Crate"])
  }

  /// Two destination properties read from one source property: no way back.
  @Test func aPropertyReadTwiceHasNoReverse() {
    var matching = InferenceMatching()
    matching.entities = ["Item": "Item"]
    matching.properties = ["Item": ["a": "x", "b": "x"]]
    #expect(matching.reversed() == nil)
  }
}
