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
  /// an `Archive` is related to other archives by a relationship that is its own inverse (a
  /// join table's REFLEXIVE column), and refers to a `Person` through `featured` when
  /// `featured`.
  static func model(featured: Bool) -> String {
    let archiveFeatured =
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
      <relationship name="labels" optional="YES" toMany="YES" destinationEntity="Label" inverseName="shelves" inverseEntity="Label"/></entity>
      <entity name="Archive"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="related" optional="YES" toMany="YES" destinationEntity="Archive" inverseName="related" inverseEntity="Archive"/>\(archiveFeatured)</entity>
      </model>

      """
  }

  /// Each entity mapped onto itself, every property by the compiler's implicit expression.
  func analysed(featured: Bool, stubs: Bool = true) throws -> StreamingPlan {
    let plan = try Self.identityPlan(
      Self.model(featured: featured), ["Archive", "Folder", "Item", "Label", "Note", "Person", "Shelf"])
    return StreamingPlan(plan, usesDefaultPolicy: plan.entityMappings.map { _ in true }, stubs: stubs)
  }

  /// The plan of a text mapping of `model` onto itself with one mapping per entity of
  /// `entities`, `<Entity>To<Entity>`, every property by the compiler's implicit expression.
  static func identityPlan(_ model: String, _ entities: [String], extra: [String: String] = [:]) throws
    -> MigrationPlan
  {
    let work = try FileManagerTemp.folder("streaming-plan")
    defer { FileManagerTemp.remove(work.path) }
    _ = try ModelBundles.bundle(model, named: "M", in: work)
    // (`extra`: children of an entity's mapping element.)
    let mappings = entities.map {
      #"<entityMapping name="\#($0)To\#($0)" type="transform" source="\#($0)" destination="\#($0)">\#(extra[$0] ?? "")</entityMapping>"#
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
    return try #require(compiled.plan, "\(compiled.diagnostics)")
  }

  @Test func everyKindOfRelationshipStreamsButOneThatIsItsOwnInverse() throws {
    let s = try analysed(featured: false)
    #expect(s.streamed == ["Folder", "Item", "Label", "Note", "Person", "Shelf"], "\(s.reasons)")
    #expect(
      s.reasons["Archive"]
        == "its relationship related is many-to-many with itself as its inverse (a join table's REFLEXIVE column)")
    // Chunks hold stubs of what the streamed entities refer to.
    #expect(s.stubbed == ["Folder", "Item", "Label", "Person", "Shelf"])
  }

  @Test func anEntityThatARowReadWholeRefersToIsReadWholeToo() throws {
    let s = try analysed(featured: true)
    #expect(s.streamed == ["Folder", "Item", "Label", "Note", "Shelf"], "\(s.reasons)")
    #expect(s.reasons["Person"] == "Archive.featured refers to it, and Archive is read whole")
    #expect(s.stubbed == ["Folder", "Item", "Label", "Person", "Shelf"])
  }

  @Test func withoutStubsEveryEntityWithARelationshipIsReadWhole() throws {
    let s = try analysed(featured: false, stubs: false)
    #expect(s.streamed.isEmpty, "\(s.reasons)")
    #expect(s.reasons["Person"] == "a relationship of Item points at it")
    #expect(s.stubbed.isEmpty)
  }
}
