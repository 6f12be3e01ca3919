import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// Which entities of inheritance trees go a chunk at a time with stubs (`StreamingPlan`), on a
/// model mapped onto itself; expectations written by hand from the rules of `Specs/limits.md`
/// ("Memory"): a tree's entities stream together (one table), relationships into and out of a
/// tree (many-to-many ones too) are read with stubs.
struct StreamingPlanTreeTests {
  /// An abstract `Message` (its `sender` a `Person`, whose `messages` are ordered; its
  /// `attachments` each an `Attachment`'s `message`) with sub-entities `Text`, `Image` and
  /// `Reply` (a `Text` with a `replyTo`, a `Message`, without inverse); `Post` and its `Story`
  /// have a many-to-many relationship with `Tag`; `Item.related` and `Shelf.related` are each
  /// other's inverse (the same name, two entities: not a relationship that is its own inverse);
  /// `Event` and its `Click` have no relationship.
  static let model = """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    <entity name="Message" isAbstract="YES"><attribute name="text" optional="YES" attributeType="String"/>\
    <relationship name="sender" optional="YES" maxCount="1" destinationEntity="Person" inverseName="messages" inverseEntity="Person"/>\
    <relationship name="attachments" optional="YES" toMany="YES" destinationEntity="Attachment" inverseName="message" inverseEntity="Attachment"/></entity>
    <entity name="Text" parentEntity="Message"><attribute name="body" optional="YES" attributeType="String"/></entity>
    <entity name="Image" parentEntity="Message"><attribute name="width" optional="YES" attributeType="Integer 32" defaultValueString="0"/></entity>
    <entity name="Reply" parentEntity="Text">\
    <relationship name="replyTo" optional="YES" maxCount="1" destinationEntity="Message"/></entity>
    <entity name="Person"><attribute name="name" optional="YES" attributeType="String"/>\
    <relationship name="messages" optional="YES" toMany="YES" ordered="YES" destinationEntity="Message" inverseName="sender" inverseEntity="Message"/></entity>
    <entity name="Attachment"><attribute name="name" optional="YES" attributeType="String"/>\
    <relationship name="message" optional="YES" maxCount="1" destinationEntity="Message" inverseName="attachments" inverseEntity="Message"/></entity>
    <entity name="Post"><attribute name="title" optional="YES" attributeType="String"/>\
    <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="posts" inverseEntity="Tag"/></entity>
    <entity name="Story" parentEntity="Post"><attribute name="words" optional="YES" attributeType="Integer 32" defaultValueString="0"/></entity>
    <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/>\
    <relationship name="posts" optional="YES" toMany="YES" destinationEntity="Post" inverseName="tags" inverseEntity="Post"/></entity>
    <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\
    <relationship name="related" optional="YES" toMany="YES" destinationEntity="Shelf" inverseName="related" inverseEntity="Shelf"/></entity>
    <entity name="Shelf"><attribute name="name" optional="YES" attributeType="String"/>\
    <relationship name="related" optional="YES" toMany="YES" destinationEntity="Item" inverseName="related" inverseEntity="Item"/></entity>
    <entity name="Event"><attribute name="at" optional="YES" attributeType="Date"/></entity>
    <entity name="Click" parentEntity="Event"><attribute name="x" optional="YES" attributeType="Integer 32" defaultValueString="0"/></entity>
    </model>

    """

  /// Each concrete entity mapped onto itself, every property by the compiler's implicit
  /// expression; the mapping over `custom` (if any) has a custom policy.
  func analysed(custom: String? = nil) throws -> StreamingPlan {
    let plan = try StreamingPlanStubsTests.identityPlan(
      Self.model,
      ["Text", "Image", "Reply", "Person", "Attachment", "Post", "Story", "Tag", "Item", "Shelf", "Event", "Click"])
    return StreamingPlan(
      plan, usesDefaultPolicy: plan.entityMappings.map { $0.sourceEntity != custom }, stubs: true)
  }

  @Test func aTreeStreamsWithTheEntitiesItRefersToAndThatReferToIt() throws {
    let s = try analysed()
    let all = [
      "Message", "Text", "Image", "Reply", "Person", "Attachment", "Post", "Story", "Tag", "Item", "Shelf", "Event",
      "Click",
    ]
    #expect(s.streamed == Set(all), "\(s.reasons)")
    // A stub of a Message is of one of its sub-entities (Message is abstract, but listed); one
    // of a Post may be a Story.
    #expect(
      s.stubbed == [
        "Message", "Text", "Image", "Reply", "Person", "Attachment", "Post", "Story", "Tag", "Item", "Shelf",
      ])
  }

  /// A custom policy on `Story` keeps it whole, so `Tag` (whose chunks would hold stubs of
  /// stories) too, and then `Post`, which `Tag.posts` refers to from rows read whole.
  @Test func aManyToManyWithATreeKeepsBothSidesTogether() throws {
    let s = try analysed(custom: "Story")
    #expect(s.reasons["Story"] == "mapping StoryToStory has a custom policy")
    #expect(s.reasons["Tag"] == "it refers to Story objects, and mapping StoryToStory has a custom policy")
    #expect(s.reasons["Post"] == "Tag.posts refers to it, and Tag is read whole")
    #expect(s.streamed.isDisjoint(with: ["Post", "Story", "Tag"]))
  }

  /// A custom policy keeps `Image` whole. A chunk that refers to a `Message` may hold a stub of
  /// an `Image`, over which the mappings run: `Reply`, `Person` and `Attachment` refer to
  /// messages, so they are read whole; then `Reply.replyTo` refers to every kind of message
  /// from rows read whole, which keeps `Message` and `Text` whole (the tree stays one).
  @Test func anEntityReadWholeKeepsItsWholeTreeWhole() throws {
    let s = try analysed(custom: "Image")
    #expect(s.streamed == ["Post", "Story", "Tag", "Item", "Shelf", "Event", "Click"], "\(s.reasons)")
    let custom = "mapping ImageToImage has a custom policy"
    #expect(s.reasons["Image"] == custom)
    for e in ["Reply", "Person", "Attachment"] { #expect(s.reasons[e] == "it refers to Image objects, and \(custom)") }
    for e in ["Message", "Text"] { #expect(s.reasons[e] == "Reply.replyTo refers to it, and Reply is read whole") }
  }

  /// With `Click`'s mapping custom, nothing else keeps its tree whole: `Event`, of its table,
  /// is read whole because `Click` is.
  @Test func aTreeIsReadWholeWhenOneOfItsEntitiesIs() throws {
    let s = try analysed(custom: "Click")
    #expect(s.reasons["Click"] == "mapping ClickToClick has a custom policy")
    #expect(s.reasons["Event"] == "Click, of its inheritance tree (the same table), is read whole")
    #expect(
      s.streamed == [
        "Message", "Text", "Image", "Reply", "Person", "Attachment", "Post", "Story", "Tag", "Item", "Shelf",
      ],
      "\(s.reasons)")
  }
}
