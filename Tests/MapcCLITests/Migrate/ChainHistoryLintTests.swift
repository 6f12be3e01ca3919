import Foundation
import MapTestSupport
import Testing

/// `mapc lint BUNDLE.xcdatamodeld` alone knows the bundle's history (issue 25): inferred steps
/// that would drop data (what they drop, found here by Python from the model files), versions
/// Core Data does not see as new, and versions it cannot tell apart.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")),
  .enabled(if: python3 != nil, "python3 is needed to read the models independently"))
struct ChainHistoryLintTests {
  /// What inference drops from `source` to `destination` (two `contents` files), by Python:
  /// entities no destination entity answers to (by renaming identifier, else name), and
  /// attributes and relationships of the others no destination property answers to, named
  /// `entity E` and `E.p`.
  static func dropped(_ source: String, _ destination: String) throws -> Set<String> {
    let python = try #require(python3)
    let script = """
      import sys, xml.etree.ElementTree as ET
      def entities(path):
          return {e.get("name"): e for e in ET.parse(path).getroot().findall("entity")}
      def key(element):
          return element.get("elementID") or element.get("name")
      source, destination = entities(sys.argv[1]), entities(sys.argv[2])
      lost = []
      for name, e in source.items():
          counterpart = [d for d in destination.values() if key(d) in (e.get("elementID"), name)]
          if not counterpart:
              lost.append("entity " + name)
              continue
          properties = {key(p) for p in counterpart[0] if p.tag in ("attribute", "relationship")}
          for p in e:
              if p.tag in ("attribute", "relationship") and p.get("transient") != "YES":
                  if p.get("elementID") not in properties and p.get("name") not in properties:
                      lost.append(name + "." + p.get("name"))
      print("\\n".join(lost))
      """
    let r = runTool(python, ["-c", script, source, destination])
    try #require(r.exitCode == 0, "\(r.stderr)")
    return Set(r.stdout.split(separator: "\n").map(String.init))
  }

  /// The names a `chain-step-drops-data` warning for the step `from` → `to` lists.
  static func named(in stderr: String, from: String, to: String) -> Set<String>? {
    let head = "the inferred step '\(from)' → '\(to)' drops "
    guard let start = stderr.range(of: head), let end = stderr[start.upperBound...].range(of: ": a store at") else {
      return nil
    }
    return Set(stderr[start.upperBound..<end.lowerBound].components(separatedBy: ", "))
  }

  @Test func inferredStepsThatDropDataAreNamedWithWhatTheyDrop() throws {
    let tasks = MigrateChainTests.bundle
    let alone = runMapc(["lint", tasks])
    #expect(alone.exitCode == 0, "warnings only: \(alone.stderr)")
    let expected = try Self.dropped(
      "\(tasks)/Tasks 3.xcdatamodel/contents", "\(tasks)/Tasks 4.xcdatamodel/contents")
    #expect(expected == ["Task.priority"])
    #expect(Self.named(in: alone.stderr, from: "Tasks 3", to: "Tasks 4") == expected, "\(alone.stderr)")
    #expect(alone.stderr.contains("--source-version 'Tasks 3' --destination-version 'Tasks 4' -o MAPPING.xml"))
    #expect(alone.stderr.components(separatedBy: "[chain-step-drops-data]").count == 2, "\(alone.stderr)")
    // The mapping for that step keeps the data: nothing to report.
    let covered = runMapc(["lint", tasks, MigrateChainTests.mappings])
    #expect(covered.exitCode == 0 && !covered.stderr.contains("chain-"), "\(covered.stderr)")
    #expect(runMapc(["lint", tasks, "--strict"]).exitCode == 1)
  }

  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func theDiaryFixtureDropsBothOfItsEntities() throws {
    let bundle = SharedPaths.fixtures!.appendingPathComponent("diary/SimpleQADiary.xcdatamodeld").path
    let r = runMapc(["lint", bundle])
    let expected = try Self.dropped(
      "\(bundle)/SimpleQADiary.xcdatamodel/contents", "\(bundle)/SimpleQADiary 2.xcdatamodel/contents")
    #expect(expected == ["entity Questions", "entity Records"])
    #expect(Self.named(in: r.stderr, from: "SimpleQADiary", to: "SimpleQADiary 2") == expected, "\(r.stderr)")
  }

  /// A bundle of four versions: 2 changes only what Core Data does not hash (a default value), 3
  /// adds an attribute, 4 takes it away again (the hashes of 1 and 2).
  static func history() throws -> URL {
    let dir = try FileManagerTemp.folder("chain-history")
    let bundle = dir.appendingPathComponent("H.xcdatamodeld")
    func model(_ name: String, _ attributes: String) throws {
      let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Item" representedClassName="Item" syncable="YES">
              \(attributes)
          </entity>
      </model>
      """.write(to: folder.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    try model("H", #"<attribute name="title" optional="YES" attributeType="String"/>"#)
    try model("H 2", #"<attribute name="title" optional="YES" attributeType="String" defaultValueString="x"/>"#)
    try model(
      "H 3",
      #"<attribute name="title" optional="YES" attributeType="String"/><attribute name="rank" optional="YES" attributeType="Integer 32"/>"#
    )
    try model("H 4", #"<attribute name="title" optional="YES" attributeType="String"/>"#)
    return bundle
  }

  @Test func versionsCoreDataDoesNotSeeAsNewOrCannotTellApart() throws {
    let bundle = try Self.history()
    defer { FileManagerTemp.remove(bundle.deletingLastPathComponent().path) }
    let r = runMapc(["lint", bundle.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "'H 2' has the same entity version hashes as 'H', the version before it: Core Data does not see it as a new version"
      ), "\(r.stderr)")
    #expect(r.stderr.components(separatedBy: "[chain-version-unchanged]").count == 2, "\(r.stderr)")
    for earlier in ["H", "H 2"] {
      #expect(
        r.stderr.contains("'\(earlier)' and 'H 4' have the same entity version hashes: Core Data cannot tell"),
        "\(r.stderr)")
    }
    #expect(r.stderr.components(separatedBy: "[chain-identical-versions]").count == 3, "\(r.stderr)")
    #expect(Self.named(in: r.stderr, from: "H 3", to: "H 4") == ["Item.rank"], "\(r.stderr)")
  }

  /// The new findings go into SARIF too, valid against the schema.
  @Test(.needsPythonModule("jsonschema", package: "python3-jsonschema"))
  func historyFindingsAreInSARIF() throws {
    let bundle = try Self.history()
    defer { FileManagerTemp.remove(bundle.deletingLastPathComponent().path) }
    let r = runMapc(["lint", bundle.path, "--format", "sarif"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let file = bundle.deletingLastPathComponent().appendingPathComponent("lint.sarif")
    try Data(r.stdout.utf8).write(to: file)
    let validation = LintSARIFTests.validate(file.path)
    #expect(validation.ok, "\(validation.output)")
    let log = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let results = try #require(run["results"] as? [[String: Any]])
    let ids = results.compactMap { $0["ruleId"] as? String }.sorted()
    #expect(
      ids == [
        "chain-identical-versions", "chain-identical-versions", "chain-step-drops-data", "chain-version-unchanged",
      ])
    #expect(results.allSatisfy { $0["level"] as? String == "warning" })
  }
}
