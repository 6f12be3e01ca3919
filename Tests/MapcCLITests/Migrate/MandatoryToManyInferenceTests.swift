import Foundation
import MapTestSupport
import Testing

/// `mapc migrate` through an inferred step that adds a mandatory to-many relationship (minimum
/// count 0), as Core Data's `NSMappingModel.inferredMappingModel` does: every existing object gets
/// an empty one and the store passes validation. A new mandatory to-one is refused, naming it.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct MandatoryToManyInferenceTests {
  static func contents(_ identifier: String, _ folderExtra: String, _ label: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
    userDefinedModelVersionIdentifier="\(identifier)">
        <entity name="Folder" representedClassName="Folder">
            <attribute name="name" optional="YES" attributeType="String"/>
            \(folderExtra)
        </entity>
        \(label)
    </model>
    """
  }

  static let v1 = contents("1", "", "")
  static let label = """
    <entity name="Label" representedClassName="Label">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" \
    inverseName="labels" inverseEntity="Folder"/>
    </entity>
    """
  static let toMany = contents(
    "2",
    """
    <relationship name="labels" toMany="YES" deletionRule="Nullify" destinationEntity="Label" \
    inverseName="folder" inverseEntity="Label"/>
    """, label)
  static let toOne = contents(
    "2",
    """
    <relationship name="labels" maxCount="1" deletionRule="Nullify" destinationEntity="Label" \
    inverseName="folder" inverseEntity="Label"/>
    """, label)

  /// A bundle `Model` (v1) → `Model 2` (`second`) and a JSON store of three folders at v1.
  static func setUp(_ second: String, in dir: URL) throws -> (bundle: String, store: String) {
    let metadata = try ModelBundles.storeMetadata(
      ModelBundles.bundle(v1, named: "Model", in: dir.appendingPathComponent("v1")))
    let bundle = dir.appendingPathComponent("Model.xcdatamodeld")
    for (name, text) in [("Model", v1), ("Model 2", second)] {
      let version = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try text.write(to: version.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    let objects: [String: Any] = [
      "Folder": ["a", "b", "c"].map { ["id": "Folder/\($0)", "name": $0] }
    ]
    let store = dir.appendingPathComponent("store.json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: store)
    return (bundle.path, store.path)
  }

  @Test func aNewMandatoryToManyIsInferredEmpty() throws {
    let dir = try FileManagerTemp.folder("mandatory-to-many")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.setUp(Self.toMany, in: dir)
    let r = runMapc(["migrate", "--model", bundle, "--store", store])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store)))
    let objects = try #require((json as? [String: Any])?["objects"] as? [String: [[String: Any]]])
    let folders = try #require(objects["Folder"])
    #expect(folders.compactMap { $0["name"] as? String }.sorted() == ["a", "b", "c"])
    // Every folder has zero labels (an empty list, or none written).
    #expect(folders.map { ($0["labels"] as? [Any])?.count ?? 0 } == [0, 0, 0])
    #expect((objects["Label"] ?? []).isEmpty)
  }

  /// Validation as Core Data's: the same step with a minimum count of 1 and a mapping that
  /// creates the folders without labels fails (error 1570), and the store is unchanged.
  @Test func anEmptyToManyWithAMinimumFailsValidation() throws {
    let dir = try FileManagerTemp.folder("mandatory-to-many-min")
    defer { FileManagerTemp.remove(dir.path) }
    let atLeastOne = Self.toMany.replacingOccurrences(of: "toMany=\"YES\"", with: "toMany=\"YES\" minCount=\"1\"")
    let (bundle, store) = try Self.setUp(atLeastOne, in: dir)
    let mappings = dir.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <mappingModel name="V1ToV2" formatVersion="1">
      <sourceModel path="\(bundle)" version="Model"/>
      <destinationModel path="\(bundle)" version="Model 2"/>
      <entityMapping source="Folder" destination="Folder"/>
    </mappingModel>
    """.write(to: mappings.appendingPathComponent("V1ToV2.xml"), atomically: false, encoding: .utf8)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let r = runMapc(["migrate", "--model", bundle, "--store", store, "--mappings", mappings.path])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("Folder.labels is a mandatory relationship but is empty"), "\(r.stderr)")
    #expect(r.stderr.contains("[run-validation-mandatory]"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  @Test func aNewMandatoryToOneIsRefused() throws {
    let dir = try FileManagerTemp.folder("mandatory-to-one")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.setUp(Self.toOne, in: dir)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let r = runMapc(["migrate", "--model", bundle, "--store", store])
    #expect(r.exitCode == 1, "\(r.stderr)")
    #expect(r.stderr.contains("Folder.labels is a new mandatory to-one relationship"), "\(r.stderr)")
    #expect(r.stderr.contains("[infer-mandatory-without-default]"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }
}
