import Foundation
import MapTestSupport
import Testing

/// Names from the input (entities, properties, mappings, files) holding a line break or another
/// control character cannot forge output: no command prints a line a name started, such as a
/// fake diagnostic or a GitHub `::error::` / `::add-mask::` workflow command. Every line of every
/// command's standard output and error is checked; the names show as `\n`, `\r`.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct ForgedOutputTests {
  static let entity = "Note\n::error::forged"
  static let attribute = "title\r\n::add-mask::secret"
  static let added = "body\n::warning::forged"

  static func model(_ version: Int) -> String {
    let extra =
      version == 2 ? #"<attribute name="\#(xml(added))" optional="YES" attributeType="String"/>"# : ""
    return """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(version)">
          <entity name="\(xml(entity))" representedClassName="Note">
              <attribute name="\(xml(attribute))" optional="YES" attributeType="String"/>
              \(extra)
          </entity>
      </model>
      """
  }

  /// Line breaks as character references, so XML keeps them in attribute values.
  static func xml(_ s: String) -> String {
    s.replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\r", with: "&#13;")
  }

  /// No line of `text` is one a name started.
  /// `github`: the format's own lines (`::error file=…`) are allowed.
  static func expectNoForgedLine(
    _ text: String, _ what: String, github: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let own = github && ["::error file=", "::warning file=", "::notice file="].contains { line.hasPrefix($0) }
      #expect(!line.hasPrefix("::") || own, "\(what): forged line \(line)", sourceLocation: sourceLocation)
      #expect(!line.contains("\r"), "\(what): raw carriage return in \(line)", sourceLocation: sourceLocation)
      #expect(
        !line.hasPrefix("forged") && !line.hasPrefix("::add-mask"), "\(what): forged line \(line)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func everyCommandEscapesNames() throws {
    // A folder whose name holds a line break: every path printed holds it too.
    let root = try FileManagerTemp.folder("forged")
    defer { try? FileManager.default.removeItem(at: root) }
    let dir = root.appendingPathComponent("dir\n::error file=x::forged path")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let bundle = dir.appendingPathComponent("F.xcdatamodeld")
    for v in [1, 2] {
      let folder = bundle.appendingPathComponent("F\(v).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(Self.model(v).utf8).write(to: folder.appendingPathComponent("contents"))
    }
    let mapping = """
      <mappingModel name="Forged" formatVersion="1">
        <sourceModel path="F.xcdatamodeld/F1.xcdatamodel"/>
        <destinationModel path="F.xcdatamodeld/F2.xcdatamodel"/>
        <entityMapping name="\(Self.xml("Map\n::error::forged"))" type="transform" source="\(Self.xml(Self.entity))" destination="\(Self.xml(Self.entity))">
          <attribute name="\(Self.xml(Self.added))">"added"</attribute>
        </entityMapping>
      </mappingModel>
      """
    let xml = dir.appendingPathComponent("m.xml")
    try Data(mapping.utf8).write(to: xml)
    let broken = dir.appendingPathComponent("broken.xml")
    try Data(mapping.replacingOccurrences(of: #""added""#, with: "$source.missing").utf8).write(to: broken)
    let v1 = bundle.appendingPathComponent("F1.xcdatamodel")
    let hash = runMapc(["hash", v1.path, "--format", "json"])
    let hashes = try #require(
      try JSONSerialization.jsonObject(with: Data(hash.stdout.utf8)) as? [String: Any], "\(hash.stderr)")
    let metadata: [String: Any] = [
      "format": "mapc-store", "formatVersion": 1, "entityVersionHashes": hashes["entityVersionHashes"] ?? [:],
      "modelVersionIdentifiers": ["1"],
    ]
    let store = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": metadata, "objects": [Self.entity: [["id": "n1", Self.attribute: "hello\n::error::value"]]],
    ]).write(to: store)
    let plan = dir.appendingPathComponent("m.cdm").path
    let sqlite = dir.appendingPathComponent("s.sqlite").path
    let p = { (name: String) in dir.appendingPathComponent(name).path }
    let commands: [[String]] = [
      ["hash", v1.path],
      ["lint", xml.path],
      ["lint", broken.path],
      ["lint", broken.path, "--format", "github"],
      ["lint", bundle.path],
      ["compile", xml.path, "-o", plan],
      ["compile", broken.path, "-o", p("broken.cdm")],
      ["dump", plan],
      ["dump", broken.path],
      ["run", plan, "--store", store.path, "--output", p("out.json")],
      ["run", plan, "--store", p("missing\n::error::x.json"), "--output", p("out2.json")],
      ["store", "import", store.path, "--model", bundle.path, "-o", sqlite],
      ["store", "info", sqlite, "--model", bundle.path],
      ["store", "export", sqlite, "--model", bundle.path, "-o", p("exported.json")],
      ["migrate", "--model", bundle.path, "--store", store.path, "--plan"],
      ["migrate", "--model", bundle.path, "--store", store.path, "--output", p("migrated.json")],
      ["infer", v1.path, bundle.appendingPathComponent("F2.xcdatamodel").path, "-o", p("inferred.xml")],
      ["export", xml.path, "-o", p("E.xcmappingmodel")],
      ["import", p("E.xcmappingmodel"), "-o", p("imported.xml")],
    ]
    var sawEscaped = 0
    for args in commands {
      let r = runMapc(args)
      let what = args.joined(separator: " ").replacingOccurrences(of: "\n", with: "\\n")
      #expect(r.exitCode != 132 && r.exitCode != 134, "\(what): crashed")
      Self.expectNoForgedLine(r.stdout, "\(what) (stdout)", github: args.contains("github"))
      Self.expectNoForgedLine(r.stderr, "\(what) (stderr)")
      if (r.stdout + r.stderr).contains("\\n::") { sawEscaped += 1 }
    }
    // The names were printed, escaped, by most commands.
    #expect(sawEscaped >= 10, "\(sawEscaped) commands printed an escaped name")
  }

  /// Core Data names tables and columns after entities and properties, unquoted: a name that is
  /// no identifier (a space, a quote, SQL) is refused before any SQL is written.
  @Test func sqliteRefusesNamesThatAreNotIdentifiers() throws {
    let dir = try FileManagerTemp.folder("forged-sql")
    defer { try? FileManager.default.removeItem(at: dir) }
    for (k, (entity, attribute)) in [
      ("Note x", "title"), ("Note", "a b"), ("Z (Z_PK); DROP TABLE Z_METADATA; --", "title"), (Self.entity, "title"),
    ].enumerated() {
      let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
            <entity name="\(Self.xml(entity))"><attribute name="\(attribute)" optional="YES" attributeType="String"/></entity>
        </model>
        """
      let bundle = try ModelBundles.bundle(model, named: "S\(k)", in: dir)
      let metadata = try ModelBundles.storeMetadata(bundle)
      let json = dir.appendingPathComponent("s\(k).json")
      try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": [entity: [["id": "n1"]]]])
        .write(to: json)
      let out = dir.appendingPathComponent("s\(k).sqlite").path
      let r = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", out])
      #expect(r.exitCode == 2, "\(entity): \(r.stderr)")
      #expect(r.stderr.contains("is not a name SQLite can hold unquoted"), "\(entity): \(r.stderr)")
      #expect(r.stderr.contains("[sqlite-write]"), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
      Self.expectNoForgedLine(r.stderr, "store import \(k)")
    }
  }
}
