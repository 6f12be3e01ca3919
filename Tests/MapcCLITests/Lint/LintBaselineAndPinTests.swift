import Foundation
import MapTestSupport
import Testing

@Suite(.enabled(if: mapcExecutable != nil, "the mapc executable has not been built"))
struct LintBaselineAndPinTests {
  @Test func baselineSurvivesEditsElsewhereAndReportsStaleEntries() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryName)
    let mapping = try box.mapping("maps/m.xml", warningBody)
    try box.models(source: optionalName, destination: mandatoryName, in: "maps")
    #expect(box.lint(["maps/m.xml", "--strict"]).exitCode == 1)

    let written = box.lint(["maps/m.xml", "--write-baseline", "ci/base.json", "--strict"])
    #expect(written.exitCode == 0, "\(written.stderr)")
    #expect(written.stderr.contains("ci/base.json: baseline written with 1 entries"))
    let baseline = try JSONSerialization.jsonObject(with: Data(box.read("ci/base.json").utf8)) as? [String: Any]
    let entries = try #require(baseline?["entries"] as? [[String: Any]])
    #expect(entries.count == 1)
    #expect(entries.first?["file"] as? String == "../maps/m.xml")
    #expect(entries.first?["rule"] as? String == "lint-optional-into-mandatory")

    // Accepted, also when the file is named differently.
    let ok = box.lint([box.folder + "/maps/./m.xml", "--baseline", "ci/base.json", "--strict"])
    #expect(ok.exitCode == 0, "\(ok.stderr)")
    #expect(ok.stderr.hasSuffix("(1 baselined)\n"))

    // Lines added above the finding do not matter.
    var text = try box.read("maps/m.xml")
    text = text.replacingOccurrences(
      of: "<mappingModel", with: "<!-- a comment\n     over two lines -->\n<mappingModel")
    try box.write("maps/m.xml", text)
    #expect(box.lint(["maps/m.xml", "--baseline", "ci/base.json", "--strict"]).exitCode == 0)

    // Changing the line makes it a new finding, and the old entry stale.
    try box.write(
      "maps/m.xml",
      text.replacingOccurrences(of: "$source.name</attribute>", with: "$source.name.lowercaseString</attribute>"))
    let changed = box.lint(["maps/m.xml", "--baseline", "ci/base.json"])
    #expect(changed.exitCode == 0)
    #expect(changed.stderr.contains("m.xml:8:28: warning: Person.name is mandatory"))
    #expect(
      changed.stderr.contains(
        "ci/base.json:4:5: warning: baseline entry for lint-optional-into-mandatory in ../maps/m.xml matches no finding"
      ))
    #expect(changed.stderr.contains("[lint-unused-baseline-entry]"))
    _ = mapping
  }

  @Test func rewritingTheBaselineKeepsReasons() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryName)
    try box.mapping("m.xml", warningBody)
    #expect(box.lint(["m.xml", "--write-baseline", "b.json"]).exitCode == 0)
    try box.write(
      "b.json",
      try box.read("b.json").replacingOccurrences(
        of: "\"reason\": \"\"", with: "\"reason\": \"names were required in v1\""))
    #expect(box.lint(["m.xml", "--baseline", "b.json", "--write-baseline", "b.json"]).exitCode == 0)
    #expect(try box.read("b.json").contains("\"reason\": \"names were required in v1\""))
  }

  @Test func compileErrorsAreNeitherBaselinedNorSuppressed() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: optionalName)
    try box.mapping(
      "m.xml",
      """
        <!-- mapc-lint-disable map-unknown-entity: not yet -->
        <entityMapping name="X" type="transform" source="Persn" destination="Person"/>
      """)
    let first = box.lint(["m.xml"])
    #expect(first.exitCode == 1)
    #expect(first.stderr.contains("m.xml:6:52: error: the source model has no entity Persn"))
    #expect(
      first.stderr.contains(
        "m.xml:5:3: warning: map-unknown-entity is a compiler error here, and compiler errors cannot be suppressed"))
    #expect(box.lint(["m.xml", "--write-baseline", "b.json"]).exitCode == 1)
    let written = try box.read("b.json")
    #expect(!written.contains("\"rule\": \"map-unknown-entity\""))
    #expect(
      written.contains("\"rule\": \"lint-source-entity-unread\""),
      "lint findings are baselined (Person is read by no mapping)")
    let r = box.lint(["m.xml", "--baseline", "b.json"])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("m.xml:6:52: error: the source model has no entity Persn"))
    #expect(r.stderr.hasSuffix("1 file linted: 1 error, 0 warnings, 0 notes (2 baselined)\n"))
  }

  @Test func updatePinsRewritesOnlyThePinsAndMakesTheMappingPass() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryName)
    let original = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- header comment -->
      <mappingModel   name="T"    formatVersion="1">
      \t<sourceModel path="Source.xcdatamodel" versionHash="stale=">
      \t\t<!-- kept -->
      \t\t<entityVersionHash entity="Person" hash="c3RhbGU="/>
      \t\t<entityVersionHash entity="Removed" hash="c3RhbGU="/>
      \t</sourceModel>
      \t<destinationModel path="Destination.xcdatamodel" />
      \t<entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
      \t\t<attribute name="name">FUNCTION($entityPolicy, "defaultValue:for:", "?", $source.name)</attribute>
      \t</entityMapping>
      </mappingModel>

      """
    try box.write("m.xml", original)
    let before = box.lint(["m.xml"])
    #expect(before.exitCode == 1)
    #expect(
      before.stderr.contains(
        "m.xml:6:3: error: entity Person of the source model changed since this mapping was written"))
    #expect(before.stderr.contains("m.xml:7:3: error: the source model no longer has entity Removed"))

    let updated = box.lint(["m.xml", "--update-pins"])
    #expect(updated.exitCode == 0, "\(updated.stderr)")
    #expect(updated.stderr.contains("m.xml: pins updated"))
    let hashes = runMapc(["hash", box.folder + "/Source.xcdatamodel", "--format", "json"])
    let person = try #require(
      ((try JSONSerialization.jsonObject(with: Data(hashes.stdout.utf8)) as? [String: Any])?["entityVersionHashes"]
        as? [String: String])?["Person"])
    let destinationHashes = runMapc(["hash", box.folder + "/Destination.xcdatamodel", "--format", "json"])
    let destinationPerson = try #require(
      ((try JSONSerialization.jsonObject(with: Data(destinationHashes.stdout.utf8)) as? [String: Any])?[
        "entityVersionHashes"] as? [String: String])?["Person"])
    let text = try box.read("m.xml")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0...2] == original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[0...2])
    #expect(
      lines[3].hasPrefix("\t<sourceModel path=\"Source.xcdatamodel\" versionHash=\"") && lines[3].hasSuffix("=\">"))
    #expect(!lines[3].contains("stale"))
    #expect(lines[4] == "\t\t<!-- kept -->")
    #expect(lines[5] == "\t\t<entityVersionHash entity=\"Person\" hash=\"\(person)\"/>")
    #expect(lines[6] == "\t</sourceModel>")
    #expect(
      lines[7].hasPrefix("\t<destinationModel path=\"Destination.xcdatamodel\" versionHash=\"")
        && lines[7].hasSuffix("\" >"))
    #expect(lines[8] == "\t\t<entityVersionHash entity=\"Person\" hash=\"\(destinationPerson)\"/>")
    #expect(lines[9] == "\t</destinationModel>")
    #expect(
      Array(lines[10...])
        == Array(original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[9...]))
    // Idempotent, and the pins now pass.
    let again = box.lint(["m.xml", "--update-pins", "--strict"])
    #expect(again.exitCode == 0)
    #expect(!again.stderr.contains("pins updated"))
    #expect(try box.read("m.xml") == text)
    // A model change is caught by the new pins.
    try box.models(source: mandatoryName, destination: mandatoryName)
    let drift = box.lint(["m.xml"])
    #expect(drift.exitCode == 1)
    #expect(drift.stderr.contains("m.xml:6:3: error: entity Person of the source model changed"))
    #expect(drift.stderr.contains("[map-pinned-hash-mismatch]"))
  }
}
