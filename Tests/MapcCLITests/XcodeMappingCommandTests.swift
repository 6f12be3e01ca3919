import Foundation
import MapTestSupport
import Testing

/// Every command that takes a mapping takes an Xcode `.xcmappingmodel` (the folder or its
/// `xcmapping.xml`), run as a user would, with the corpus's real files.
@Suite(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct XcodeMappingCommandTests {
  static let billmoss =
    SharedPaths.corpus?
    .appendingPathComponent(
      "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model1ToModel2.xcmappingmodel"
    ).path ?? ""
  static let uncloud =
    SharedPaths.corpus?
    .appendingPathComponent("ElijahButers/UnCloudNotes-App/UnCloudNotes").path ?? ""

  @Test(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
  func compileDumpImportAndExportAsAUserWould() throws {
    let folder = try FileManagerTemp.folder("xcmap-cli")
    defer { FileManagerTemp.remove(folder.path) }
    let plan = folder.appendingPathComponent("a.cdm").path
    let compiled = runMapc(["compile", Self.billmoss, "-o", plan, "--no-source-positions"])
    #expect(compiled.exitCode == 0, "\(compiled.stderr)")
    #expect(FileManager.default.fileExists(atPath: plan))

    // dump takes the plan, the folder and the xcmapping.xml alike.
    for target in [plan, Self.billmoss, Self.billmoss + "/xcmapping.xml"] {
      let dump = runMapc(["dump", target])
      #expect(dump.exitCode == 0, "\(dump.stderr)")
      #expect(dump.stdout.hasPrefix("plan Model1ToModel2\n"))
      #expect(dump.stdout.contains("timeBudget = $source.content.length * 0.2"))
    }

    let imported = folder.appendingPathComponent("Model1ToModel2.xml").path
    #expect(runMapc(["import", Self.billmoss, "-o", imported]).exitCode == 0)
    let viaText = folder.appendingPathComponent("b.cdm").path
    #expect(runMapc(["compile", imported, "-o", viaText, "--no-source-positions"]).exitCode == 0)
    #expect(FileManager.default.contents(atPath: plan) == FileManager.default.contents(atPath: viaText))

    let exported = folder.appendingPathComponent("Model1ToModel2.xcmappingmodel").path
    let export = runMapc(["export", imported, "-o", exported])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let again = folder.appendingPathComponent("c.cdm").path
    #expect(runMapc(["compile", exported, "-o", again, "--no-source-positions"]).exitCode == 0)
    #expect(FileManager.default.contents(atPath: plan) == FileManager.default.contents(atPath: again))
  }

  @Test(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
  func wrongInputsGetTheDocumentedExitCodes() throws {
    let folder = try FileManagerTemp.folder("xcmap-cli-bad")
    defer { FileManagerTemp.remove(folder.path) }
    let notXcode = SharedPaths.packageRoot.appendingPathComponent("Mappings/shop/ShopV1ToV2.xml").path
    let imported = runMapc(["import", notXcode, "-o", folder.appendingPathComponent("x.xml").path])
    #expect(imported.exitCode == 1)
    #expect(imported.stderr.contains("[xcmap-root]"))
    let badTarget = runMapc(["export", notXcode, "-o", folder.appendingPathComponent("x.xml").path])
    #expect(badTarget.exitCode == 64)
    // A mapping with an error is not compiled, and says where (the tutorial's real mistake).
    let failing = runMapc([
      "compile", Self.uncloud + "/UnCloudNotesMappingModel_v2_to_v3.xcmappingmodel", "-o",
      folder.appendingPathComponent("p.cdm").path,
    ])
    #expect(failing.exitCode == 1)
    #expect(
      failing.stderr.contains(
        "UnCloudNotesMappingModel_v2_to_v3.xcmappingmodel/xcmapping.xml:119:55: error: mapping NoteToNote creates Note objects, but relationship attachments holds Attachment objects [map-mapping-destination-mismatch]"
      ))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("p.cdm").path))
  }

  /// Lint finds mapping models in folders and points SARIF results into xcmapping.xml.
  @Test(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
  func lintFindsMappingModelsAndReportsThemInSARIF() throws {
    let result = runMapc(
      ["lint", "UnCloudNotes", "--format", "sarif"], in: URL(fileURLWithPath: Self.uncloud).deletingLastPathComponent())
    #expect(result.exitCode == 1)
    let sarif = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.count == 1)
    let location = try #require(
      ((results.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
    let artifact = try #require(location["artifactLocation"] as? [String: Any])
    #expect(artifact["uri"] as? String == "UnCloudNotes/UnCloudNotesMappingModel_v2_to_v3.xcmappingmodel/xcmapping.xml")
    #expect(artifact["uriBaseId"] as? String == "SRCROOT")
    #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 119)
    #expect(results.first?["ruleId"] as? String == "map-mapping-destination-mismatch")
  }
}
