import Foundation
import MapTestSupport
import MapTools

/// A temporary folder holding small models and mappings for `mapc lint` runs.
struct LintSandbox {
  let folder: String

  init() throws {
    folder = try FileManagerTemp.folder("lint-cli").path
  }

  func remove() { try? FileManager.default.removeItem(atPath: folder) }

  /// Writes `Source.xcdatamodel` and `Destination.xcdatamodel` into `sub` (relative).
  func models(source: String, destination: String, in sub: String = "") throws {
    let dir = sub.isEmpty ? folder : folder + "/" + sub
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    var e = LintExample(source: source, destination: destination, mapping: "")
    e.mapping = ""
    _ = try e.write(to: dir)
    try? FileManager.default.removeItem(atPath: dir + "/" + LintExample.mappingFileName)
  }

  /// Writes a mapping (its entity mappings given as `body`) named `name`, next to the models.
  @discardableResult
  func mapping(_ name: String, _ body: String, header: String? = nil) throws -> String {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      \(header ?? "")<mappingModel name="T" formatVersion="1">
        <sourceModel path="Source.xcdatamodel"/>
        <destinationModel path="Destination.xcdatamodel"/>
      \(body)
      </mappingModel>

      """
    return try write(name, text)
  }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let path = folder + "/" + name
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func read(_ name: String) throws -> String { try String(contentsOfFile: folder + "/" + name, encoding: .utf8) }

  func lint(_ arguments: [String]) -> MapcResult { runMapc(["lint"] + arguments, in: URL(fileURLWithPath: folder)) }
}

let optionalName = """
  <entity name="Person" representedClassName="Person" syncable="YES">
      <attribute name="name" optional="YES" attributeType="String"/>
  </entity>
  """
let mandatoryName = """
  <entity name="Person" representedClassName="Person" syncable="YES">
      <attribute name="name" attributeType="String"/>
  </entity>
  """
let mandatoryNameAndDate = """
  <entity name="Person" representedClassName="Person" syncable="YES">
      <attribute name="createdAt" attributeType="Date" usesScalarValueType="NO"/>
      <attribute name="name" attributeType="String"/>
  </entity>
  """

/// A mapping whose line 6, column 28 is `$source.name` into mandatory Person.name (a warning).
let warningBody = """
    <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
      <attribute name="name">$source.name</attribute>
    </entityMapping>
  """
