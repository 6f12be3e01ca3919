import Foundation
import MapRuntime
import MapTestSupport
import MapTools
import Testing

/// Cases beyond the catalogue's examples: each asserts rule, line and column (the mapping body
/// starts on line 5; `<entityMapping` at column 1 unless indented).
@Suite struct LintRuleVariantTests {
  static let personOptional = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="people" inverseEntity="Owner"/>
    </entity>
    <entity name="Owner" representedClassName="Owner" syncable="YES">
        <attribute name="label" optional="YES" attributeType="String"/>
        <relationship name="people" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="owner" inverseEntity="Person"/>
    </entity>
    """
  static let personMandatory = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <attribute name="ownerLabel" optional="YES" attributeType="String"/>
    </entity>
    """

  @Test func implicitOptionalIntoMandatoryPointsAtTheEntityMapping() throws {
    let f = try lint(
      source: Self.personOptional, destination: Self.personMandatory,
      mapping: """
        <entityMapping name="P" type="transform" source="Person" destination="Person">
          <attribute name="ownerLabel">$source.owner.label</attribute>
        </entityMapping>
        <entityMapping name="DropOwners" type="remove" source="Owner"/>
        """)
    #expect(positions(f) == ["lint-optional-into-mandatory 5:1"])
    #expect(f.first?.diagnostic.message.contains("fills it implicitly from Person.name, which is optional") == true)
  }

  @Test func nilLiteralAndOptionalRelationshipPaths() throws {
    let f = try lint(
      source: Self.personOptional, destination: Self.personMandatory,
      mapping: """
        <entityMapping name="P" type="transform" source="Person" destination="Person">
          <attribute name="name">  nil</attribute>
        </entityMapping>
        <entityMapping name="Q" type="transform" source="Person" destination="Person">
          <filter>name != nil</filter>
          <attribute name="name">$source.owner.label</attribute>
        </entityMapping>
        <entityMapping name="DropOwners" type="remove" source="Owner"/>
        """)
    #expect(positions(f) == ["lint-optional-into-mandatory 6:28", "lint-optional-into-mandatory 10:26"])
    #expect(f[0].diagnostic.message.contains("always nil"))
    #expect(f[1].diagnostic.message.contains("Person.owner is optional; Owner.label is optional"))
  }

  @Test func mandatoryAttributeRuleRespectsDefaultsAndPolicies() throws {
    let destination = """
      <entity name="Person" representedClassName="Person" syncable="YES">
          <attribute name="kind" attributeType="Integer 16" defaultValueString="1" usesScalarValueType="YES"/>
          <attribute name="stamp" attributeType="Date" usesScalarValueType="NO"/>
      </entity>
      """
    let withPolicy = try lint(
      source: Self.personOptional, destination: destination,
      mapping: """
        <entityMapping name="P" type="transform" source="Person" destination="Person" policy="App.LegacyToModernPolicy"/>
        <entityMapping name="DropOwners" type="remove" source="Owner"/>
        """)
    #expect(positions(withPolicy).isEmpty)
    let plain = try lint(
      source: Self.personOptional, destination: destination,
      mapping: """
        <entityMapping name="DropOwners" type="remove" source="Owner"/>
          <entityMapping name="P" type="transform" source="Person" destination="Person"/>
        """)
    #expect(positions(plain) == ["lint-mandatory-attribute-unmapped 6:3"])
    #expect(plain.first?.diagnostic.message.hasPrefix("Person.stamp is mandatory") == true)
  }

