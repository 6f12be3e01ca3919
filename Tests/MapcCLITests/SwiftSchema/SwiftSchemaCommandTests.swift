import Foundation
import MapTestSupport
import Testing

/// `mapc model SOURCE… -o OUT` and `--model SOURCE` (Specs/swiftdata-schema.md): what is
/// written is checked by python3's XML and property-list readers, errors by their id and place.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SwiftSchemaCommandTests {
  static let versioned = """
    import SwiftData

    enum NotesV1: VersionedSchema {
      static var versionIdentifier = Schema.Version(1, 0, 0)
      static var models: [any PersistentModel.Type] { [Note.self] }
      @Model final class Note { var text: String = ""; init() {} }
    }

    enum NotesV2: VersionedSchema {
      static var versionIdentifier = Schema.Version(2, 0, 0)
      static var models: [any PersistentModel.Type] { [Note.self, Folder.self] }
      @Model final class Note {
        @Attribute(originalName: "text") var body: String = ""
        var folder: Folder?
        init() {}
      }
      @Model final class Folder {
        @Attribute(.unique) var name: String = ""
        var notes: [Note] = []
        init() {}
      }
    }

    enum NotesPlan: SchemaMigrationPlan {
      static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self] }
      static var stages: [MigrationStage] { [.lightweight(fromVersion: NotesV1.self, toVersion: NotesV2.self)] }
    }
    """

  /// python3 reads the written bundle: per version folder, the identifier and the entities with
  /// their attributes (`name:type:optional`) and relationships (`name>destination/inverse`).
  static let readBundle = """
    import json, os, sys, plistlib, xml.etree.ElementTree as ET
    b = sys.argv[1]
    out = {"current": plistlib.load(open(os.path.join(b, ".xccurrentversion"), "rb"))["_XCCurrentVersionName"],
           "order": open(os.path.join(b, ".mapc-version-order")).read().split(), "versions": {}}
    for v in sorted(os.listdir(b)):
        if not v.endswith(".xcdatamodel"): continue
        m = ET.parse(os.path.join(b, v, "contents")).getroot()
        ents = {}
        for e in m.findall("entity"):
            ents[e.get("name")] = sorted(
                ["%s:%s:%s:%s" % (a.get("name"), a.get("attributeType"), a.get("optional", "NO"), a.get("elementID", "")) for a in e.findall("attribute")]
                + ["%s>%s/%s" % (r.get("name"), r.get("destinationEntity"), r.get("inverseName", "")) for r in e.findall("relationship")])
        out["versions"][v] = {"identifier": m.get("userDefinedModelVersionIdentifier"), "entities": ents}
    print(json.dumps(out, sort_keys=True))
    """

  @Test func modelWritesOneVersionPerVersionedSchema() throws {
    let folder = try TemporaryFolder()
    try folder.write("Notes.swift", Self.versioned)
    let bundle = folder.path + "/Notes.xcdatamodeld"
    let r = runMapc(["model", folder.path + "/Notes.swift", "-o", bundle])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let py = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.readBundle, bundle])
    try #require(py.exitCode == 0, "\(py.stderr)")
    let got = try #require(try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as? [String: Any])
    #expect(got["current"] as? String == "NotesV2.xcdatamodel")
    #expect(got["order"] as? [String] == ["NotesV1", "NotesV2"])
    let versions = try #require(got["versions"] as? [String: [String: Any]])
    #expect(versions["NotesV1.xcdatamodel"]?["identifier"] as? String == "1.0.0")
    #expect(versions["NotesV2.xcdatamodel"]?["identifier"] as? String == "2.0.0")
    let v1 = versions["NotesV1.xcdatamodel"]?["entities"] as? [String: [String]]
    #expect(v1 == ["Note": ["text:String:NO:"]])
    let v2 = versions["NotesV2.xcdatamodel"]?["entities"] as? [String: [String]]
    #expect(
      v2 == [
        "Note": ["body:String:NO:text", "folder>Folder/notes"],
        "Folder": ["name:String:NO:", "notes>Note/folder"],
      ])
  }

  @Test func swiftSourceIsAModelWhereverOneIsTaken() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(atPath: folder.path + "/Schema", withIntermediateDirectories: true)
    try folder.write("Schema/Notes.swift", Self.versioned)
    let bundle = folder.path + "/Notes.xcdatamodeld"
    try #require(runMapc(["model", folder.path + "/Schema", "-o", bundle]).exitCode == 0)
    // The same model from the folder of Swift files and from the bundle written of it.
    for version in ["NotesV1", "NotesV2"] {
      let fromSwift = runMapc(["hash", folder.path + "/Schema", "--model-version", version])
      let fromBundle = runMapc(["hash", bundle, "--model-version", version])
      #expect(fromSwift.exitCode == 0, "\(fromSwift.stderr)")
      #expect(
        fromSwift.stdout.split(separator: "\n").dropFirst() == fromBundle.stdout.split(separator: "\n").dropFirst())
    }
    let diff = runMapc(["diff", folder.path + "/Schema/Notes.swift", "--from", "NotesV1", "--to", "NotesV2"])
    #expect(diff.exitCode == 0, "\(diff.stderr)")
    #expect(diff.stdout.contains("Folder"), "\(diff.stdout)")
  }

  @Test func badSwiftIsRefusedAtItsPlace() throws {
    let folder = try TemporaryFolder()
    try folder.write("Bad.swift", "@Model final class A {\n  var x: Int = \n}\n")
    let r = runMapc(["model", folder.path + "/Bad.swift", "-o", folder.path + "/Out.xcdatamodeld"])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains(folder.path + "/Bad.swift:2:16: error: "), "\(r.stderr)")
    #expect(r.stderr.contains("[swift-syntax]"))
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/Out.xcdatamodeld"))
    try folder.write("Odd.swift", "@Model final class A {\n  var scores: [String: Int] = [:]\n  init() {}\n}\n")
    let odd = runMapc(["hash", folder.path + "/Odd.swift"])
    #expect(odd.exitCode == 1)
    #expect(odd.stderr.contains(folder.path + "/Odd.swift:2:7: error: "), "\(odd.stderr)")
    #expect(odd.stderr.contains("[swift-unsupported-type]"))
  }

  @Test func severalVersionsNeedABundle() throws {
    let folder = try TemporaryFolder()
    try folder.write("Notes.swift", Self.versioned)
    let r = runMapc(["model", folder.path + "/Notes.swift", "-o", folder.path + "/Notes.xcdatamodel"])
    #expect(r.exitCode == 64)
    #expect(r.stderr.contains("[usage-model-output]"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/Notes.xcdatamodel"))
  }
}
