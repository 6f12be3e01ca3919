import Foundation
import MapCompiler
import MapRuntime
import MapSyntax
import Testing

/// Text with position markers: each keycap emoji `1️⃣`…`9️⃣` marks the place (line, column in
/// Unicode scalars, as diagnostics count) of the character that follows it, and is removed
/// from the text. So tests say where a diagnostic must point without counting columns by hand.
struct MarkedText {
  var text: String
  var markers: [Int: (line: Int, column: Int)]

  init(_ marked: String) {
    var text = ""
    var markers: [Int: (line: Int, column: Int)] = [:]
    var line = 1
    var column = 1
    for character in marked {
      let scalars = Array(character.unicodeScalars)
      if scalars.count == 3, scalars[2] == "\u{20E3}", let digit = Int(String(scalars[0])) {
        precondition(markers[digit] == nil, "marker \(digit) is used twice")
        markers[digit] = (line, column)
        continue
      }
      text.append(character)
      for scalar in scalars {
        if scalar == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
      }
    }
    self.text = text
    self.markers = markers
  }
}

/// Small models in Xcode's `contents` format that the mapping tests compile against.
///
/// Source: Person (name, age, born as a string, score; pets to-many Pet, address to-one
/// Address), Pet, Address, Note, Tag (label: String). Destination: abstract Being (name),
/// Person below it (age, birthday: Date, derived petCount, transient cache; animals to-many
/// Animal, home to-one Place), Animal, Place, Note (identical to the source's), Tag (label:
/// Integer 32, so its hash differs).
enum TestModels {
  static let header = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="21513" systemVersion="22D68" minimumToolsVersion="Automatic" sourceLanguage="Swift"
    """

  static let source =
    header + """
       userDefinedModelVersionIdentifier="1">
          <entity name="Person" syncable="YES">
              <attribute name="name" optional="YES" attributeType="String"/>
              <attribute name="age" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
              <attribute name="born" optional="YES" attributeType="String"/>
              <attribute name="score" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
              <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
              <relationship name="address" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Address" inverseName="resident" inverseEntity="Address"/>
          </entity>
          <entity name="Pet" syncable="YES">
              <attribute name="name" optional="YES" attributeType="String"/>
              <attribute name="legs" attributeType="Integer 16" defaultValueString="4" usesScalarValueType="YES"/>
              <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
          </entity>
          <entity name="Address" syncable="YES">
              <attribute name="city" optional="YES" attributeType="String"/>
              <relationship name="resident" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="address" inverseEntity="Person"/>
          </entity>
          <entity name="Note" syncable="YES">
              <attribute name="text" optional="YES" attributeType="String"/>
          </entity>
          <entity name="Tag" syncable="YES">
              <attribute name="label" optional="YES" attributeType="String"/>
          </entity>
      </model>

      """

  static let destination =
    header + """
       userDefinedModelVersionIdentifier="2">
          <entity name="Being" isAbstract="YES" syncable="YES">
              <attribute name="name" optional="YES" attributeType="String"/>
          </entity>
          <entity name="Person" parentEntity="Being" syncable="YES">
              <attribute name="age" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
              <attribute name="birthday" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
              <attribute name="petCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="animals.@count" usesScalarValueType="YES"/>
              <attribute name="cache" optional="YES" transient="YES" attributeType="String"/>
              <relationship name="animals" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Animal" inverseName="owner" inverseEntity="Animal"/>
              <relationship name="home" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Place" inverseName="residents" inverseEntity="Place"/>
          </entity>
          <entity name="Animal" syncable="YES">
              <attribute name="name" optional="YES" attributeType="String"/>
              <attribute name="legs" attributeType="Integer 16" defaultValueString="4" usesScalarValueType="YES"/>
              <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="animals" inverseEntity="Person"/>
          </entity>
          <entity name="Place" syncable="YES">
              <attribute name="city" optional="YES" attributeType="String"/>
              <relationship name="residents" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="home" inverseEntity="Person"/>
          </entity>
          <entity name="Note" syncable="YES">
              <attribute name="text" optional="YES" attributeType="String"/>
          </entity>
          <entity name="Tag" syncable="YES">
              <attribute name="label" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
          </entity>
      </model>

      """

  /// A mapping file around `body`: the root element and both model references (lines 1–3).
  static func mapping(_ body: String) -> String {
    """
    <mappingModel name="M" formatVersion="1">
      <sourceModel path="Old.xcdatamodel"/>
      <destinationModel path="New.xcdatamodel"/>
    \(body)
    </mappingModel>

    """
  }

  /// Writes both models and `mapping` (as `mapping.xml`) to a new folder; returns its path.
  static func write(_ mapping: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapc-mapping-\(UUID().uuidString)")
    for (name, text) in [("Old", source), ("New", destination)] {
      let model = folder.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: model.appendingPathComponent("contents"))
    }
    try Data(mapping.utf8).write(to: folder.appendingPathComponent("mapping.xml"))
    return folder.path
  }

  /// Writes both models and `mapping` to a new folder, compiles it and removes the folder.
  static func compile(_ mapping: String) throws -> (output: MappingCompilation.Output, path: String) {
    let folder = try write(mapping)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/mapping.xml"
    return (MappingCompilation.compile(mappingPath: path), path)
  }
}

/// One expected diagnostic: severity, rule id and the marker it must point at.
struct ExpectedDiagnostic: Sendable, CustomStringConvertible {
  var severity: Diagnostic.Severity
  var id: String
  var marker: Int
  var description: String { "\(severity.rawValue) \(id) at \(marker)" }
}

func error(_ id: String, at marker: Int) -> ExpectedDiagnostic {
  ExpectedDiagnostic(severity: .error, id: id, marker: marker)
}
func warning(_ id: String, at marker: Int) -> ExpectedDiagnostic {
  ExpectedDiagnostic(severity: .warning, id: id, marker: marker)
}

/// Compiles a marked mapping and checks that its diagnostics are exactly `expected` (severity,
/// id, file, line and column; the order of the list does not matter). Returns the output.
@discardableResult
func expectDiagnostics(
  _ marked: String, _ expected: [ExpectedDiagnostic], sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> MappingCompilation.Output {
  let text = MarkedText(marked)
  let (output, path) = try TestModels.compile(text.text)
  func key(_ severity: Diagnostic.Severity, _ id: String, _ line: Int, _ column: Int) -> String {
    "\(line):\(column): \(severity.rawValue) [\(id)]"
  }
  var want: [String] = []
  for e in expected {
    guard let at = text.markers[e.marker] else {
      Issue.record("marker \(e.marker) is not in the text", sourceLocation: sourceLocation)
      continue
    }
    want.append(key(e.severity, e.id, at.line, at.column))
  }
  var got: [String] = []
  for d in output.diagnostics {
    #expect(d.location?.file == path || d.location == nil, "\(d)", sourceLocation: sourceLocation)
    got.append(key(d.severity, d.id, d.location?.line ?? 0, d.location?.column ?? 0))
  }
  #expect(
    got.sorted() == want.sorted(),
    "\n\(output.diagnostics.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
  if expected.contains(where: { $0.severity == .error }) {
    #expect(output.plan == nil, "a plan was made despite errors", sourceLocation: sourceLocation)
  } else {
    #expect(output.plan != nil, "no plan was made", sourceLocation: sourceLocation)
  }
  return output
}
