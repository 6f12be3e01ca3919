import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// Which ordered relationships a chunk places its members of by their index in the whole
/// relationship, without reading it whole (`StreamingPlan.positions`); expectations written by
/// hand from the rule of `Specs/limits.md` ("Memory"): the index carries over when the
/// destination relationship lists one destination of each member, in their order.
struct StreamingPlanPositionsTests {
  /// `StreamingPlanTreeTests.model`'s entities mapped onto themselves, each with the mapping
  /// element's extra children (`extra`, by entity), except those in `unmapped`.
  func analysed(unmapped: Set<String> = [], extra: [String: String] = [:]) throws -> StreamingPlan {
    let entities = [
      "Text", "Image", "Reply", "Person", "Attachment", "Post", "Story", "Tag", "Item", "Shelf", "Event", "Click",
    ]
    let plan = try StreamingPlanStubsTests.identityPlan(
      StreamingPlanTreeTests.model, entities.filter { !unmapped.contains($0) }, extra: extra)
    return StreamingPlan(plan, usesDefaultPolicy: plan.entityMappings.map { _ in true }, stubs: true)
  }

  /// `Person.messages` is the model's only ordered relationship; every kind of `Message` has
  /// one mapping, so a chunk of messages counts each person's messages before its own.
  @Test func anOrderedRelationshipWhoseMembersAllMapCarriesItsIndexes() throws {
    let s = try analysed()
    #expect(s.positions == ["Person": ["messages": "messages"]])
    #expect(s.positionsOnly == ["Person.messages"])
  }

  /// Without a mapping over `Image`, a person's images have no destination: the index of a
  /// text in the destination depends on the images before it, which a chunk does not hold.
  @Test func aKindOfMemberWithoutAMappingKeepsTheRelationshipReadWhole() throws {
    let s = try analysed(unmapped: ["Image"])
    #expect(s.positions.isEmpty)
  }

  /// A filter on the mapping over `Text` leaves some members out: the same.
  @Test func aFilteredMemberKeepsTheRelationshipReadWhole() throws {
    let s = try analysed(extra: ["Text": "<filter>body != nil</filter>"])
    #expect(s.positions.isEmpty)
  }

  /// `Person.messages` filled with the destinations of one mapping's members only (its texts):
  /// not a copy of the relationship, so a text's index in the destination is not its own.
  @Test func anOwnerFilledOtherwiseKeepsTheRelationshipReadWhole() throws {
    let texts =
      #"<relationship name="messages">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "TextToText", $source.messages)</relationship>"#
    let s = try analysed(extra: ["Person": texts])
    #expect(s.positions.isEmpty, "\(s.positions)")
  }

  /// A conversion copies every ordered relationship into itself.
  @Test func aConversionCarriesEveryOrderedRelationship() throws {
    let plan = try StreamingPlanStubsTests.identityPlan(StreamingPlanTreeTests.model, ["Person"])
    let s = StreamingPlan(copying: plan.sourceModel, stubs: true, listsMembers: false)
    #expect(s.positions == ["Person": ["messages": "messages"]])
  }
}
