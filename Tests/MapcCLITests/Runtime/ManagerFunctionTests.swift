import Foundation
import MapRuntime
import MapTestSupport
import Testing

/// `$manager` and `$entityMapping` at run time, on a small model written here: a FETCH on the
/// destination context, `destinationInstancesForSourceRelationshipNamed:sourceInstances:`,
/// `$entityMapping.userInfo.modelVersion`, key paths through a to-one relationship, and inverse
/// maintenance of the relationship set from one side.
@Suite struct ManagerFunctionTests {
  static let sourceModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Person" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="pets" optional="YES" toMany="YES" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
        </entity>
        <entity name="Pet" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
        </entity>
    </model>
    """
  static let destinationModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="2">
        <entity name="Person" syncable="YES">
            <attribute name="label" attributeType="String"/>
            <attribute name="name" attributeType="String"/>
            <attribute name="petCount" attributeType="Integer 32" defaultValueString="0"/>
            <relationship name="pets" optional="YES" toMany="YES" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
        </entity>
        <entity name="Pet" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <attribute name="ownerName" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
        </entity>
    </model>
    """
  static let mapping = """
    <mappingModel name="People" formatVersion="1">
      <sourceModel path="v1.xcdatamodel"/>
      <destinationModel path="v2.xcdatamodel"/>
      <entityMapping name="PetToPet" type="transform" source="Pet" destination="Pet">
        <attribute name="ownerName">$source.owner.name</attribute>
      </entityMapping>
      <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
        <userInfo><entry key="modelVersion" value="7"/></userInfo>
        <attribute name="label">$entityMapping.userInfo.modelVersion</attribute>
        <attribute name="petCount">FETCH(FUNCTION($manager, "fetchRequestForDestinationEntityNamed:predicateString:", "Pet", "name BEGINSWITH 'R' OR name BEGINSWITH 'T'"), $manager.destinationContext, YES)</attribute>
        <relationship name="pets">FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "pets", $source.pets)</relationship>
      </entityMapping>
    </mappingModel>
    """
  static let store = """
    {"objects": {
      "Person": [{"id": "p-ann", "name": "Ann", "pets": ["x-rex", "x-tom"]}, {"id": "p-bob", "name": "Bob", "pets": []}],
      "Pet": [{"id": "x-rex", "name": "Rex", "owner": "p-ann"}, {"id": "x-tom", "name": "Tom"}, {"id": "x-zed", "name": "Zed"}]
    }}
    """

  @Test func managerFunctionsAndVariablesAtRunTime() throws {
    let objects = try migrateInline(
      sourceModel: Self.sourceModel, destinationModel: Self.destinationModel, mapping: Self.mapping, store: Self.store,
      label: "manager")
    // Pets are mapped first, in store order: Rex, Tom, Zed.
    let pets = try #require(objects["Pet"])
    #expect(pets.map { $0["name"] as? String } == ["Rex", "Tom", "Zed"])
    // $source.owner.name: Rex names its owner; Tom's owner comes only from Ann's side of the
    // relationship, which the store reader completes; Zed has none.
    #expect(pets.map { $0["ownerName"] as? String } == ["Ann", "Ann", nil])
    // Person.pets is set from Person's side; the inverse Pet.owner follows.
    #expect(pets.map { $0["owner"] as? String } == ["Person/1", "Person/1", nil])
    let people = try #require(objects["Person"])
    #expect(people.map { $0["name"] as? String } == ["Ann", "Bob"])
    #expect(people.map { $0["label"] as? String } == ["7", "7"])
    // The FETCH on the destination context sees the Pets made by the earlier mapping: Rex, Tom.
    #expect(people.map { $0["petCount"] as? Int } == [2, 2])
    #expect(people.map { $0["pets"] as? [String] } == [["Pet/1", "Pet/2"], []])
  }
}
