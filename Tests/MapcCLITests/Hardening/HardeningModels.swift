import Foundation
import MapTestSupport

/// A small source and destination model, a mapping between them and helpers for the hardening
/// tests: Person (name, born, pets) and Pet (name, owner); the destination adds Person.label.
enum Hardening {
  static let sourceModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Person" syncable="YES">
            <attribute name="born" optional="YES" attributeType="Date"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="pets" optional="YES" toMany="YES" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
        </entity>
        <entity name="Pet" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
        </entity>
    </model>
    """
  static let destinationModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="2">
        <entity name="Person" syncable="YES">
            <attribute name="count" optional="YES" attributeType="Integer 64"/>
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="pets" optional="YES" toMany="YES" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
        </entity>
        <entity name="Pet" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
        </entity>
    </model>
    """

  /// A mapping whose Person mapping sets `label` and `count` to the given expressions.
  static func mapping(label: String = "$source.name", count: String = "nil") -> String {
    """
    <mappingModel name="People" formatVersion="1">
      <sourceModel path="v1.xcdatamodel"/>
      <destinationModel path="v2.xcdatamodel"/>
      <entityMapping name="PetToPet" type="transform" source="Pet" destination="Pet"/>
      <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
        <attribute name="label">\(label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;"))</attribute>
        <attribute name="count">\(count)</attribute>
        <relationship name="pets">FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "pets", $source.pets)</relationship>
      </entityMapping>
    </mappingModel>
    """
  }

  static let store = """
    {"objects": {"Person": [{"id": "p1", "name": "Ann", "pets": ["x1"]}], "Pet": [{"id": "x1", "name": "Rex"}]}}
    """

  /// A folder with v1/v2 model folders, `m.xml` (the mapping) and `s.json` (the store).
  static func folder(_ label: String, mapping: String = Hardening.mapping(), store: String = Hardening.store) throws
    -> URL
  {
    let dir = try FileManagerTemp.folder(label)
    try writeModelFolder(sourceModel, named: "v1", in: dir)
    try writeModelFolder(destinationModel, named: "v2", in: dir)
    try mapping.write(to: dir.appendingPathComponent("m.xml"), atomically: false, encoding: .utf8)
    try store.write(to: dir.appendingPathComponent("s.json"), atomically: false, encoding: .utf8)
    return dir
  }

  /// The bytes of a file (empty when it cannot be read).
  static func bytes(_ path: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
  }
}
