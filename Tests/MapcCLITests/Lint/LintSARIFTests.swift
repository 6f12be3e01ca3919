import Foundation
import MapTestSupport
import MapTools
import Testing

/// `mapc lint --format sarif` validates against the official SARIF 2.1.0 schema (vendored in
/// Tests/TestData/sarif) with Python's jsonschema, and uses SARIF's fields as intended.
@Suite(
  .enabled(if: mapcExecutable != nil, "the mapc executable has not been built"),
  .needsPythonModule("jsonschema", package: "python3-jsonschema"))
struct LintSARIFTests {
  static let schema = SharedPaths.packageRoot.appendingPathComponent("Tests/TestData/sarif/sarif-schema-2.1.0.json")
    .path

  /// Validates a SARIF file (the suites that call it need python3's jsonschema: `.needsPythonModule`).
  static func validate(_ sarifPath: String) -> (ok: Bool, output: String) {
    let script = """
      import json, sys
      try:
          import jsonschema
      except ImportError:
          print("python3 has no jsonschema module: install it (pip install jsonschema, or apt-get install python3-jsonschema; .ci/run does)")
          sys.exit(3)
      schema = json.load(open(sys.argv[1]))
      log = json.load(open(sys.argv[2]))
      validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
      errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
      for e in errors:
          print("/".join(str(p) for p in e.absolute_path), e.message)
      sys.exit(1 if errors else 0)
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, schema, sarifPath]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do {
      try process.run()
    } catch {
      return (false, "cannot run python3: \(error)")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus == 0, String(decoding: data, as: UTF8.self))
  }

  @Test func sarifIsValidAndComplete() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryNameAndDate)
    try box.mapping(
      "maps/with space.xml",
      """
        <!-- mapc-lint-disable lint-optional-into-mandatory: names were required in v1 -->
        <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
          <attribute name="name">$source.name</attribute>
          <attribute name="createdAt">CAST(0, "NSDate")</attribute>
        </entityMapping>
        <entityMapping name="Again" type="transform" source="Person" destination="Person">
          <attribute name="name">$source.name</attribute>
          <attribute name="createdAt">CAST(0, "NSDate")</attribute>
          <attribute name="name">"twice"</attribute>
        </entityMapping>
      """)
    try box.models(source: optionalName, destination: mandatoryNameAndDate, in: "maps")
    let r = box.lint(["--format", "sarif", "maps"])
    #expect(r.exitCode == 1)  // map-duplicate-property is a compile error
    let path = try box.write("out.sarif", r.stdout)
    let validation = Self.validate(path)
    #expect(validation.ok, "\(validation.output)")

    let log = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    #expect((log["$schema"] as? String)?.hasSuffix("sarif-schema-2.1.0.json") == true)
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    #expect(run["columnKind"] as? String == "unicodeCodePoints")
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect(driver["name"] as? String == "mapc")
    let rules = try #require(driver["rules"] as? [[String: Any]])
    let ids = rules.compactMap { $0["id"] as? String }
    #expect(Array(ids.prefix(LintRules.all.count)) == LintRules.ids)
    #expect(ids.contains("map-duplicate-property"))  // a reported compiler id gets a descriptor too
    for rule in rules.prefix(LintRules.all.count) {
      let id = rule["id"] as? String ?? ""
      let catalogue = try #require(LintRules.rule(id))
      #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == catalogue.title)
      #expect((rule["fullDescription"] as? [String: Any])?["text"] as? String == catalogue.explanation)
      #expect(((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String) == catalogue.severity.rawValue)
      #expect(((rule["help"] as? [String: Any])?["markdown"] as? String)?.contains("### `\(id)`") == true)
    }
    let base = try #require((run["originalUriBaseIds"] as? [String: Any])?["SRCROOT"] as? [String: Any])
    #expect((base["uri"] as? String)?.hasPrefix("file:///") == true)
    #expect((base["uri"] as? String)?.hasSuffix("/") == true)

    let results = try #require(run["results"] as? [[String: Any]])
    func describe(_ result: [String: Any]) -> String {
      let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
      let artifact = location?["artifactLocation"] as? [String: Any]
      let region = location?["region"] as? [String: Any]
      let suppressed = (result["suppressions"] as? [[String: Any]])?.first?["kind"] as? String ?? "-"
      return
        "\(result["ruleId"]!) \(result["level"]!) \(artifact?["uri"] ?? "") \(artifact?["uriBaseId"] ?? "") \(region?["startLine"] ?? 0):\(region?["startColumn"] ?? 0) \(suppressed)"
    }
    #expect(
      results.map(describe) == [
        "lint-optional-into-mandatory warning maps/with%20space.xml SRCROOT 7:28 inSource",
        "lint-unused-entity-mapping warning maps/with%20space.xml SRCROOT 10:3 -",
        "lint-optional-into-mandatory warning maps/with%20space.xml SRCROOT 11:28 -",
        "map-duplicate-property error maps/with%20space.xml SRCROOT 13:22 -",
      ])
    for result in results {
      let index = try #require(result["ruleIndex"] as? Int)
      #expect(ids[index] == result["ruleId"] as? String)
      #expect(((result["partialFingerprints"] as? [String: String])?["mapcFingerprint/v1"])?.count == 32)
    }
    let suppressed = try #require(results.first { $0["suppressions"] != nil })
    let suppression = try #require((suppressed["suppressions"] as? [[String: Any]])?.first)
    #expect(suppression["justification"] as? String == "names were required in v1")
    #expect(suppression["status"] as? String == "accepted")
    let duplicate = try #require(results.first { $0["ruleId"] as? String == "map-duplicate-property" })
    let related = try #require((duplicate["relatedLocations"] as? [[String: Any]])?.first)
    #expect((related["message"] as? [String: Any])?["text"] as? String == "first mapped here")
    let snippet =
      (((duplicate["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]
      as? [String: Any])?["snippet"] as? [String: Any]
    #expect(snippet?["text"] as? String == "    <attribute name=\"name\">\"twice\"</attribute>")
  }

  @Test func baselinedFindingsAreExternalSuppressions() throws {
    let box = try LintSandbox()
    defer { box.remove() }
    try box.models(source: optionalName, destination: mandatoryName)
    try box.mapping("m.xml", warningBody)
    #expect(box.lint(["m.xml", "--write-baseline", "b.json"]).exitCode == 0)
    let r = box.lint(["--format", "sarif", "m.xml", "--baseline", "b.json"])
    #expect(r.exitCode == 0)
    let validation = Self.validate(try box.write("out.sarif", r.stdout))
    #expect(validation.ok, "\(validation.output)")
    #expect(r.stdout.contains("\"kind\": \"external\""))
  }

  @Test func theValidatorRejectsBrokenSARIF() throws {
    // The check can fail: a result without a message is invalid.
    let box = try LintSandbox()
    defer { box.remove() }
    let path = try box.write(
      "bad.sarif",
      "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"mapc\"}}, \"results\": [{\"ruleId\": \"x\"}]}]}"
    )
    let validation = Self.validate(path)
    #expect(!validation.ok)
    #expect(validation.output.contains("'message' is a required property"))
  }
}