  @Test func narrowingConversionsExplicitAndImplicit() throws {
    let source = """
      <entity name="Item" representedClassName="Item" syncable="YES">
          <attribute name="big" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
          <attribute name="code" optional="YES" attributeType="String"/>
          <attribute name="price" attributeType="Double" defaultValueString="0" usesScalarValueType="YES"/>
      </entity>
      """
    let destination = """
      <entity name="Item" representedClassName="Item" syncable="YES">
          <attribute name="big" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
          <attribute name="code" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
          <attribute name="codeToo" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
          <attribute name="flag" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
          <attribute name="price" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
      </entity>
      """
    let f = try lint(
      source: source, destination: destination,
      mapping: """
        <entityMapping name="I" type="transform" source="Item" destination="Item">
          <attribute name="code">FUNCTION($entityPolicy, "numberFromString:", $source.code)</attribute>
          <attribute name="codeToo">$source.code.intValue</attribute>
          <attribute name="flag">$source.price</attribute>
        </entityMapping>
        """)
    #expect(
      positions(f) == [
        "lint-narrowing-conversion 5:1", "lint-narrowing-conversion 5:1", "lint-narrowing-conversion 6:26",
        "lint-narrowing-conversion 7:29", "lint-narrowing-conversion 8:26",
      ])
    let messages = f.map(\.diagnostic.message).joined(separator: "\n")
    #expect(messages.contains("Item.big (Integer 64) goes into Item.big (Integer 16) (implicit same-name mapping)"))
    #expect(messages.contains("values outside -32768…32767 do not fit in Integer 16"))
    #expect(
      messages.contains(
        "Item.price (Double) goes into Item.price (Integer 32) (implicit same-name mapping), which can lose data: the fraction is dropped"
      ))
    #expect(messages.contains("Item.code is a String read as a number (numberFromString:)"))
    #expect(messages.contains("Item.code is a String read as a number (intValue)"))
    #expect(messages.contains("every non-zero value becomes YES"))
  }

  @Test func sourceEntitiesReadThroughKeyPathsFetchesOrParentsAreNotDropped() throws {
    let source = """
      <entity name="Animal" representedClassName="Animal" isAbstract="YES" syncable="YES">
          <attribute name="name" optional="YES" attributeType="String"/>
      </entity>
      <entity name="Cat" representedClassName="Cat" parentEntity="Animal" syncable="YES"/>
      <entity name="Tag" representedClassName="Tag" syncable="YES">
          <attribute name="text" optional="YES" attributeType="String"/>
          <relationship name="address" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Address" inverseName="tags" inverseEntity="Address"/>
      </entity>
      <entity name="Address" representedClassName="Address" syncable="YES">
          <attribute name="street" optional="YES" attributeType="String"/>
          <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="address" inverseEntity="Tag"/>
      </entity>
      <entity name="Note" representedClassName="Note" syncable="YES">
          <attribute name="body" optional="YES" attributeType="String"/>
      </entity>
      <entity name="Lost" representedClassName="Lost" syncable="YES"/>
      """
    let destination = """
      <entity name="Pet" representedClassName="Pet" syncable="YES">
          <attribute name="name" optional="YES" attributeType="String"/>
          <attribute name="street" optional="YES" attributeType="String"/>
          <attribute name="notes" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
      </entity>
      """
    let f = try lint(
      source: source, destination: destination,
      mapping: """
        <entityMapping name="AnimalToPet" type="transform" source="Animal" destination="Pet">
          <attribute name="notes">FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Note", "TRUEPREDICATE"), $manager.sourceContext, YES)</attribute>
        </entityMapping>
        <entityMapping name="TagToPet" type="transform" source="Tag" destination="Pet">
          <attribute name="street">$source.address.street</attribute>
        </entityMapping>
        """)
    #expect(positions(f) == ["lint-source-entity-unread 3:3"])
    #expect(f.first?.diagnostic.message.contains("source entity Lost") == true)
  }

  @Test func unusedEntityMappingsOfEveryKind() throws {
    let person = """
      <entity name="Person" representedClassName="Person" syncable="YES">
          <attribute name="name" optional="YES" attributeType="String"/>
      </entity>
      """
    let f = try lint(
      source: person, destination: person,
      mapping: """
        <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person"/>
        <entityMapping name="Nothing" type="add" destination="Person"/>
        <entityMapping name="Empty" type="add" destination="Person">
          <forEach>{}</forEach>
        </entityMapping>
        <entityMapping name="Drop" type="remove" source="Person"/>
        <entityMapping name="Twice" type="transform" source="Person" destination="Person"/>
        """)
    #expect(
      positions(f) == [
        "lint-unused-entity-mapping 6:1", "lint-unused-entity-mapping 7:1", "lint-unused-entity-mapping 10:1",
        "lint-unused-entity-mapping 11:1",
      ])
    let messages = f.map(\.diagnostic.message)
    #expect(messages[0].contains("add mapping has no source instances"))
    #expect(messages[1].contains("forEach is the empty collection"))
    #expect(messages[2].contains("says to drop Person objects, but mapping PersonToPerson migrates them"))
    #expect(messages[3].contains("repeats mapping PersonToPerson"))
  }

  @Test func policiesNotRegisteredGiveANoteAndRegisteredOnesAHint() throws {
    let person = PolicyWithoutModuleFixture.person
    let f = try lint(
      source: person, destination: person,
      mapping: """
        <entityMapping name="A" type="transform" source="Person" destination="Person" policy="Other.UnknownPolicy">
          <attribute name="title">FUNCTION($entityPolicy, "anything:", $source.title)</attribute>
        </entityMapping>
        <entityMapping name="B" type="transform" source="Person" destination="Person" policy="LegacyToModernPolicy">
          <filter>FALSEPREDICATE</filter>
        </entityMapping>
        """)
    #expect(
      positions(f) == [
        "lint-unknown-policy-selector 6:27", "lint-unused-entity-mapping 8:1", "lint-policy-without-module 8:87",
      ])
    #expect(f[0].severity == .note)
    #expect(f[0].diagnostic.message.contains("policy Other.UnknownPolicy is not registered in this mapc"))
    #expect(f[2].diagnostic.message.contains("this mapc has App.LegacyToModernPolicy registered"))
  }

  @Test func suppressionScopes() throws {
    let f = try lint(
      source: Self.personOptional, destination: Self.personMandatory,
      mapping: """
        <!-- mapc-lint-disable lint-optional-into-mandatory: covers the whole mapping below -->
        <entityMapping name="P" type="transform" source="Person" destination="Person">
          <attribute name="name">$source.name</attribute>
          <attribute name="ownerLabel">$source.owner.label</attribute>
        </entityMapping>
        <entityMapping name="DropPeople" type="remove" source="Person">
          <!-- mapc-lint-disable lint-unused-entity-mapping: last child, so it covers its parent -->
        </entityMapping>
        <!-- mapc-lint-disable lint-optional-into-mandatry: misspelt -->
        <entityMapping name="Q" type="transform" source="Person" destination="Person">
          <filter>name != nil</filter>
          <attribute name="name">$source.name</attribute>
        </entityMapping>
        """)
    #expect(positions(f) == ["lint-unused-suppression 13:1", "lint-optional-into-mandatory 16:26"])
    #expect(
      f[0].diagnostic.message.contains(
        "no known rule lint-optional-into-mandatry; did you mean lint-optional-into-mandatory?"))
  }

  @Test func wholeFileSuppressionBeforeTheRoot() throws {
    _ = registerExamplePolicy
    let folder = try FileManagerTemp.folder("lint").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var e = LintExample(source: Self.personOptional, destination: Self.personMandatory, mapping: "")
    e.mapping = """
      <?xml version="1.0"?>
      <!-- mapc-lint-disable lint-source-entity-unread: Owner is dropped on purpose -->
      <mappingModel formatVersion="1">
        <sourceModel path="Source.xcdatamodel"/>
        <destinationModel path="Destination.xcdatamodel"/>
        <entityMapping name="P" type="transform" source="Person" destination="Person">
          <attribute name="name">FUNCTION($entityPolicy, "defaultValue:for:", "?", $source.name)</attribute>
        </entityMapping>
      </mappingModel>

      """
    let path = try e.write(to: folder)
    let findings = Linter.lint(path: path)
    #expect(findings.filter(\.isActive).isEmpty)
    #expect(findings.map(\.status) == [.suppressed(reason: "Owner is dropped on purpose")])
  }
}

enum PolicyWithoutModuleFixture {
  static let person = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="title" optional="YES" attributeType="String"/>
    </entity>
    """
}
