import Foundation
import MapTestSupport
import Testing

/// Mappings/notes is authored as text (NotesV1ToV2.xml) and shipped as an Xcode mapping model
/// (NotesV1ToV2.xcmappingmodel, made by `mapc export`). The worked-example fixture runs the
/// `.xcmappingmodel`; these tests keep the two files in step.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct XcodeWorkedExampleTests {
  static let notes = SharedPaths.packageRoot.appendingPathComponent("Mappings/notes")
  static let xml = notes.appendingPathComponent("NotesV1ToV2.xml")
  static let model = notes.appendingPathComponent("NotesV1ToV2.xcmappingmodel")

  /// Re-exporting the XML gives the committed file, but for the policy class: the committed
  /// file is the export as mapc wrote it before it knew which functions a device lacks, kept so
  /// (NoteToNote calls mapc's `defaultValue:for:`) as the example `mapc lint` reports with
  /// `lint-device-unknown-function`. Today's export needs `--policy-source` and names the
  /// generated class in NoteToNote; without that line (and the store UUID, a digest of the
  /// content) the two are byte for byte the same. The export records the model paths relative
  /// to the folder that holds the `.xcmappingmodel`, so it is made in a copy of the example
  /// folder (the XML and the model bundle), never in the working tree.
  @Test func theCommittedMappingModelIsTheExportOfTheXML() throws {
    let work = try FileManagerTemp.folder("notes-export")
    defer { FileManagerTemp.remove(work.path) }
    let fm = FileManager.default
    for name in ["NotesV1ToV2.xml", "Notes.xcdatamodeld"] {
      try fm.copyItem(at: Self.notes.appendingPathComponent(name), to: work.appendingPathComponent(name))
    }
    let exported = work.appendingPathComponent("NotesV1ToV2.xcmappingmodel")
    let result = runMapc([
      "export", work.appendingPathComponent("NotesV1ToV2.xml").path, "-o", exported.path, "--policy-source",
      work.appendingPathComponent("Policies.swift").path,
    ])
    #expect(result.exitCode == 0, "\(result.stderr)")
    let policyLine =
      "        <attribute name=\"migrationpolicyclassname\" type=\"string\">NotesV1ToV2MapcPolicy</attribute>\n"
    let exportedText = try String(contentsOf: exported.appendingPathComponent("xcmapping.xml"), encoding: .utf8)
    #expect(exportedText.components(separatedBy: policyLine).count == 2, "one entity mapping names the class")
    func withoutUUID(_ text: String) -> Data {
      Data(
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("        <UUID>") }
          .joined(separator: "\n").utf8)
    }
    let got = withoutUUID(exportedText.replacingOccurrences(of: policyLine, with: ""))
    let want = withoutUUID(
      try String(contentsOf: Self.model.appendingPathComponent("xcmapping.xml"), encoding: .utf8))
    #expect(
      got == want,
      "Mappings/notes/NotesV1ToV2.xcmappingmodel is out of date (\(firstDifference(got, want))); export NotesV1ToV2.xml with --policy-source, then remove the migrationpolicyclassname line and keep the UUID"
    )
    // The folder holds xcmapping.xml and nothing else.
    #expect(try fm.contentsOfDirectory(atPath: Self.model.path) == ["xcmapping.xml"])
  }

  /// The XML and the `.xcmappingmodel` compile to the same plan (without source positions,
  /// which name the file each came from).
  @Test func theXMLAndTheMappingModelCompileToTheSamePlan() throws {
    let work = try FileManagerTemp.folder("notes-plans")
    defer { FileManagerTemp.remove(work.path) }
    let fromXML = work.appendingPathComponent("xml.cdm").path
    let fromModel = work.appendingPathComponent("xcmappingmodel.cdm").path
    let a = runMapc(["compile", "--quiet", "--no-source-positions", Self.xml.path, "-o", fromXML])
    let b = runMapc(["compile", "--quiet", "--no-source-positions", Self.model.path, "-o", fromModel])
    #expect(a.exitCode == 0, "\(a.stderr)")
    #expect(b.exitCode == 0, "\(b.stderr)")
    // No warning either way (model drift, implicit mappings, export artefacts).
    #expect(a.stderr.isEmpty && b.stderr.isEmpty, "\(a.stderr)\(b.stderr)")
    let planA = try #require(FileManager.default.contents(atPath: fromXML))
    let planB = try #require(FileManager.default.contents(atPath: fromModel))
    #expect(planA == planB)
    // With positions they differ only because each names its own file.
    let dump = runMapc(["dump", Self.model.path])
    #expect(dump.stdout.hasPrefix("plan NotesV1ToV2\n"))
    #expect(dump.stdout.contains("NotesV1ToV2.xcmappingmodel/xcmapping.xml"))
  }
}
