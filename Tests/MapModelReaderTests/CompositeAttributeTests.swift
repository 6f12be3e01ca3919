import Foundation
import MapModelReader
import MapRuntime
import Testing

/// Composite attributes in a model's XML (Specs/model-input.md §3.1), their version hash (§6) and
/// `ModelXMLWriter`, which writes them back.
@Suite struct CompositeAttributeTests {
  static let inline = """
      <entity name="Person">
          <attribute name="home" optional="YES" attributeType="Composite">
              <element name="city" optional="YES" attributeType="String"/>
              <element name="postcode" optional="YES" attributeType="String"/>
          </attribute>
          <attribute name="name" optional="YES" attributeType="String"/>
      </entity>
    """

  static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

  func hashes(_ body: String) throws -> [String: String] {
    let model = try loadModel(modelText(body)).get().model
    return Dictionary(
      uniqueKeysWithValues: VersionHasher.entityHashes(of: model).map { ($0.entity, Self.base64($0.hash)) })
  }

  /// The elements in order; the hash is Core Data's, computed with python3's hashlib alone:
  /// `H(b"Person\0" + H(A(city) + A(postcode)) + A(name))`, `A(n) = H(H(n + uint16(1)) + int32(700))`.
  @Test func elementsAreReadAndHashed() throws {
    let model = try loadModel(modelText(Self.inline)).get().model
    let home = try #require(model.entity(named: "Person")?.attribute(named: "home"))
    #expect(home.type == .composite)
    #expect(home.compositeElements.map(\.name) == ["city", "postcode"])
    #expect(home.compositeElements.allSatisfy { $0.type == .string && $0.isOptional })
    #expect(try hashes(Self.inline) == ["Person": "1wMtn/SRIiZAr9ULaqFQTcq6Ouzvs10q1TeJVZCryRg="])
  }

  /// A nested composite hashes as a composite within its parent (python3: `work =
  /// H(H(A(street)) + A'(floor))`, `A'` non-optional Integer 16).
  @Test func nestedCompositesHashAsComposites() throws {
    let body = Self.inline.replacingOccurrences(
      of: "</entity>",
      with: """
            <attribute name="work" attributeType="Composite">
                <element name="floor" attributeType="Integer 16"/>
                <element name="address" optional="YES" attributeType="Composite">
                    <element name="street" optional="YES" attributeType="String"/>
                </element>
            </attribute>
        </entity>
        """)
    #expect(try hashes(body) == ["Person": "TP+vJW4PT/6Uwn4LDk0FDf+JHkMkRJKnxucv4TGqYNI="])
  }

  /// The model-level `<composite name>` form reads as the same model.
  @Test func namedCompositeReadsAlike() throws {
    let body = """
          <entity name="Person">
              <attribute name="home" optional="YES" attributeType="Composite" composite="Address"/>
              <attribute name="name" optional="YES" attributeType="String"/>
          </entity>
          <composite name="Address">
              <attribute name="city" optional="YES" attributeType="String"/>
              <attribute name="postcode" optional="YES" attributeType="String"/>
          </composite>
      """
    #expect(try hashes(body) == hashes(Self.inline))
  }

  @Test(arguments: [
    (#"<attribute name="home" attributeType="Composite"/>"#, "has no elements"),
    (#"<attribute name="home" attributeType="Composite" composite="Nowhere"/>"#, "does not define"),
    (
      #"<attribute name="home" attributeType="Composite"><element name="a" attributeType="String"/><element name="a" attributeType="String"/></attribute>"#,
      "two elements named 'a'"
    ),
  ])
  func badCompositesAreRefused(_ attribute: String, _ message: String) {
    let errors = loadErrors(#"<entity name="E">"# + attribute + "</entity>")
    #expect(errors.contains { $0.id == "model-composite" && $0.message.contains(message) }, "\(errors)")
  }

  /// What `ModelXMLWriter` writes reads back as the same model (entity for entity, location
  /// aside) with the same hashes.
  @Test func writerRoundTrips() throws {
    let body = Self.inline.replacingOccurrences(
      of: #"<entity name="Person">"#,
      with: #"<entity name="Person" representedClassName="App.Person" elementID="Human" versionHashModifier="2">"#
    ).replacingOccurrences(
      of: "</entity>",
      with: """
            <relationship name="friends" optional="YES" toMany="YES" minCount="1" maxCount="5" deletionRule="Cascade" ordered="YES" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
            <fetchIndex name="byName">
                <fetchIndexElement property="name" type="Binary" order="descending"/>
            </fetchIndex>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="name"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
            <userInfo>
                <entry key="k" value="a &quot;quoted&quot; &amp; new&#10;line"/>
            </userInfo>
        </entity>
        """)
    let first = try loadModel(modelText(body)).get().model
    let written = ModelXMLWriter.contents(first)
    let second = try loadModel(written).get().model
    func strip(_ m: ObjectModel) -> [EntityDescription] {
      m.entities.map { e in
        var e = e
        e.location = nil
        e.attributes = e.attributes.map { a in
          var a = a
          a.location = nil
          a.compositeElements = a.compositeElements.map {
            var x = $0
            x.location = nil
            return x
          }
          return a
        }
        e.relationships = e.relationships.map {
          var r = $0
          r.location = nil
          return r
        }
        return e
      }
    }
    #expect(strip(second) == strip(first))
    #expect(second.versionIdentifiers == first.versionIdentifiers)
    #expect(VersionHasher.entityHashes(of: second) == VersionHasher.entityHashes(of: first))
  }
}
