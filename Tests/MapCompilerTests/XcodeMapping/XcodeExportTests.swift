import Foundation
import MapArchives
import MapCompiler
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// `mapc export`: every corpus mapping model, imported into mapc's text format and exported
/// back, compiles to the same plan again and holds the same object types, fields and archive
/// classes (with the same keys per class) as the file Xcode wrote.
@Suite(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct XcodeExportTests {
  /// The shape of an `xcmapping.xml`: `type.attribute:valueType` / `type.relationship` for every
  /// field of every object, and, per object type, binary field name and archive class, the keys
  /// of its objects.
  struct Shape: Equatable {
    var fields: Set<String> = []
    var archiveClasses: [String: Set<String>] = [:]
  }

  static func shape(of path: String) throws -> Shape {
    let xml = try XMLReader.parse(contentsOf: path)
    let document = try #require(XcodeStoreDocument.read(xml).0)
    var shape = Shape()
    for object in document.objects {
      for a in object.attributes {
        shape.fields.insert("\(object.type).\(a.name):\(a.type)")
        guard a.type == "binary" else { continue }
        let bytes = try #require(Data(base64Encoded: a.value.filter { !$0.isWhitespace }))
        let archive = try KeyedArchive(bytes: [UInt8](bytes))
        for index in archive.objects.indices {
          guard let o = try? archive.object(index) else { continue }
          shape.archiveClasses["\(object.type) \(a.name) \(o.className)", default: []].formUnion(o.fields.map(\.key))
        }
      }
      for r in object.relationships { shape.fields.insert("\(object.type).\(r.name)") }
    }
    return shape
  }

  /// Imports and exports `relative` into `folder`, keeping the mapping model's name.
  static func roundTrip(_ relative: String, in folder: URL) -> (exported: String?, diagnostics: [Diagnostic]) {
    let original = XcodeCorpusTests.path(relative)
    let text = folder.appendingPathComponent("Imported.xml").path
    guard let imported = XcodeImport.text(xcmappingPath: original, outputPath: text).text else { return (nil, []) }
    try? Data(imported.utf8).write(to: URL(fileURLWithPath: text))
    let wrapper = folder.appendingPathComponent((relative as NSString).lastPathComponent).path
    let exported = XcodeExport.text(mappingPath: text, outputPath: wrapper)
    guard let xml = exported.text else { return (nil, exported.diagnostics) }
    try? XcodeExport.write(xml, toWrapper: wrapper)
    return (wrapper, exported.diagnostics)
  }

  @Test(arguments: XcodeCorpusTests.expectedFindings.keys.sorted())
  func exportOfTheImportCompilesToTheSamePlanAndHasXcodesShape(_ relative: String) throws {
    let folder = try FileManagerTemp.folder("export")
    defer { FileManagerTemp.remove(folder.path) }
    let original = XcodeCorpusTests.path(relative)
    let direct = MappingCompilation.compile(mappingPath: original)
    let (exported, diagnostics) = Self.roundTrip(relative, in: folder)
    guard let plan = direct.plan else {
      // A mapping with errors is not exported: the same error, nothing written.
      #expect(exported == nil)
      #expect(diagnostics.contains { $0.id == "map-mapping-destination-mismatch" })
      return
    }
    let wrapper = try #require(exported, "\(diagnostics)")
    let again = MappingCompilation.compile(mappingPath: wrapper)
    let replan = try #require(again.plan, "\(again.diagnostics)")
    #expect(PlanWriter.encode(plan, sourcePositions: false) == PlanWriter.encode(replan, sourcePositions: false))
    var expected = try Self.shape(of: original + "/xcmapping.xml")
    let actual = try Self.shape(of: wrapper + "/xcmapping.xml")
    // Xcode leaves an empty migrationpolicyclassname in one file (Moody 2-Moody 3); an empty
    // policy means none, and mapc writes none.
    if relative.hasSuffix("Moody 2-Moody 3.xcmappingmodel") {
      expected.fields.remove("XDDEVENTITYMAPPING.migrationpolicyclassname:string")
    }
    // Xcode holds the Boolean default texts of older snapshots as NSMutableString, mapc writes
    // strings (ModelSnapshotTests.writtenSnapshotsHaveXcodesStructure).
    for side in ["sourcemodeldata", "destinationmodeldata"] {
      expected.archiveClasses["XDDEVMAPPINGMODEL \(side) NSMutableString"] = nil
    }
    // apptentive's v4 to v5 holds its two relationship expressions, FUNCTION($manager,
    // "destinationInstancesForEntityMappingNamed:sourceInstances:" , NAME, $source.KEY) (decoded
    // with plistlib), as valueexpressiondata; mapc exports that form as sourcekeypath and
    // sourcemappingname, as Xcode does in objc.io's files (Specs/xcmappingmodel.md §8), and the
    // plans compared above are the same. Its entity mappings ATTextMessageToATMessage,
    // ATFileMessageToATMessage and ATAutomatedMessageToATMessage carry a name equal to Xcode's
    // default (source + "To" + destination), which mapc leaves out (§8; same plan names).
    if relative.hasSuffix("ATDataModel v4 to v5.xcmappingmodel") {
      expected.fields.remove("XDDEVENTITYMAPPING.name:string")
      expected.fields.remove("XDDEVRELATIONSHIPMAPPING.valueexpressiondata:binary")
      expected.fields.formUnion([
        "XDDEVRELATIONSHIPMAPPING.sourcekeypath:string", "XDDEVRELATIONSHIPMAPPING.sourcemappingname:string",
      ])
      expected.archiveClasses = expected.archiveClasses.filter { !$0.key.hasPrefix("XDDEVRELATIONSHIPMAPPING ") }
    }
    #expect(actual.fields == expected.fields)
    #expect(actual.archiveClasses == expected.archiveClasses)
  }

  @Test func exportIsDeterministic() throws {
    let folder = try FileManagerTemp.folder("export-twice")
    defer { FileManagerTemp.remove(folder.path) }
    let relative = "objcio/core-data/Migrations/Migrations/Moody 2-Moody 3.xcmappingmodel"
    let text = folder.appendingPathComponent("m.xml").path
    try Data(try #require(XcodeImport.text(xcmappingPath: XcodeCorpusTests.path(relative), outputPath: text).text).utf8)
      .write(to: URL(fileURLWithPath: text))
    let a = XcodeExport.text(mappingPath: text, outputPath: folder.appendingPathComponent("A.xcmappingmodel").path).text
    let b = XcodeExport.text(mappingPath: text, outputPath: folder.appendingPathComponent("B.xcmappingmodel").path).text
    #expect(a != nil && a == b)
    // Key-path relationships go back into Xcode's two fields.
    #expect(
      a?.contains(#"<attribute name="sourcekeypath" type="string">$source.country.continent</attribute>"#) == true)
    #expect(a?.contains(#"<attribute name="sourcemappingname" type="string">ContinentToContinent</attribute>"#) == true)
  }
}

/// What Xcode's format cannot hold is refused, naming the element.
@Suite struct XcodeExportRefusalTests {
  @Test func forEachAndCustomSourceExpressionsCannotBeExported() throws {
    let folder = try FileManagerTemp.folder("export-refused")
    defer { FileManagerTemp.remove(folder.path) }
    let mapping = SharedPaths.packageRoot.appendingPathComponent("Mappings/bookshelf/BookshelfV1ToV2.xml").path
    let output = XcodeExport.text(
      mappingPath: mapping, outputPath: folder.appendingPathComponent("B.xcmappingmodel").path)
    #expect(output.text == nil)
    let refused = output.diagnostics.filter { $0.id == "xcmap-export-unsupported" }.map { $0.location?.line ?? 0 }
    // <forEach> of BookToTag (line 24) and the FETCH with a predicate of LoanToLoan (line 31) is
    // exported as a filter, so only the fan-out is refused.
    #expect(refused == [24])
  }

  /// `$a.$b` has no known archived form (Specs/expressions.md §9): refused at its attribute.
  @Test func variablesAsKeysCannotBeExported() throws {
    let folder = try FileManagerTemp.folder("export-variable-key")
    defer { FileManagerTemp.remove(folder.path) }
    let shop = SharedPaths.packageRoot.appendingPathComponent("Mappings/shop")
    try FileManager.default.copyItem(
      at: shop.appendingPathComponent("Shop.xcdatamodeld"), to: folder.appendingPathComponent("Shop.xcdatamodeld"))
    let text = try String(contentsOf: shop.appendingPathComponent("ShopV1ToV2.xml"), encoding: .utf8)
      .replacingOccurrences(of: "lowercase:($source.email)", with: "lowercase:($source.$propertyMapping)")
    let mapping = folder.appendingPathComponent("ShopV1ToV2.xml")
    try text.write(to: mapping, atomically: false, encoding: .utf8)
    let output = XcodeExport.text(
      mappingPath: mapping.path, outputPath: folder.appendingPathComponent("S.xcmappingmodel").path)
    #expect(output.text == nil)
    let refused = output.diagnostics.filter { $0.id == "xcmap-export-unsupported" && $0.message.contains("variable") }
    #expect(refused.count == 1)
    #expect(
      refused.first?.location?.line
        == text.components(separatedBy: "\n").firstIndex { $0.contains("$propertyMapping") }.map { $0 + 1 })
  }
}
