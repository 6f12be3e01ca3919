import Foundation
import MapRuntime
import MapTestSupport
import Testing

/// forEach fan-out with parallel lists, the shape of the diary migration, on the odd cases:
/// a missing answers list, a shorter one, an empty question list, a Transformable that is not
/// an array, escapes, and a subentity, whose objects its own entity mapping migrates (the
/// parent's fetch does not include them, as Core Data's does not). Every expected value is
/// written out here.
@Suite struct FanOutTests {
  static let sourceModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Sheet" syncable="YES">
            <attribute name="answers" optional="YES" attributeType="Transformable"/>
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="questions" optional="YES" attributeType="Transformable"/>
        </entity>
        <entity name="SpecialSheet" parentEntity="Sheet" syncable="YES">
            <attribute name="extra" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """
  static let destinationModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="2">
        <entity name="Line" syncable="YES">
            <attribute name="answer" optional="YES" attributeType="String"/>
            <attribute name="kind" optional="YES" attributeType="String"/>
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="order" optional="YES" attributeType="Integer 64"/>
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """
  static let mapping = """
    <mappingModel name="Lines" formatVersion="1">
      <sourceModel path="v1.xcdatamodel"/>
      <destinationModel path="v2.xcdatamodel"/>
      <entityMapping name="SheetToLine" type="transform" source="Sheet" destination="Line">
        <forEach>$source.questions</forEach>
        <attribute name="answer">$source.answers[$index]</attribute>
        <attribute name="kind">"line"</attribute>
        <attribute name="label">$source.label</attribute>
        <attribute name="order">$index</attribute>
        <attribute name="text">$item</attribute>
      </entityMapping>
      <entityMapping name="SpecialSheetToLine" type="transform" source="SpecialSheet" destination="Line">
        <forEach>$source.questions</forEach>
        <attribute name="answer">$source.answers[$index]</attribute>
        <attribute name="kind">"line"</attribute>
        <attribute name="label">$source.label</attribute>
        <attribute name="order">$index</attribute>
        <attribute name="text">$item</attribute>
      </entityMapping>
    </mappingModel>
    """
  static let store = #"""
    {"objects": {
      "Sheet": [
        {"id": "s1", "label": "one", "questions": ["a", "b", "c"], "answers": ["x", null, "7"]},
        {"id": "s2", "label": "two", "questions": ["a", "b"]},
        {"id": "s3", "questions": ["q\"uote", "tab\t"], "answers": ["only"]},
        {"id": "s4", "label": "four", "questions": []},
        {"id": "s5", "label": "five", "questions": ["d"], "answers": {"not": "a list"}}
      ],
      "SpecialSheet": [
        {"id": "x1", "label": "sub", "extra": "e", "questions": ["p", "q"], "answers": ["P"]}
      ]
    }}
    """#

  @Test func fanOutWithParallelLists() throws {
    let objects = try migrateInline(
      sourceModel: Self.sourceModel, destinationModel: Self.destinationModel, mapping: Self.mapping, store: Self.store,
      label: "fanout")
    let lines = try #require(objects["Line"])
    #expect(lines.map { $0["text"] as? String } == ["a", "b", "c", "a", "b", "q\"uote", "tab\t", "d", "p", "q"])
    #expect(lines.map { $0["order"] as? Int } == [0, 1, 2, 0, 1, 0, 1, 0, 0, 1])
    #expect(lines.map { $0["answer"] as? String } == ["x", nil, "7", nil, nil, "only", nil, nil, "P", nil])
    #expect(
      lines.map { $0["label"] as? String } == ["one", "one", "one", "two", "two", nil, nil, "five", "sub", "sub"])
    #expect(lines.allSatisfy { $0["kind"] as? String == "line" })
  }
}
