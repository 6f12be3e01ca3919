import Foundation
import MapRuntime
import Testing

/// Pass 2 straight from association tables (`DirectLink`) on the cases around its usual one:
/// one-to-one partners, a second mapping that takes a partner away (the general path must
/// clear the first one), and to-many relationships with no members. (A to-one given several
/// targets cannot be written: the compiler refuses it, `map-to-many-into-to-one`.) Every
/// expected value is written out here.
@Suite struct LinkingTests {
  static let sourceModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Couple" syncable="YES">
            <attribute name="items" optional="YES" attributeType="Transformable"/>
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """
  static let destinationModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="2">
        <entity name="A" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="partner" optional="YES" maxCount="1" destinationEntity="B" inverseName="partner" inverseEntity="B"/>
        </entity>
        <entity name="B" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="partner" optional="YES" maxCount="1" destinationEntity="A" inverseName="partner" inverseEntity="A"/>
        </entity>
        <entity name="C" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" destinationEntity="D" inverseName="owner" inverseEntity="D"/>
        </entity>
        <entity name="D" syncable="YES">
            <attribute name="text" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" destinationEntity="C" inverseName="items" inverseEntity="C"/>
        </entity>
    </model>
    """
  static let mapping = """
    <mappingModel name="Couples" formatVersion="1">
      <sourceModel path="v1.xcdatamodel"/>
      <destinationModel path="v2.xcdatamodel"/>
      <entityMapping name="CoupleToA" type="transform" source="Couple" destination="A">
        <attribute name="name">$source.name</attribute>
        <relationship name="partner">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CoupleToB", $source)</relationship>
      </entityMapping>
      <entityMapping name="CoupleToB" type="transform" source="Couple" destination="B">
        <attribute name="name">$source.name</attribute>
        <relationship name="partner">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CoupleToA", $source)</relationship>
      </entityMapping>
      <entityMapping name="CoupleToD" type="transform" source="Couple" destination="D">
        <forEach>$source.items</forEach>
        <attribute name="text">$item</attribute>
        <relationship name="owner">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CoupleToC", $source)</relationship>
      </entityMapping>
      <entityMapping name="CoupleToC" type="transform" source="Couple" destination="C">
        <attribute name="name">$source.name</attribute>
        <relationship name="items">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CoupleToD", $source)</relationship>
      </entityMapping>
      <entityMapping name="CoupleToSecondA" type="transform" source="Couple" destination="A">
        <attribute name="name">"second"</attribute>
        <relationship name="partner">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CoupleToB", $source)</relationship>
      </entityMapping>
    </mappingModel>
    """
  static let store = #"""
    {"objects": {"Couple": [
      {"id": "c1", "name": "one", "items": ["x", "y", "z"]},
      {"id": "c2", "name": "two", "items": []},
      {"id": "c3", "name": "three"}
    ]}}
    """#

  static func run(_ mapping: String, _ label: String) throws -> Result<
    (text: String, summary: MigrationRun.Summary), MigrationFailure
  > {
    try runInline(
      sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping, store: store, label: label)
  }

  @Test func partnersItemsAndATakenPartner() throws {
    let text = try Self.run(Self.mapping, "linking").get().text
    let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let objects = try #require(json["objects"] as? [String: [[String: Any]]])
    let a = try #require(objects["A"])
    let b = try #require(objects["B"])
    // A/1–3 from CoupleToA; A/4–6 ("second") take each B away from them.
    #expect(a.map { $0["name"] as? String } == ["one", "two", "three", "second", "second", "second"])
    #expect(a.map { $0["partner"] as? String } == [nil, nil, nil, "B/1", "B/2", "B/3"])
    #expect(b.map { $0["partner"] as? String } == ["A/4", "A/5", "A/6"])
    let c = try #require(objects["C"])
    let d = try #require(objects["D"])
    #expect(c.map { $0["items"] as? [String] } == [["D/1", "D/2", "D/3"], [], []])
    #expect(d.map { $0["text"] as? String } == ["x", "y", "z"])
    #expect(d.allSatisfy { $0["owner"] as? String == "C/1" })
  }
}
