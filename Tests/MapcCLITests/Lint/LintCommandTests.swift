import Foundation
import MapTestSupport
import MapTools
import Testing

@Suite(.enabled(if: mapcExecutable != nil, "the mapc executable has not been built"))
struct LintCommandTests {
  @Test func exitStatusFollowsTheWorstActiveFindingAndStrict() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryNameAndDate)
    try box.mapping(
      "clean.xml",
      """
        <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
          <attribute name="name">FUNCTION($entityPolicy, "defaultValue:for:", "?", $source.name)</attribute>
          <attribute name="createdAt">CAST(0, "NSDate")</attribute>
        </entityMapping>
      """)
    try box.mapping(
      "warning.xml",
      """
        <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
          <attribute name="name">$source.name</attribute>
          <attribute name="createdAt">CAST(0, "NSDate")</attribute>
        </entityMapping>
      """)
    try box.mapping(
      "error.xml",
      """
        <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
          <attribute name="name">FUNCTION($entityPolicy, "defaultValue:for:", "?", $source.name)</attribute>
        </entityMapping>
      """)
    let clean = box.lint(["clean.xml"])
    #expect(clean.exitCode == 0)
    #expect(clean.stderr == "1 file linted: 0 errors, 0 warnings, 0 notes\n")
    #expect(box.lint(["clean.xml", "--strict"]).exitCode == 0)
    #expect(box.lint(["warning.xml"]).exitCode == 0)
    #expect(box.lint(["warning.xml", "--strict"]).exitCode == 1)
    let error = box.lint(["error.xml"])
    #expect(error.exitCode == 1)
    #expect(error.stderr.contains("error.xml:5:3: error: Person.createdAt is mandatory and has no default value"))
    #expect(error.stderr.contains("[lint-mandatory-attribute-unmapped]"))
  }

  @Test func usageErrorsExitWith64() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.write("other.xml", "<model/>\n")
    for args in [
      [], ["missing.xml"], ["--format", "yaml", "other.xml"], ["--explain", "lint-no-such-rule"], ["."],
      ["--jobs", "-1", "."],
    ] {
      let r = box.lint(args)
      #expect(r.exitCode == 64, "\(args): \(r.stderr)")
      #expect(!r.stderr.isEmpty)
    }
    let bad = try box.write("bad-baseline.json", "{\"entries\": 3}")
    try box.models(source: optionalName, destination: optionalName)
    try box.mapping("m.xml", "")
    let r = box.lint(["m.xml", "--baseline", bad])
    #expect(r.exitCode == 64)
    #expect(r.stderr.contains("not a mapc lint baseline"))
  }

  @Test func explainPrintsTheRuleWithItsExamples() throws {
    for rule in LintRules.all {
      let r = runMapc(["lint", "--explain", rule.id])
      #expect(r.exitCode == 0)
      #expect(r.stdout.hasPrefix("\(rule.id) (\(rule.severity.rawValue)"))
      #expect(r.stdout.contains("Suppress: \(rule.suppression)"))
      // Both mappings, without markers.
      for line in (rule.bad.mappingText + rule.good.mappingText).split(separator: "\n") {
        #expect(r.stdout.contains(line), "\(rule.id): \(line)")
      }
      #expect(!r.stdout.contains("‸"))
    }
    let list = runMapc(["lint", "--list-rules"])
    #expect(list.exitCode == 0)
    #expect(list.stdout.split(separator: "\n").count == LintRules.all.count)
  }

  @Test func textShowsTheSourceLineAndACaretUnderTheColumn() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryName)
    try box.mapping(
      "m.xml",
      """
        <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
        \t<attribute name="name">$source.name</attribute>
        </entityMapping>
      """)
    let r = box.lint(["m.xml"])
    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines[0].hasPrefix(
        "m.xml:6:27: warning: Person.name is mandatory, but this value may be nil (Person.name is optional)"))
    #expect(lines[0].hasSuffix("[lint-optional-into-mandatory]"))
    #expect(lines[1] == "  \t<attribute name=\"name\">$source.name</attribute>")
    #expect(lines[2] == "  \t" + String(repeating: " ", count: 23) + "^")
    #expect(lines[3] == "1 file linted: 0 errors, 1 warning, 0 notes")
    #expect(!r.stderr.contains("\u{1B}["), "no colour when stderr is not a terminal")
  }

  @Test func githubAnnotations() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryName)
    try box.mapping("dir, with: comma/m.xml", warningBody)
    try box.models(source: optionalName, destination: mandatoryName, in: "dir, with: comma")
    let r = box.lint(["--format", "github", "dir, with: comma/m.xml"])
    #expect(r.exitCode == 0)
    let line = try #require(r.stdout.split(separator: "\n").first.map(String.init))
    #expect(
      line.hasPrefix(
        "::warning file=dir%2C with%3A comma/m.xml,line=6,col=28,title=lint-optional-into-mandatory::Person.name is mandatory"
      ))
    #expect(line.hasSuffix("[lint-optional-into-mandatory]"))
    #expect(r.stdout.split(separator: "\n").count == 1)
  }

  @Test func jsonListsEveryFindingWithItsStatus() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryName)
    try box.mapping(
      "m.xml",
      """
        <!-- mapc-lint-disable lint-optional-into-mandatory: checked by hand -->
        <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
          <attribute name="name">$source.name</attribute>
        </entityMapping>
        <entityMapping name="Again" type="transform" source="Person" destination="Person">
          <attribute name="name">$source.name</attribute>
        </entityMapping>
      """)
    let r = box.lint(["--format", "json", "m.xml"])
    #expect(r.exitCode == 0)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(json["version"] as? Int == 1)
    #expect(json["files"] as? [String] == ["m.xml"])
    let summary = try #require(json["summary"] as? [String: Int])
    #expect(summary == ["files": 1, "errors": 0, "warnings": 2, "notes": 0, "suppressed": 1, "baselined": 0])
    let findings = try #require(json["findings"] as? [[String: Any]])
    let described = findings.map { "\($0["rule"]!) \($0["line"]!):\($0["column"]!) \($0["status"]!)" }
    #expect(
      described == [
        "lint-optional-into-mandatory 7:28 suppressed",
        "lint-unused-entity-mapping 9:3 active",
        "lint-optional-into-mandatory 10:28 active",
      ])
    #expect(findings[0]["justification"] as? String == "checked by hand")
    #expect(findings[0]["severity"] as? String == "warning")
    #expect((findings[0]["fingerprint"] as? String)?.count == 32)
  }

  @Test func manyFilesInParallelGiveOneSortedDeterministicReport() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    var expected: [String] = []
    for i in 0..<14 {
      let sub = "group\(i % 3)/m\(i)"
      try box.models(source: optionalName, destination: mandatoryName, in: sub)
      try box.mapping("\(sub)/mapping.xml", i % 2 == 0 ? warningBody : "")
      expected.append("tree/../\(sub)/mapping.xml")
    }
    // Not mappings: another XML root, a hidden folder.
    try box.write("group0/notes.xml", "<?xml version=\"1.0\"?>\n<!-- x -->\n<notes/>\n")
    try box.write(".hidden/mapping.xml", "<mappingModel formatVersion=\"1\"/>\n")
    let serial = box.lint(["--format", "json", "--jobs", "1", "."])
    let parallel = box.lint(["--format", "json", "--jobs", "8", "."])
    #expect(serial.exitCode == 0 && parallel.exitCode == 0)
    #expect(serial.stdout == parallel.stdout)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(parallel.stdout.utf8)) as? [String: Any])
    let files = try #require(json["files"] as? [String])
    #expect(files.count == 14)
    #expect(files == files.sorted())
    #expect(!files.contains { $0.contains("hidden") || $0.contains("notes") })
    let findings = try #require(json["findings"] as? [[String: Any]])
    // Even-numbered mappings: one optional-into-mandatory warning each; odd ones map nothing, so
    // Person is neither read nor produced: two warnings each.
    #expect(findings.count == 21)
    #expect(findings.filter { $0["rule"] as? String == "lint-source-entity-unread" }.count == 7)
    let order = findings.map { "\($0["file"]!):\($0["line"]!)" }
    #expect(order == order.sorted())
    #expect(parallel.stderr == "14 files linted: 0 errors, 21 warnings, 0 notes\n")
  }
}
