import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// The XML-store envelope of `xcmapping.xml` and the model checks, on copies of a real mapping
/// model (billmoss Model1ToModel2, with its model bundle) changed in one place each: every
/// damage is a clear diagnostic at its line, unknown things are warnings, drift is found.
@Suite(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct XcodeEnvelopeTests {
  static let project = "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration"

  /// A copy of the project folder (mapping model and model bundle) with `edit` applied to
  /// xcmapping.xml and `editModel` to Model2's contents; returns the mapping model's path.
  static func copy(
    in folder: URL, edit: (String) -> String = { $0 }, editModel: (String) -> String = { $0 }
  ) throws -> String {
    let source = SharedPaths.corpus!.appendingPathComponent(project)
    let target = folder.appendingPathComponent("CoreDataMigration")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: source.appendingPathComponent("Model.xcdatamodeld"), to: target.appendingPathComponent("Model.xcdatamodeld"))
    let wrapper = target.appendingPathComponent("Model1ToModel2.xcmappingmodel")
    try FileManager.default.createDirectory(at: wrapper, withIntermediateDirectories: true)
    let xml = try String(
      contentsOf: source.appendingPathComponent("Model1ToModel2.xcmappingmodel/xcmapping.xml"), encoding: .utf8)
    try Data(edit(xml).utf8).write(to: wrapper.appendingPathComponent("xcmapping.xml"))
    let contents = target.appendingPathComponent("Model.xcdatamodeld/Model2.xcdatamodel/contents")
    let model = try String(contentsOf: contents, encoding: .utf8)
    try FileManager.default.removeItem(at: contents)
    try Data(editModel(model).utf8).write(to: contents)
    return wrapper.path
  }

  static func compile(edit: (String) -> String = { $0 }, editModel: (String) -> String = { $0 }) throws
    -> MappingCompilation.Output
  {
    let folder = try FileManagerTemp.folder("envelope")
    defer { FileManagerTemp.remove(folder.path) }
    return MappingCompilation.compile(mappingPath: try copy(in: folder, edit: edit, editModel: editModel))
  }

  /// `line:id` of every diagnostic.
  static func lines(_ output: MappingCompilation.Output) -> [String] {
    output.diagnostics.map { "\($0.location?.line ?? 0):\($0.id)" }
  }

  @Test func theUnchangedCopyCompilesCleanly() throws {
    let output = try Self.compile()
    #expect(output.plan != nil)
    #expect(output.diagnostics.isEmpty)
  }

  @Test func anEditedModelIsReportedAsDriftNamingWhatChanged() throws {
    let output = try Self.compile(editModel: {
      $0.replacingOccurrences(
        of: #"<attribute name="content" optional="YES" attributeType="String" syncable="YES"/>"#,
        with:
          #"<attribute name="content" attributeType="String" syncable="YES"/><attribute name="priority" optional="YES" attributeType="Integer 16" defaultValueString="0" syncable="YES"/>"#
      )
    })
    #expect(output.plan == nil)
    let drift = try #require(output.diagnostics.first { $0.id == "xcmap-model-drift" })
    #expect(drift.severity == .error)
    #expect(drift.message.contains("the destination model changed"))
    #expect(drift.message.contains("Topic: attribute content became mandatory, attribute priority added (Integer 16)"))
    #expect(drift.message.contains("Mismatch between mapping and destination models"))
    // At the destination snapshot's <attribute> (line 73 of this file).
    #expect(drift.location?.line == 73)
  }

  @Test func aDanglingOrMistypedReferenceIsAnError() throws {
    let dangling = try Self.compile(edit: {
      $0.replacingOccurrences(of: #"idrefs="z103 z102""#, with: #"idrefs="z103 z999""#)
    })
    #expect(dangling.plan == nil)
    #expect(Self.lines(dangling).contains("76:xcmap-dangling-reference"))
    let mistyped = try Self.compile(edit: {
      $0.replacingOccurrences(
        of: #"<relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z104">"#,
        with: #"<relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z105">"#)
    })
    #expect(Self.lines(mistyped).contains { $0.hasSuffix(":xcmap-dangling-reference") })
  }

  @Test func aDuplicateIdIsAnErrorWithANoteAtTheFirst() throws {
    let output = try Self.compile(edit: {
      $0.replacingOccurrences(
        of: #"<object type="XDDEVATTRIBUTEMAPPING" id="z106">"#,
        with: #"<object type="XDDEVATTRIBUTEMAPPING" id="z105">"#)
    })
    let d = try #require(output.diagnostics.first { $0.id == "xcmap-duplicate-id" })
    #expect(d.notes.count == 1)
    #expect(output.plan == nil)
  }

  @Test func unknownObjectsAndFieldsAreWarningsAndTheRestCompiles() throws {
    let output = try Self.compile(edit: {
      $0.replacingOccurrences(
        of: "</database>", with: "    <object type=\"XDDEVNEWTHING\" id=\"z900\"></object>\n</database>"
      )
      .replacingOccurrences(
        of: #"<attribute name="sourcename" type="string">TopicList</attribute>"#,
        with:
          #"<attribute name="sourcename" type="string">TopicList</attribute><attribute name="colour" type="string">red</attribute>"#
      )
    })
    #expect(output.plan != nil)
    #expect(output.diagnostics.map(\.id).sorted() == ["xcmap-unknown-field", "xcmap-unknown-object"])
    #expect(output.diagnostics.allSatisfy { $0.severity == .warning })
  }

  @Test func damagedBase64AndTruncatedArchivesAreErrorsAtTheirLine() throws {
    // Cut inside the archive: an odd number of base64 characters is not base64 at all.
    let odd = try Self.compile(edit: {
      $0.replacingOccurrences(of: "YnBsaXN0MDDUAQIDBAUGXl9YJHZl", with: "YnBsaXN0MDDUAQIDBAUGXl9YJHZ")
    })
    #expect(Self.lines(odd).contains("95:xcmap-base64"))
    // A whole archive cut after its first 24 bytes: valid base64, not a complete property list.
    let truncated = try Self.compile(edit: { xml in
      guard let r = xml.range(of: #"<attribute name="valueexpressiondata" type="binary">"#),
        let end = xml.range(of: "</attribute>", range: r.upperBound..<xml.endIndex)
      else { return xml }
      return xml.replacingCharacters(in: r.upperBound..<end.lowerBound, with: "YnBsaXN0MDDUAQIDBAUGXl9YJHZlcnNpb25Y")
    })
    let d = try #require(truncated.diagnostics.first { $0.id == "xcmap-archive" })
    #expect(d.location?.line == 95)
    #expect(d.message.contains("timeBudget"))
    #expect(truncated.plan == nil)
  }

  @Test func byteSwappedEscapesInAFilterAreDecoded() throws {
    let output = try Self.compile(edit: {
      $0.replacingOccurrences(
        of: #"<attribute name="sourcename" type="string">Topic</attribute>"#,
        with:
          #"<attribute name="sourcename" type="string">Topic</attribute><attribute name="sourcefilterpredicatestring" type="string">presenterName \u3c00 'm'</attribute>"#
      )
    })
    let plan = try #require(output.plan, "\(output.diagnostics)")
    #expect(plan.predicates.map(\.text).contains("presenterName < 'm'"))
    #expect(XcodeStoreDocument.unescape(#"a \u3c00 b \x \u12"#) == #"a < b \x \u12"#)
    #expect(XcodeStoreDocument.unescape(XcodeStoreDocument.escape(#"x < 1 AND y == "\\""#)) == #"x < 1 AND y == "\\""#)
  }

  @Test func aFileWithoutAMappingModelObjectSaysSo() throws {
    let output = try Self.compile(edit: { $0.replacingOccurrences(of: "XDDEVMAPPINGMODEL", with: "XDDEVOTHERMODEL") })
    #expect(output.diagnostics.contains { $0.id == "xcmap-no-mapping-model" })
    #expect(output.plan == nil)
  }

  @Test func aBrokenModelFileFallsBackToNothingButAnError() throws {
    let output = try Self.compile(editModel: { _ in "<model><entity" })
    #expect(output.plan == nil)
    #expect(output.diagnostics.contains { $0.id.hasPrefix("xml-") })
  }
}
