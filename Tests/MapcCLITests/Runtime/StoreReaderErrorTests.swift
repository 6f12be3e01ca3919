import Foundation
import MapJSON
import MapRuntime
import MapTestSupport
import Testing

/// Hostile stores against a small source model: each must be refused with the error id, the
/// line and column of the offending value, and a message naming the object id and property.
@Suite struct StoreReaderErrorTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Person" syncable="YES">
            <attribute name="age" optional="YES" attributeType="Integer 16"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="pets" optional="YES" toMany="YES" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
        </entity>
        <entity name="Pet" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
        </entity>
    </model>
    """

  /// Reads `text` (objects of the store, one per line) and returns the errors.
  static func errors(_ objects: String) throws -> [MigrationError] {
    let text = "{\"objects\": {\n\(objects)\n}}\n"
    let layout = try storeLayout(ofModel: model)
    do throws(MigrationFailure) {
      _ = try StoreReader.read(InputBytes(Array(text.utf8), path: "s.json"), layout: layout)
      return []
    } catch {
      return error.errors
    }
  }

  /// A store's objects (line 2 of the file), the error expected, and the text the error must
  /// point at: the last occurrence of `at` on that line (its first byte is the column).
  struct Case: Sendable, CustomTestStringConvertible {
    let objects: String
    let code: String
    let at: String
    let message: String
    var line: Int { 2 }
    var column: Int {
      let r = objects.range(of: at, options: .backwards)!
      return objects.utf8.distance(from: objects.startIndex, to: r.lowerBound) + 1
    }
    var testDescription: String { "\(code) at \(at)" }
  }

  static let cases: [Case] = [
    Case(
      objects: #""Person": [{"id": "p1", "age": 40000}]"#, code: "store-integer-out-of-range", at: "40000",
      message: "p1.age"),
    Case(
      objects: #""Person": [{"id": "p1", "age": "forty"}]"#, code: "store-wrong-type", at: "\"forty\"",
      message: "p1.age: Integer 16 attribute needs an integer, not a string"),
    Case(
      objects: #""Person": [{"id": "p1", "nmae": "Ann"}]"#, code: "store-unknown-property", at: "\"nmae\"",
      message: "p1.nmae: entity Person has no property nmae"),
    Case(
      objects: #""Persons": [{"id": "p1"}]"#, code: "store-unknown-entity", at: "\"Persons\"",
      message: "Persons"),
    Case(
      objects: #""Person": [{"id": "p1", "pets": ["x9"]}]"#, code: "store-dangling-id", at: "\"x9\"",
      message: "p1.pets refers to x9, which is not in the store"),
    Case(
      objects: #""Person": [{"id": "p1"}, {"id": "p1"}]"#, code: "store-duplicate-id", at: "\"p1\"",
      message: "duplicate id p1"),
    Case(
      objects: #""Person": [{"id": "p1"}, {"id": "p\u0031"}]"#, code: "store-duplicate-id", at: "\"p\\u0031\"",
      message: "duplicate id p1"),
    Case(
      objects: #""Person": [{"id": "p1", "name": "A", "name": "B"}]"#, code: "store-duplicate-key", at: "\"name\"",
      message: "p1.name: \"name\" appears twice in one object"),
    Case(
      objects: #""Person": [{"id": "p1", "id": "p2"}]"#, code: "store-duplicate-key", at: "\"id\"",
      message: "\"id\" appears twice in one object"),
    Case(
      objects: #""Pet": [{"id": "x1", "owner": "x1"}]"#, code: "store-wrong-entity", at: "\"x1\"",
      message: "x1.owner refers to x1, a Pet, but holds Person objects"),
    Case(
      objects: #""Person": [{"id": "p1", "pets": ["x1"]}, {"id": "p2"}], "Pet": [{"id": "x1", "owner": "p2"}]"#,
      code: "store-inverse-mismatch", at: "\"p2\"",
      message: "p1.pets includes x1, but x1.owner is p2; the two sides of the relationship disagree"),
    Case(
      objects: #""Person": [{"name": "Ann"}]"#, code: "store-missing-id", at: "{",
      message: "an Person object has no \"id\""),
  ]

  @Test(arguments: cases)
  func refusedWithPosition(_ c: Case) throws {
    let errors = try Self.errors(c.objects)
    let e = try #require(errors.first { $0.code == c.code }, "\(errors)")
    #expect(e.location?.file == "s.json")
    #expect(e.location?.line == c.line)
    #expect(e.location?.column == c.column)
    #expect(e.message.contains(c.message), "\(e.message)")
  }

  @Test func validStoreReadsCleanly() throws {
    #expect(
      try Self.errors(#""Person": [{"id": "p1", "age": 41, "pets": ["x1"]}], "Pet": [{"id": "x1", "name": "Rex"}]"#)
        .isEmpty)
  }

  /// An id is its decoded string: escapes in the id or in a reference to it do not matter.
  @Test func idsAndReferencesCompareDecoded() throws {
    #expect(
      try Self.errors(#""Person": [{"id": "p\u0031", "pets": ["x1"]}], "Pet": [{"id": "\u00781", "owner": "p1"}]"#)
        .isEmpty)
  }
}
