import Foundation
import MapCompiler
import MapRuntime
import Testing

/// Valid mappings, warnings, many errors at once, implicit mappings and determinism.
@Suite struct MappingCompileTests {
  static let valid = TestModels.mapping(
    #"""
      <entityMapping name="PersonToPerson" source="Person" destination="Person">
        <filter>age >= 18 AND name != nil</filter>
        <attribute name="birthday">FUNCTION($entityPolicy, "dateFromString:format:" , $source.born, "yyyy-MM-dd")</attribute>
        <relationship name="animals">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PetToAnimal", $source.pets)</relationship>
        <relationship name="home">FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "AddressToPlace", $source.address)</relationship>
      </entityMapping>
      <entityMapping name="PetToAnimal" source="Pet" destination="Animal"/>
      <entityMapping name="AddressToPlace" source="Address" destination="Place">
        <sourceExpression>FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "Address", "city BEGINSWITH[c] 'a'"), $manager.sourceContext, NO)</sourceExpression>
      </entityMapping>
      <entityMapping name="NoteToNote" type="copy" source="Note" destination="Note"/>
    """#)

  @Test func aValidMappingHasNoDiagnostics() throws {
    let output = try expectDiagnostics(Self.valid, [])
    let plan = try #require(output.plan)
    #expect(plan.entityMappings.map(\.name) == ["PersonToPerson", "PetToAnimal", "AddressToPlace", "NoteToNote"])
    #expect(plan.entityMappings.map(\.type) == [.transform, .transform, .transform, .copy])
    let person = plan.entityMappings[0]
    // Explicit mappings keep their text; name (inherited from Being) and age map implicitly;
    // petCount (derived) and cache (transient) get none.
    let attributes = Dictionary(
      uniqueKeysWithValues: person.attributeMappings.map {
        ($0.name, $0.valueExpression.map { "\($0.expression)" } ?? "")
      })
    #expect(
      attributes == [
        "age": "$source.age", "name": "$source.name",
        "birthday": #"FUNCTION($entityPolicy, "dateFromString:format:" , $source.born, "yyyy-MM-dd")"#,
      ])
    #expect(person.relationshipMappings.map(\.name).sorted() == ["animals", "home"])
    // The filter became the default FETCH, and both predicate strings were precompiled.
    #expect(
      person.sourceExpression.map { "\($0.expression)" }
        == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "Person", "age >= 18 AND name != nil"), $manager.sourceContext, NO)"#
    )
    #expect(plan.predicates.map(\.text) == ["TRUEPREDICATE", "age >= 18 AND name != nil", "city BEGINSWITH[c] 'a'"])
    // The implicit relationship of Pet.owner → Animal.owner goes through the source relationship.
    let pet = plan.entityMappings[1]
    #expect(
      pet.relationshipMappings.map { "\($0.name) = \($0.valueExpression!.expression)" }
        == [
          #"owner = FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:" , "owner", $source.owner)"#
        ])
  }

  @Test func warningsDoNotBlockCompilation() throws {
    let marked = TestModels.mapping(
      #"""
        <entityMapping name="AddAnimal" type="add" destination="Animal">
          <forEach>{1, 2}</forEach>
          <attribute name="name">1️⃣$source.name</attribute>
          <attribute name="legs">$index</attribute>
        </entityMapping>
        <entityMapping name="PersonToPerson" source="Person" destination="Person">
          <attribute name="2️⃣cache">"x"</attribute>
        </entityMapping>
      """#)
    let output = try expectDiagnostics(
      marked, [warning("map-source-without-source", at: 1), warning("map-transient-attribute", at: 2)])
    let plan = try #require(output.plan)
    #expect(plan.entityMappings.count == 2)
    #expect(plan.entityMappings[0].forEach.map { "\($0.expression)" } == "{1, 2}")
  }

  @Test func everyProblemIsReportedAtOnce() throws {
    // Structure errors, model errors, expression errors and pins, in several mappings.
    let marked = #"""
      <mappingModel name="M" formatVersion="1">
        <sourceModel path="Old.xcdatamodel">9️⃣<entityVersionHash entity="Note" 1️⃣hsh="x"/></sourceModel>
        <destinationModel path="New.xcdatamodel"/>
        <entityMapping name="A" source="Person" destination="Person">
          2️⃣<atribute name="age">1</atribute>
          <attribute name="age">3️⃣$source.name</attribute>
          <attribute name="name">$source.4️⃣nme</attribute>
          <relationship name="home">5️⃣$source.address</relationship>
        </entityMapping>
        <entityMapping name="B" source="6️⃣Pett" destination="Animal"/>
        <entityMapping name="C" type="copy" source="Note" destination="Note">
          <attribute name="text">7️⃣$item</attribute>
        </entityMapping>
        <entityMapping name="8️⃣A" source="Note" destination="Note"/>
      </mappingModel>
      """#
    try expectDiagnostics(
      marked,
      [
        error("map-unknown-xml-attribute", at: 1), error("map-missing-attribute", at: 9),
        error("map-unknown-element", at: 2), error("map-type-mismatch", at: 3), error("map-unknown-key", at: 4),
        error("map-relationship-source-objects", at: 5), error("map-unknown-entity", at: 6),
        error("map-item-outside-foreach", at: 7), error("map-duplicate-mapping", at: 8),
      ])
  }

  @Test func compilingTwiceGivesTheSameBytes() throws {
    let folder = try TestModels.write(Self.valid)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/mapping.xml"
    let first = try #require(MappingCompilation.compile(mappingPath: path).plan)
    let second = try #require(MappingCompilation.compile(mappingPath: path).plan)
    let bytes = PlanWriter.encode(first)
    #expect(bytes.count > 1000)
    #expect(bytes == PlanWriter.encode(second))
  }
}
