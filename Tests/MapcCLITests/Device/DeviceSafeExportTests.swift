import Foundation
import MapTestSupport
import Testing

/// A mapping that calls mapc's own `$entityPolicy` functions, exported for Xcode: refused without
/// `--policy-source` (each call named, and the option); with it, the mapping model names a
/// generated `NSEntityMigrationPolicy` subclass and the Swift file parses, declares every
/// selector the mapping calls and computes what `Specs/functions.md` §7's examples say. `mapc
/// lint` reports the calls in an `.xcmappingmodel`, not in a text mapping.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct DeviceSafeExportTests {
  static let notes = SharedPaths.packageRoot.appendingPathComponent("Mappings/notes")
  static let mapping = notes.appendingPathComponent("NotesV1ToV2.xml").path

  /// The Swift compiler beside the `swift` on the PATH, if any.
  static let swiftc: URL? = {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("swiftc")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }()

  /// 1-based numbers of the lines of `path` that contain `text`.
  static func lines(of path: String, containing text: String) throws -> [Int] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated().filter { $0.element.contains(text) }.map { $0.offset + 1 }
  }

  /// The entity mappings of an exported `xcmapping.xml` as (destination name, policy class or
  /// ""), read by python3's XML parser.
  static func policies(in xcmapping: String) throws -> [String: String] {
    let script = """
      import sys, xml.etree.ElementTree as ET
      for o in ET.parse(sys.argv[1]).getroot().iter('object'):
          if o.get('type') != 'XDDEVENTITYMAPPING': continue
          f = {a.get('name'): a.text or '' for a in o.findall('attribute')}
          print(f.get('destinationname', '') + '\\t' + f.get('migrationpolicyclassname', ''))
      """
    let r = runTool(try #require(python3), ["-c", script, xcmapping])
    try #require(r.exitCode == 0, "\(r.stderr)")
    var result: [String: String] = [:]
    for line in r.stdout.split(separator: "\n") {
      let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      result[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    return result
  }

  @Test func exportRefusesNamingEachCallAndTheOption() throws {
    let folder = try FileManagerTemp.folder("device-refuse")
    defer { FileManagerTemp.remove(folder.path) }
    let output = folder.appendingPathComponent("NotesV1ToV2.xcmappingmodel").path
    let r = runMapc(["export", Self.mapping, "-o", output])
    #expect(r.exitCode == 1, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output))
    let errors = r.stderr.split(separator: "\n").filter { $0.hasSuffix("[xcmap-export-device-function]") }
    let expectedLines = try Self.lines(of: Self.mapping, containing: "\"defaultValue:for:\"")
    #expect(expectedLines.count == 2)
    #expect(errors.count == expectedLines.count, "\(r.stderr)")
    for (error, line) in zip(errors, expectedLines) {
      #expect(error.hasPrefix("\(Self.mapping):\(line):"), "\(error)")
      #expect(error.contains("\"defaultValue:for:\"") && error.contains("--policy-source"), "\(error)")
      #expect(error.contains("TERNARY("), "Core Data's own form is named: \(error)")
    }
  }

  @Test(.enabled(if: python3 != nil, "python3 reads the exported XML"))
  func exportWithPolicySourceNamesTheGeneratedClassAndTheFileParses() throws {
    let folder = try FileManagerTemp.folder("device-export")
    defer { FileManagerTemp.remove(folder.path) }
    let output = folder.appendingPathComponent("NotesV1ToV2.xcmappingmodel").path
    let swift = folder.appendingPathComponent("Policies.swift").path
    let r = runMapc(["export", Self.mapping, "-o", output, "--policy-source", swift])
    #expect(r.exitCode == 0, "\(r.stderr)")
    // The entity mapping that calls defaultValue:for: names the class; the other names none.
    #expect(try Self.policies(in: output + "/xcmapping.xml") == ["Note": "NotesV1ToV2MapcPolicy", "Notebook": ""])
    let source = try String(contentsOfFile: swift, encoding: .utf8)
    #expect(source.contains("@objc(NotesV1ToV2MapcPolicy)\nclass NotesV1ToV2MapcPolicy: NSEntityMigrationPolicy {"))
    #expect(source.contains("@objc(defaultValue:for:)"))
    if let swiftc = Self.swiftc {
      let parsed = runTool(swiftc, ["-parse", swift])
      #expect(parsed.exitCode == 0, "\(parsed.stderr)")
    }
    // The exported model, run by mapc, gives the worked example's expected store.
    let migrated = folder.appendingPathComponent("v2.json").path
    let run = runMapc([
      "run", output, "--store", Self.notes.appendingPathComponent("store-v1.json").path, "--output", migrated,
      "--quiet",
    ])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let compare = runTool(
      try #require(python3),
      [
        "-c", "import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))", migrated,
        Self.notes.appendingPathComponent("expected-v2.json").path,
      ])
    #expect(compare.exitCode == 0)
    // Lint of the export: the class implements the functions, its name needs no module.
    let lint = runMapc(["lint", output])
    #expect(lint.exitCode == 0, "\(lint.stdout)\(lint.stderr)")
  }

  @Test(.enabled(if: python3 != nil, "python3 reads the exported XML"))
  func aMappingWithItsOwnPolicyGetsASubclassOfIt() throws {
    let folder = try FileManagerTemp.folder("device-subclass")
    defer { FileManagerTemp.remove(folder.path) }
    let copy = folder.appendingPathComponent("notes")
    try FileManager.default.copyItem(at: Self.notes, to: copy)
    let mapping = copy.appendingPathComponent("NotesV1ToV2.xml")
    let text = try String(contentsOf: mapping, encoding: .utf8)
      .replacingOccurrences(
        of: "name=\"NoteToNote\" source=\"Note\" destination=\"Note\"",
        with: "name=\"NoteToNote\" source=\"Note\" destination=\"Note\" policy=\"App.LegacyPolicy\""
      )
      .replacingOccurrences(
        of: "<attribute name=\"body\">$source.text</attribute>",
        with: "<attribute name=\"body\">FUNCTION($entityPolicy, \"trim:\", $source.text)</attribute>")
    try Data(text.utf8).write(to: mapping)
    let output = folder.appendingPathComponent("Notes.xcmappingmodel").path
    let swift = folder.appendingPathComponent("Policies.swift").path
    let r = runMapc(["export", mapping.path, "-o", output, "--policy-source", swift])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(try Self.policies(in: output + "/xcmapping.xml")["Note"] == "NotesMapcPolicy_App_LegacyPolicy")
    let source = try String(contentsOfFile: swift, encoding: .utf8)
    #expect(source.contains("class NotesMapcPolicy_App_LegacyPolicy: App.LegacyPolicy {"))
    for selector in ["defaultValue:for:", "trim:"] { #expect(source.contains("@objc(\(selector))"), "\(selector)") }
    #expect(!source.contains("NSEntityMigrationPolicy {"), "no class for mappings without a policy: there are none")
  }

  @Test func lintReportsTheCallsOfTheCommittedXcodeMappingModelOnly() throws {
    let xcode = Self.notes.appendingPathComponent("NotesV1ToV2.xcmappingmodel").path
    let lint = runMapc(["lint", xcode])
    #expect(lint.exitCode == 1)
    let findings = lint.stderr.split(separator: "\n").filter { $0.hasSuffix("[lint-device-unknown-function]") }
    #expect(findings.count == 2, "\(lint.stderr)")
    #expect(findings.allSatisfy { $0.contains("\"defaultValue:for:\"") && $0.contains("NoteToNote") })
    // The text mapping runs in mapc, which has the functions.
    let text = runMapc(["lint", Self.mapping])
    #expect(!text.stderr.contains("lint-device-unknown-function"), "\(text.stderr)")
    let explain = runMapc(["lint", "--explain", "lint-device-unknown-function"])
    #expect(explain.exitCode == 0 && explain.stdout.contains("unrecognized selector"))
  }

  /// The generated functions, compiled on this machine (Foundation, without Core Data and the
  /// Objective-C names, which Linux lacks) and run on the examples of `Specs/functions.md` §7.
  @Test(.enabled(if: swiftc != nil, "swiftc compiles the generated functions"))
  func theGeneratedFunctionsComputeWhatTheSpecsExamplesSay() throws {
    let folder = try FileManagerTemp.folder("device-functions")
    defer { FileManagerTemp.remove(folder.path) }
    let output = folder.appendingPathComponent("NotesV1ToV2.xcmappingmodel").path
    let swift = folder.appendingPathComponent("Policies.swift").path
    #expect(runMapc(["export", Self.mapping, "-o", output, "--policy-source", swift]).exitCode == 0)
    var source = try String(contentsOfFile: swift, encoding: .utf8)
    source = source.replacingOccurrences(of: "import CoreData\n", with: "")
      .replacingOccurrences(of: "private enum MapcPolicyFunctions", with: "enum MapcPolicyFunctions")
      .split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("@objc(") }.joined(separator: "\n")
    source = "open class NSEntityMigrationPolicy {}\n" + source
    source += #"""

      func show(_ v: Any?) -> String {
        switch v {
        case nil: return "nil"
        case let d as Date:
          let f = ISO8601DateFormatter()
          return f.string(from: d)
        case let s as String: return "\"" + s + "\""
        case let a as [Any]: return "{" + a.map { show($0) }.joined(separator: ", ") + "}"
        case let n as NSNumber:
          let type = String(cString: n.objCType)
          return type == "d" || type == "f" ? "double \(n.doubleValue)" : "integer \(n.int64Value)"
        default: return "?"
        }
      }
      typealias F = MapcPolicyFunctions
      let day = ISO8601DateFormatter().date(from: "2018-01-02T10:00:00Z")!
      for v in [
        F.dateFromString("2017-12-30", "yyyy-MM-dd"),
        F.dateFromString("2018-01-02 03:04", "yyyy-MM-dd HH:mm", "+02:00"),
        F.dateFromString("2017-02-29", "yyyy-MM-dd"),
        F.stringFromDate(day, "yyyy-MM-dd"),
        F.numberFromString("42"), F.numberFromString("+5"), F.numberFromString("-7"), F.numberFromString("2.5"),
        F.numberFromString("1e3"), F.numberFromString(""), F.numberFromString("12abc"), F.numberFromString("0x10"),
        F.numberFromString("inf"),
        F.stringFromNumber(NSNumber(value: 42)), F.stringFromNumber(NSNumber(value: 17.0)),
        F.stringFromNumber(NSNumber(value: 1.5e-7)), F.stringFromNumber(NSNumber(value: 1e20)),
        F.stringFromNumber(NSNumber(value: true)),
        F.split("a,,b", ","), F.split("", ","), F.split("a,b", ""),
        F.join(["a", NSNumber(value: 2), NSNull(), "c"] as [Any], "; "), F.join([] as [Any], ","),
        F.trim(" \t x y \n"),
        F.replace("_", " ", "a_b_c"), F.replace("", "x", "ab"),
        F.defaultValue("Untitled", nil), F.defaultValue("Untitled", ""), F.defaultValue(NSNumber(value: 5), NSNumber(value: 0)),
      ] {
        print(show(v))
      }
      """#
    let file = folder.appendingPathComponent("main.swift").path
    try Data(source.utf8).write(to: URL(fileURLWithPath: file))
    let binary = folder.appendingPathComponent("functions").path
    let built = runTool(try #require(Self.swiftc), [file, "-o", binary])
    try #require(built.exitCode == 0, "\(built.stderr)")
    let ran = runTool(URL(fileURLWithPath: binary), [])
    #expect(ran.exitCode == 0, "\(ran.stderr)")
    // Specs/functions.md §7, example by example.
    let expected = [
      "2017-12-30T00:00:00Z", "2018-01-02T01:04:00Z", "nil", "\"2018-01-02\"",
      "integer 42", "integer 5", "integer -7", "double 2.5", "double 1000.0", "nil", "nil", "nil", "nil",
      "\"42\"", "\"17\"", "\"0.00000015\"", "\"100000000000000000000\"", "\"1\"",
      "{\"a\", \"\", \"b\"}", "{\"\"}", "{\"a,b\"}",
      "\"a; 2; c\"", "\"\"",
      "\"x y\"",
      "\"a b c\"", "\"ab\"",
      "\"Untitled\"", "\"\"", "integer 0",
    ]
    #expect(ran.stdout.split(separator: "\n").map(String.init) == expected, "\(ran.stdout)")
  }
}
