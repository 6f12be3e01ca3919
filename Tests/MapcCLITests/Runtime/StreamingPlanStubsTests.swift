import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// Which entities go a chunk at a time with stubs (`StreamingPlan`'s `stubs`), on a model with
/// each kind of relationship, mapped onto itself; expectations written by hand from the rules
/// of `Specs/limits.md` ("Memory").
struct StreamingPlanStubsTests {
  /// `Item` refers to a `Folder` (one-to-many) and a `Person` (no inverse); a `Note` refers to
  /// an `Item` (no inverse); `Folder` and `Shelf` have many-to-many relationships with `Label`;
  /// `Shelf` refers to a `Person` through `featured` when `featured`.
  static func model(featured: Bool) -> String {
    let shelfFeatured =
      featured ? #"<relationship name="featured" optional="YES" maxCount="1" destinationEntity="Person"/>"# : ""
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
      <entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>\
      <relationship name="labels" optional="YES" toMany="YES" destinationEntity="Label" inverseName="folders" inverseEntity="Label"/></entity>
      <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\
      <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>\
      <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person"/></entity>
      <entity name="Label"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="folders" optional="YES" toMany="YES" destinationEntity="Folder" inverseName="labels" inverseEntity="Folder"/>\
      <relationship name="shelves" optional="YES" toMany="YES" destinationEntity="Shelf" inverseName="labels" inverseEntity="Shelf"/></entity>
      <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/>\
      <relationship name="item" optional="YES" maxCount="1" destinationEntity="Item"/></entity>
      <entity name="Person"><attribute name="name" optional="YES" attributeType="String"/></entity>
      <entity name="Shelf"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="labels" optional="YES" toMany="YES" destinationEntity="Label" inverseName="shelves" inverseEntity="Label"/>\(shelfFeatured)</entity>
      </model>

      """
  }

  /// Each entity mapped onto itself, every property by the compiler's implicit expression.
  func analysed(featured: Bool, stubs: Bool = true) throws -> StreamingPlan {
    let work = try FileManagerTemp.folder("streaming-plan-stubs")
    defer { FileManagerTemp.remove(work.path) }
    _ = try ModelBundles.bundle(Self.model(featured: featured), named: "M", in: work)
    let entities = ["Folder", "Item", "Label", "Note", "Person", "Shelf"]
    let mappings = entities.map {
      #"<entityMapping name="\#($0)To\#($0)" type="transform" source="\#($0)" destination="\#($0)"/>"#
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <mappingModel name="M" formatVersion="1">
      <sourceModel path="M.xcdatamodeld/M.xcdatamodel"/>
      <destinationModel path="M.xcdatamodeld/M.xcdatamodel"/>
      \(mappings.joined(separator: "\n"))
      </mappingModel>

      """
    let path = work.appendingPathComponent("m.xml")
    try text.write(to: path, atomically: false, encoding: .utf8)
    let compiled = MappingCompilation.compile(mappingPath: path.path)
    let plan = try #require(compiled.plan, "\(compiled.diagnostics)")
    return StreamingPlan(plan, usesDefaultPolicy: plan.entityMappings.map { _ in true }, stubs: stubs)
  }

  @Test func toOneAndOneToManyStreamManyToManyIsReadWhole() throws {
    let s = try analysed(featured: false)
    #expect(s.streamed == ["Item", "Note", "Person"], "\(s.reasons)")
    #expect(s.reasons["Folder"] == "its relationship labels is many-to-many (a join table)")
    #expect(s.reasons["Label"] == "its relationship folders is many-to-many (a join table)")
    #expect(s.reasons["Shelf"] == "its relationship labels is many-to-many (a join table)")
    // Item's chunks hold stubs of folders and people; Note's, of items.
    #expect(s.stubbed == ["Folder", "Item", "Person"])
  }

  @Test func anEntityThatARowReadWholeRefersToIsReadWholeToo() throws {
    let s = try analysed(featured: true)
    #expect(s.streamed == ["Item", "Note"], "\(s.reasons)")
    #expect(s.reasons["Person"] == "Shelf.featured refers to it, and Shelf is read whole")
    #expect(s.stubbed == ["Folder", "Item", "Person"])
  }

  @Test func withoutStubsEveryEntityWithARelationshipIsReadWhole() throws {
    let s = try analysed(featured: false, stubs: false)
    #expect(s.streamed.isEmpty, "\(s.reasons)")
    #expect(s.reasons["Person"] == "a relationship of Item points at it")
    #expect(s.stubbed.isEmpty)
  }
}
