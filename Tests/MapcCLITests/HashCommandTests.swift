import Foundation
import MapTestSupport
import Testing

private let swiftGenBundle = SharedPaths.corpus?.appendingPathComponent(
  "SwiftGen/SwiftGen/Sources/TestUtils/Fixtures/Resources/CoreData/Model.xcdatamodeld")

/// The hashes Xcode wrote for the SwiftGen model, as base64, per version.
private func xcodeHashes() throws -> [String: [String: String]] {
  let url = SharedPaths.corpus!.appendingPathComponent(
    "SwiftGen/SwiftGen/SwiftGen.playground/Resources/Model.momd/VersionInfo.plist")
  let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
  let versions = (plist as? [String: Any])?["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]] ?? [:]
  return versions.mapValues { $0.mapValues { $0.base64EncodedString() } }
}

@Suite(.enabled(if: mapcExecutable != nil, "the mapc executable has not been built"))
struct HashCommandTests {
  @Test(.enabled(if: SharedPaths.shared != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func jsonHashesEqualXcodesForBothVersions() throws {
    let expected = try xcodeHashes()
    #expect(expected.count == 2)
    for (version, hashes) in expected {
      let r = runMapc(["hash", swiftGenBundle!.path, "--model-version", version, "--format", "json"])
      #expect(r.exitCode == 0)
      #expect(r.stderr.isEmpty)
      let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
      #expect(json["versionName"] as? String == version)
      #expect(json["modelVersionIdentifiers"] as? [String] == [""])
      #expect(json["entityVersionHashes"] as? [String: String] == hashes)
      // Stable key order.
      let keys = ["\"versionName\"", "\"modelVersionIdentifiers\"", "\"entityVersionHashes\""]
      let positions = keys.compactMap { r.stdout.range(of: $0)?.lowerBound }
      #expect(positions.count == 3 && positions == positions.sorted())
    }
  }

  @Test(.enabled(if: SharedPaths.shared != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func textOutputIsAlignedAndUsesTheCurrentVersion() throws {
    let expected = try xcodeHashes()["Model 2"]!
    let r = runMapc(["hash", swiftGenBundle!.path])
    #expect(r.exitCode == 0)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "version name:         Model 2")
    #expect(lines.dropFirst().first == "version identifiers:  \"\"")
    let entityLines = lines.dropFirst(2)
    #expect(entityLines.count == expected.count)
    for line in entityLines {
      let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      #expect(parts.count == 2)
      #expect(expected[parts[0]] == parts[1], "\(line)")
      // The hash column starts at the same place on every line.
      #expect(line.range(of: parts[1])?.lowerBound.utf16Offset(in: line) == 22)
    }
  }

  @Test func brokenModelsExitWithOneAndPreciseDiagnostics() throws {
    let dir = try FileManagerTemp.folder("hash")
    defer { try? FileManager.default.removeItem(at: dir) }
    let head = "<?xml version=\"1.0\"?>\n<model userDefinedModelVersionIdentifier=\"\">\n"
    let cases: [(name: String, text: String, expected: String)] = [
      ("truncated", head + "<entity name=\"A\">\n", "truncated:4:1: error:"),
      ("mismatched", head + "<entity name=\"A\">\n</model>", "mismatched:4:1: error:"),
      (
        "bomb",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n <!ENTITY a \"aaaaaaaaaa\">\n <!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n]>\n<model>&b;</model>",
        "bomb:3:2: error:"
      ),
      (
        "external",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<model>&x;</model>",
        "external:2:18: error:"
      ),
      (
        "type", head + "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Text\"/>\n</entity>\n</model>",
        "type:4:36: error:"
      ),
      (
        "destination",
        head
          + "<entity name=\"A\">\n<relationship name=\"r\" maxCount=\"1\" destinationEntity=\"B\"/>\n</entity>\n</model>",
        "destination:4:56: error:"
      ),
      (
        "inverse",
        head
          + "<entity name=\"A\">\n<relationship name=\"r\" maxCount=\"1\" destinationEntity=\"A\" inverseName=\"s\" inverseEntity=\"A\"/>\n<relationship name=\"s\" maxCount=\"1\" destinationEntity=\"A\"/>\n</entity>\n</model>",
        "inverse:4:72: error:"
      ),
      (
        "cycle", head + "<entity name=\"A\" parentEntity=\"B\"/>\n<entity name=\"B\" parentEntity=\"A\"/>\n</model>",
        "cycle:3:32: error:"
      ),
      (
        "duplicate",
        head
          + "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\"/>\n<attribute name=\"x\" attributeType=\"Date\"/>\n</entity>\n</model>",
        "duplicate:5:18: error:"
      ),
      (
        "default",
        head
          + "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Boolean\" defaultValueString=\"twelve\"/>\n</entity>\n</model>",
        "default:4:65: error:"
      ),
    ]
    let ids = [
      "truncated": "[xml-syntax]", "mismatched": "[xml-syntax]", "bomb": "[xml-entity-declaration]",
      "external": "[xml-entity-declaration]", "type": "[model-unknown-attribute-type]",
      "destination": "[model-unknown-entity]", "inverse": "[model-inverse-mismatch]",
      "cycle": "[model-inheritance-cycle]", "duplicate": "[model-duplicate-property]",
      "default": "[model-invalid-default]",
    ]
    for c in cases {
      try Data(c.text.utf8).write(to: dir.appendingPathComponent(c.name))
      // Run from the folder with a relative path: diagnostics name the file as given.
      let r = runMapc(["hash", c.name], in: dir)
      #expect(r.exitCode == 1, "\(c.name)")
      #expect(r.stdout.isEmpty, "\(c.name)")
      let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
      #expect(first.hasPrefix(c.expected), "\(c.name): \(r.stderr)")
      #expect(first.hasSuffix(ids[c.name]!), "\(c.name): \(r.stderr)")
    }
  }

  @Test func warningsGoToStandardErrorWithSuccess() throws {
    let dir = try FileManagerTemp.folder("hash")
    defer { try? FileManager.default.removeItem(at: dir) }
    let text =
      "<model userDefinedModelVersionIdentifier=\"1\">\n<entity name=\"A\">\n  <relationship name=\"r\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"A\"/>\n</entity>\n</model>\n"
    try Data(text.utf8).write(to: dir.appendingPathComponent("contents"))
    let r = runMapc(["hash", "contents"], in: dir)
    #expect(r.exitCode == 0)
    #expect(r.stderr.hasPrefix("contents:3:3: warning: "))
    #expect(r.stderr.hasSuffix("[model-missing-inverse]\n"))
    #expect(r.stdout.contains("version identifiers:  \"1\""))
  }

  @Test func usageErrorsExitWith64() throws {
    #expect(runMapc(["hash"]).exitCode == 64)
    #expect(runMapc(["hash", "x", "--format", "yaml"]).exitCode == 64)
  }

  @Test func missingModelExitsWithOne() throws {
    let r = runMapc(["hash", "/nonexistent/M.xcdatamodeld"])
    #expect(r.exitCode == 1)
    #expect(r.stderr == "/nonexistent/M.xcdatamodeld: error: no such file or directory [model-path]\n")
  }
}
