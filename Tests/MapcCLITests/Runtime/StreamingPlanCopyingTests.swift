import Foundation
import MapRuntime
import Testing

/// Which entities a conversion copies a chunk at a time (`StreamingPlan(copying:)`), on
/// `StreamingPlanStubsTests`' model; expectations written by hand from `Specs/limits.md`
/// ("Conversions in chunks").
struct StreamingPlanCopyingTests {
  static func model(_ text: String, _ entities: [String]) throws -> ObjectModel {
    try StreamingPlanStubsTests.identityPlan(text, entities).sourceModel
  }

  static let entities = ["Archive", "Folder", "Item", "Label", "Note", "Person", "Shelf"]

  /// Into Core Data SQLite (a one-to-many kept in its members' rows): what a run of the model
  /// onto itself streams.
  @Test(arguments: [false, true]) func intoSQLiteAsARunOntoItself(_ featured: Bool) throws {
    let text = StreamingPlanStubsTests.model(featured: featured)
    let copying = StreamingPlan(copying: try Self.model(text, Self.entities), stubs: true, listsMembers: false)
    let run = try StreamingPlanStubsTests().analysed(featured: featured)
    #expect(copying.streamed == run.streamed, "\(copying.reasons)")
    #expect(copying.stubbed == run.stubbed)
    let streamed: Set<String> =
      featured ? ["Folder", "Item", "Label", "Note", "Shelf"] : ["Folder", "Item", "Label", "Note", "Person", "Shelf"]
    #expect(copying.streamed == streamed)
  }

  /// An `Archive` (read whole: its relationship is its own inverse) lists items. Into SQLite the
  /// items' rows hold the archive's key, so `Item` streams; into JSON the archive's own list
  /// would lack the chunks' items, so `Item` is read whole, and so, in turn, is every entity a
  /// row read whole refers to: `Folder` (`Item.folder`), `Person` (`Item.owner`), `Label`
  /// (`Folder.labels`), `Shelf` (`Label.shelves`). `Note` refers to items but nothing refers
  /// to it.
  @Test func intoJSONAnEntityReadWholeKeepsTheMembersOfItsToManyWhole() throws {
    let text = StreamingPlanStubsTests.model(featured: false)
      .replacingOccurrences(
        of: #"<relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person"/>"#,
        with:
          #"<relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person"/><relationship name="archive" optional="YES" maxCount="1" destinationEntity="Archive" inverseName="items" inverseEntity="Archive"/>"#
      )
      .replacingOccurrences(
        of: #"inverseName="related" inverseEntity="Archive"/>"#,
        with:
          #"inverseName="related" inverseEntity="Archive"/><relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="archive" inverseEntity="Item"/>"#
      )
    let model = try Self.model(text, Self.entities)
    let sqlite = StreamingPlan(copying: model, stubs: true, listsMembers: false)
    #expect(sqlite.streamed == ["Folder", "Item", "Label", "Note", "Person", "Shelf"], "\(sqlite.reasons)")
    let json = StreamingPlan(copying: model, stubs: true, listsMembers: true)
    #expect(json.streamed == ["Note"], "\(json.reasons)")
    #expect(json.reasons["Item"] == "Archive.items refers to it, and Archive is read whole")
    #expect(json.reasons["Folder"] == "Item.folder refers to it, and Item is read whole")
    #expect(json.reasons["Shelf"] == "Label.shelves refers to it, and Label is read whole")
  }

  /// A transient relationship is neither read nor written: a run is refused over it, a
  /// conversion is not.
  @Test func aTransientRelationshipDoesNotKeepAConversionWhole() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Client"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="missing" optional="YES" transient="YES" toMany="YES" destinationEntity="Message" inverseName="missingRecipients" inverseEntity="Message"/></entity>
      <entity name="Message"><attribute name="text" optional="YES" attributeType="String"/>\
      <relationship name="missingRecipients" optional="YES" transient="YES" toMany="YES" destinationEntity="Client" inverseName="missing" inverseEntity="Client"/></entity>
      </model>

      """
    let plan = try StreamingPlanStubsTests.identityPlan(text, ["Client", "Message"])
    let run = StreamingPlan(plan, usesDefaultPolicy: [true, true], stubs: true)
    #expect(run.streamed.isEmpty)
    #expect(run.reasons["Client"] == "its relationship missing is transient")
    let copying = StreamingPlan(copying: plan.sourceModel, stubs: true, listsMembers: true)
    #expect(copying.streamed == ["Client", "Message"], "\(copying.reasons)")
  }
}
