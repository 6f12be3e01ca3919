import Foundation
import MapCompiler
import MapRuntime
import MapSyntax
import MapTestSupport
import Testing

/// Issue 38: a mapping model is matched, as Core Data matches it, by the version hashes its
/// listed entity mappings record. A hand-made `.xcmappingmodel` (exported from a text mapping
/// of `Person` only, so its snapshots hold `Person` and `Log`) is compiled against model files
/// edited afterwards: a change to `Log`, which no entity mapping names, is no drift; a change to
/// `Person` is, naming the entity mapping and the side.
struct ModelDriftListedTests {
  static let person = """
    <entity name="Person" representedClassName="Person" syncable="YES">
        <attribute name="name" optional="YES" attributeType="String"/>
    </entity>
    """
  static let log = """
    <entity name="Log" representedClassName="Log" syncable="YES">
        <attribute name="text" optional="YES" attributeType="String"/>
    </entity>
    """

  static func model(_ entities: String...) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" systemVersion="1" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    \(entities.joined(separator: "\n"))
    </model>
    """
  }

  static func write(_ text: String, _ path: URL) throws {
    try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: path)
  }

  /// Exports the mapping with both models holding `Person` and `Log`, then rewrites the model
  /// files as given and compiles the `.xcmappingmodel` (which finds them by its recorded paths).
  static func compile(source: String, destination: String) throws -> MappingCompilation.Output {
    let folder = try FileManagerTemp.folder("drift-listed")
    defer { FileManagerTemp.remove(folder.path) }
    let sourceFile = folder.appendingPathComponent("Source.xcdatamodel/contents")
    let destinationFile = folder.appendingPathComponent("Destination.xcdatamodel/contents")
    try write(model(person, log), sourceFile)
    try write(model(person, log), destinationFile)
    let text = folder.appendingPathComponent("PersonOnly.xml")
    try write(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <mappingModel name="PersonOnly" formatVersion="1">
        <sourceModel path="Source.xcdatamodel"/>
        <destinationModel path="Destination.xcdatamodel"/>
        <entityMapping name="PersonToPerson" type="copy" source="Person" destination="Person"/>
      </mappingModel>
      """, text)
    let wrapper = folder.appendingPathComponent("PersonOnly.xcmappingmodel").path
    let exported = XcodeExport.text(mappingPath: text.path, outputPath: wrapper)
    let xml = try #require(exported.text, "\(exported.diagnostics)")
    try XcodeExport.write(xml, toWrapper: wrapper)
    // The snapshots hold Log although no entity mapping names it.
    let read = try #require(XcodeMappingReader.read(try XMLReader.parse(contentsOf: wrapper + "/xcmapping.xml")).0)
    for blob in [read.sourceModelData, read.destinationModelData] {
      let snapshot = try ModelSnapshotReader.read(try #require(blob).bytes)
      #expect(snapshot.entity(named: "Log") != nil)
    }
    try write(source, sourceFile)
    try write(destination, destinationFile)
    return MappingCompilation.compile(mappingPath: wrapper)
  }

  @Test func theUnchangedModelsCompile() throws {
    let output = try Self.compile(
      source: Self.model(Self.person, Self.log), destination: Self.model(Self.person, Self.log))
    #expect(output.plan != nil, "\(output.diagnostics)")
    #expect(!output.diagnostics.contains { $0.id == "xcmap-model-drift" })
  }

  @Test func anEntityNoEntityMappingNamesMayChangeOrGo() throws {
    let changedLog = Self.log.replacingOccurrences(
      of: "</entity>", with: "    <attribute name=\"level\" optional=\"YES\" attributeType=\"Integer 16\"/>\n</entity>")
    let output = try Self.compile(source: Self.model(Self.person, changedLog), destination: Self.model(Self.person))
    #expect(output.plan != nil, "\(output.diagnostics)")
    #expect(!output.diagnostics.contains { $0.id == "xcmap-model-drift" }, "\(output.diagnostics)")
  }

  @Test func aListedEntityMappingWhoseHashDiffersIsNamedWithItsSide() throws {
    let changedPerson = Self.person.replacingOccurrences(
      of: "</entity>", with: "    <attribute name=\"age\" optional=\"YES\" attributeType=\"Integer 16\"/>\n</entity>")
    let output = try Self.compile(source: Self.model(Self.person, Self.log), destination: Self.model(changedPerson))
    #expect(output.plan == nil)
    let drift = output.diagnostics.filter { $0.id == "xcmap-model-drift" }
    #expect(drift.count == 1, "\(output.diagnostics)")
    let message = try #require(drift.first).message
    #expect(message.contains("the destination model changed"), "\(message)")
    #expect(message.contains("entity mapping PersonToPerson, destination Person: attribute age added (Integer 16)"))
    #expect(message.contains("destinationEntityVersionHash"))
    // Log is gone from the destination file, but no entity mapping names it.
    #expect(!message.contains("Log"), "\(message)")
    #expect(try #require(drift.first).severity == .error)
  }

  @Test func aSourceSideDriftNamesTheSourceSide() throws {
    let mandatory = Self.person.replacingOccurrences(of: " optional=\"YES\"", with: "")
    let output = try Self.compile(
      source: Self.model(mandatory, Self.log), destination: Self.model(Self.person, Self.log))
    let drift = try #require(output.diagnostics.first { $0.id == "xcmap-model-drift" }, "\(output.diagnostics)")
    #expect(drift.message.contains("the source model changed"))
    #expect(drift.message.contains("entity mapping PersonToPerson, source Person: attribute name became mandatory"))
  }
}
