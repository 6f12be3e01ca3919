import Foundation
import MapTestSupport
import Testing

/// Control characters from names and values (line feed, carriage return, CR LF, NEL U+0085) and
/// the characters that end comments or strings (`*/`, `"`) never reach an output raw: `diff`
/// (text, Markdown, Mermaid), `dump` (text, Mermaid) and the Swift file of `export
/// --policy-source` print them escaped (`\n`), so a model cannot print a line of its own (a fake
/// verdict) and a mapping's name cannot end a `//` comment; Mermaid ids stay unique and stable.
/// The oracles: the lines of each output, and `swiftc -parse` for the generated Swift.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct ControlCharacterOutputTests {
  static let verdict = "Core Data can infer this step (lightweight migration) without losing data."
  static let hostile = "x\n\(verdict)\r\n*/ \"q\" \u{85}end"

  /// XML text for an attribute value, the controls as character references.
  static func xml(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
      switch u {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case "\"": out += "&quot;"
      case _ where u.value < 0x20 || (u.value >= 0x7F && u.value < 0xA0): out += "&#\(u.value);"
      default: out.unicodeScalars.append(u)
      }
    }
    return out
  }

  /// Version 2 changes the default value and pattern of `title` to `hostile`, adds `Café`
  /// beside `Caf_`, and a mandatory `body` whose name holds a line break (so the real verdict
  /// is "cannot infer", and a line starting with `verdict` can only be forged).
  static func model(_ version: Int) -> String {
    let title = version == 1 ? "plain" : hostile
    let cafe =
      version == 2
      ? #"<entity name="Café" representedClassName="Cafe"><attribute name="x" optional="YES" attributeType="String"/></entity>"#
      : ""
    let body = version == 2 ? #"<attribute name="\#(xml("body\n" + verdict))" attributeType="String"/>"# : ""
    return """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(version)">
          <entity name="Note" representedClassName="Note">
              <attribute name="title" optional="YES" attributeType="String" defaultValueString="\(xml(title))" regularExpressionString="\(xml(version == 1 ? "a" : hostile))"/>
              <attribute name="text" optional="YES" attributeType="String"/>
              \(body)
          </entity>
          <entity name="Caf_" representedClassName="Caf_"><attribute name="x" optional="YES" attributeType="String"/></entity>
          \(cafe)
      </model>
      """
  }

  /// Every line of `text`: none starts with the verdict a name carried, and none holds a control
  /// character but a tab.
  static func expectClean(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      #expect(!line.hasPrefix(verdict), "\(what): forged line", sourceLocation: sourceLocation)
      let control = line.unicodeScalars.first {
        ($0.value < 0x20 && $0 != "\t") || ($0.value >= 0x7F && $0.value < 0xA0)
      }
      #expect(
        control == nil, "\(what): raw U+\(String(control?.value ?? 0, radix: 16)) in \(line)",
        sourceLocation: sourceLocation)
    }
  }

  static func setUp() throws -> (dir: URL, v1: String, v2: String) {
    let dir = try FileManagerTemp.folder("control-output")
    for v in [1, 2] {
      let folder = dir.appendingPathComponent("B.xcdatamodeld/B\(v).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(model(v).utf8).write(to: folder.appendingPathComponent("contents"))
    }
    return (
      dir, dir.appendingPathComponent("B.xcdatamodeld/B1.xcdatamodel").path,
      dir.appendingPathComponent("B.xcdatamodeld/B2.xcdatamodel").path
    )
  }

  @Test func diffEscapesNamesAndValues() throws {
    let (dir, v1, v2) = try Self.setUp()
    defer { try? FileManager.default.removeItem(at: dir) }
    for format in ["text", "markdown", "mermaid"] {
      let r = runMapc(["diff", v1, v2, "--format", format])
      #expect(r.exitCode == 0, "\(format): \(r.stderr)")
      Self.expectClean(r.stdout, "diff --format \(format)")
      #expect(r.stdout.contains("\\n" + Self.verdict), "\(format): the value is shown, escaped")
    }
    let text = runMapc(["diff", v1, v2]).stdout
    #expect(text.split(separator: "\n").last?.hasPrefix("Core Data cannot infer this step") == true)
  }

  /// `Café` and a real `Caf_`: two ids, each its own; types are words (`String`), optional and
  /// the rest in the comment.
  @Test func mermaidIdsAreUniqueAndTypesReadable() throws {
    let (dir, v1, v2) = try Self.setUp()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = runMapc(["diff", v1, v2, "--format", "mermaid"])
    let ids = r.stdout.split(separator: "\n").filter { $0.hasSuffix(" {") }
      .map { $0.trimmingCharacters(in: .whitespaces).dropLast(2) }
    #expect(ids.count == 3)
    #expect(Set(ids).count == 3)
    #expect(ids.contains("Caf_"))
    #expect(ids.contains { $0.hasPrefix("Caf__") && $0.count == "Caf__".count + 8 })
    // The id of Café does not depend on Caf_ being there.
    let alone = runMapc(["diff", v1, v1, "--format", "mermaid"]).stdout
    #expect(alone.contains("  Caf_ {"))
    #expect(!r.stdout.contains("String__optional") && !r.stdout.contains("_optional"))
    #expect(r.stdout.contains("    String x \"optional"))
  }

  @Test func dumpAndPolicySourceEscapeNames() throws {
    let (dir, _, _) = try Self.setUp()
    defer { try? FileManager.default.removeItem(at: dir) }
    let mappingName = "Map\n" + Self.verdict + " */ \"q\""
    let mapping = """
      <mappingModel name="\(Self.xml(mappingName))" formatVersion="1">
        <sourceModel path="B.xcdatamodeld/B1.xcdatamodel"/>
        <destinationModel path="B.xcdatamodeld/B2.xcdatamodel"/>
        <entityMapping name="\(Self.xml("NoteMap\n" + Self.verdict))" type="transform" source="Note" destination="Note">
          <attribute name="title">FUNCTION($entityPolicy, "trim:", "\(Self.xml(Self.hostile.replacingOccurrences(of: "\"", with: "'")))")</attribute>
        </entityMapping>
      </mappingModel>
      """
    let xml = dir.appendingPathComponent("m.xml").path
    try Data(mapping.utf8).write(to: URL(fileURLWithPath: xml))
    for format in ["text", "mermaid"] {
      let r = runMapc(["dump", xml, "--format", format])
      #expect(r.exitCode == 0, "dump \(format): \(r.stderr)")
      Self.expectClean(r.stdout, "dump --format \(format)")
      Self.expectClean(r.stderr, "dump --format \(format) (stderr)")
    }
    // The output's own name holds a line break, which went into a `//` comment.
    let out = dir.appendingPathComponent("N\nlet forged = 1 \"q\" x.xcmappingmodel").path
    let swift = dir.appendingPathComponent("Policies.swift").path
    let r = runMapc(["export", xml, "-o", out, "--policy-source", swift])
    #expect(r.exitCode == 0, "export: \(r.stderr)")
    let source = try String(contentsOfFile: swift, encoding: .utf8)
    Self.expectClean(source, "the policy source")
    #expect(source.hasPrefix("// Generated by `mapc export --policy-source` for the mapping model N\\nlet forged"))
    #expect(!source.contains("\nlet forged"))
    let swiftc = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    if let swiftc {
      let parsed = runExecutable(URL(fileURLWithPath: swiftc), ["-parse", swift])
      #expect(parsed.exitCode == 0, "swiftc -parse: \(parsed.stderr)")
    }
  }

  /// `store model` writes what the store's cached model holds: a default value with a line feed,
  /// CR LF, NEL, `*/` and `"` comes back the same through mapc and through python3's reader.
  @Test func storeModelKeepsControlCharacters() throws {
    let dir = try FileManagerTemp.folder("control-store-model")
    defer { try? FileManager.default.removeItem(at: dir) }
    let value = "a\nb\r\nc\u{85}d */ \"q\""
    let model = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
          <entity name="Note" representedClassName="Note">
              <attribute name="title" optional="YES" attributeType="String" defaultValueString="\(Self.xml(value))"/>
          </entity>
      </model>
      """
    let bundle = try ModelBundles.bundle(model, named: "S", in: dir)
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": try ModelBundles.storeMetadata(bundle), "objects": ["Note": [["id": "n1"]]],
    ]).write(to: json)
    let sqlite = dir.appendingPathComponent("s.sqlite").path
    let imported = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", sqlite])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let out = dir.appendingPathComponent("Out.xcdatamodel").path
    let written = runMapc(["store", "model", sqlite, "-o", out])
    #expect(written.exitCode == 0, "\(written.stderr)")
    let contents = try String(contentsOfFile: out + "/contents", encoding: .utf8)
    Self.expectClean(contents, "store model's contents")
    #expect(runMapc(["hash", out]).exitCode == 0)
    let python = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import sys, xml.etree.ElementTree as E; print(E.parse(sys.argv[1]).getroot().find('entity/attribute').get('defaultValueString').encode('unicode_escape').decode())",
        out + "/contents",
      ])
    if python.exitCode != 127 {
      #expect(python.stdout == #"a\nb\r\nc\x85d */ "q""# + "\n", "\(python.stderr)")
    }
  }
}
