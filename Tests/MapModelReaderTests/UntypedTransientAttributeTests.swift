import Foundation
@testable import MapModelReader
import MapRuntime
import MapSyntax
import MapTestSupport
import MapTools
import Testing

/// Xcode saves a transient attribute of type Undefined without `attributeType`
/// (`<attribute name="x" optional="YES" transient="YES"/>`); Core Data reads it as
/// NSUndefinedAttributeType (raw value 0). mapc accepts it, keeps it out of the store and hashes
/// it as Core Data does; a non-transient attribute without a type stays an error.
@Suite struct UntypedTransientAttributeTests {
  static let body = """
    <entity name="Note">
      <attribute name="title" optional="YES" attributeType="String"/>
      <attribute name="x" optional="YES" transient="YES"/>
    </entity>
    """

  @Test func readAsUndefinedTransient() throws {
    let loaded = try loadModel(modelText(Self.body)).get()
    #expect(loaded.warnings.isEmpty)
    let note = try #require(loaded.model.entity(named: "Note"))
    let x = try #require(note.attributes.first { $0.name == "x" })
    #expect(x.type == .undefined)
    #expect(x.type.coreDataCode == 0)  // NSUndefinedAttributeType (NSAttributeDescription.h)
    #expect(x.isTransient && x.isOptional)
    // Not in the store: a JSON or SQLite store of the model holds only `title`.
    let layout = StoreLayout(model: loaded.model)
    #expect(layout.entity("Note")?.properties.map(\.name) == ["title"])
  }

  /// Expected values computed outside mapc, with python3 over Specs/model-input.md §6:
  /// ```
  /// H = lambda b: hashlib.sha256(b).digest()
  /// P = lambda name, flags: H(name.encode() + struct.pack('<H', flags))
  /// attr = lambda name, flags, code: H(P(name, flags) + struct.pack('<i', code))
  /// attr('x', 3, 0).hex()   # optional | transient, NSUndefinedAttributeType
  /// base64(H(b'Note' + b'\x00' + attr('title', 1, 700)))   # transient x is not in it
  /// ```
  @Test func hashedAsCoreDataHashesIt() throws {
    let model = try loadModel(modelText(Self.body)).get().model
    let x = try #require(model.entity(named: "Note")?.attributes.first { $0.name == "x" })
    let hex = VersionHasher.attributeHash(x).map { String(format: "%02x", $0) }.joined()
    #expect(hex == "a0f865a1278c0cd5956a938ba793784ab07f9f1c070af44a77bd4016c7db409a")
    let entity = try #require(VersionHasher.entityHashes(of: model).first)
    #expect(Data(entity.hash).base64EncodedString() == "TQEkXehyNUtyA95wkMOdpRGt+T/ZbMgi8HAu/3e6Fn4=")
  }

  @Test func nonTransientWithoutTypeIsRefused() throws {
    let errors = loadErrors(
      """
      <entity name="A">
        <attribute name="x" optional="YES"/>
        <attribute name="y" attributeType="Undefined"/>
        <attribute name="z" transient="YES" attributeType="Undefined"/>
      </entity>
      """)
    #expect(errors.map(\.id) == ["model-untyped-attribute", "model-untyped-attribute"])
    #expect(errors.map { $0.location?.line } == [4, 5])
    #expect(errors.first?.message.contains("'x' has no attributeType") == true)
    #expect(errors.last?.message.contains("'y' is of type Undefined") == true)
  }

  /// One cause, one message: the same finding in many versions of a bundle (and in several
  /// entities of one version) is reported once, with how often and where.
  @Test func repeatedFindingsOfABundleAreReportedOnce() throws {
    let dir = try FileManagerTemp.folder("untyped-bundle")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bundle = dir.appendingPathComponent("Model.xcdatamodeld")
    let names = ["Model"] + (2...12).map { "Model \($0)" }
    for name in names {
      let version = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      // `bad` untyped in two entities of every version; `other` only in the last one.
      var body = """
        <entity name="A"><attribute name="bad" optional="YES"/></entity>
        <entity name="B"><attribute name="bad" optional="YES"/></entity>
        """
      if name == "Model 12" { body += "\n<entity name=\"C\"><attribute name=\"other\"/></entity>" }
      try modelText(body).write(to: version.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    var thrown: [Diagnostic] = []
    do {
      _ = try ModelVersions.load(bundle: bundle.path)
    } catch {
      thrown = error.diagnostics
    }
    #expect(thrown.count == 2, "\(thrown)")
    #expect(thrown.map(\.id) == ["model-untyped-attribute", "model-untyped-attribute"])
    // 2 entities × 12 versions; first place: version `Model`, line 3.
    #expect(
      thrown.first?.message.hasSuffix("(24 times in 12 versions: 'Model', 'Model 2', 'Model 3', …, 'Model 12')")
        == true, "\(thrown)")
    #expect(thrown.first?.location?.file.hasSuffix("/Model.xcdatamodel/contents") == true)
    #expect(thrown.first?.location?.line == 3)
    #expect(thrown.last?.message.contains("'other'") == true)
    #expect(thrown.last?.message.hasSuffix(")") == false)
  }
}
