import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import MapTools
import Testing

/// Every Xcode mapping model of `../shared/corpus`: compiled, linted (findings recorded here, so
/// a change shows), and imported into mapc's text format, which must compile to the same plan.
@Suite(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct XcodeCorpusTests {
  /// Per mapping model (path under the corpus): the lint findings, `line:rule`. Recorded from
  /// reading each file: the one error is a real mistake in that tutorial's mapping (Note.attachments
  /// filled with the Note made by NoteToNote), which Core Data would raise on at run time.
  static let expectedFindings: [String: [String]] = [
    "ElijahButers/UnCloudNotes-App/UnCloudNotes/UnCloudNotesMappingModel_v2_to_v3.xcmappingmodel": [
      "119:map-mapping-destination-mismatch"
    ],
    "ElijahButers/UnCloudNotes-App/UnCloudNotes/UnCloudNotesMappingModel_v3_to_v4.xcmappingmodel": [],
    "JohnEstropia/CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel":
      [],
    "JohnEstropia/CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel":
      ["50:lint-policy-without-module"],
    // apptentive's, each finding checked by reading the files: v1 to v2's ATSurveyResponse mapping
    // (line 85) and v5 to v6's QueuedRequest and QueuedAttachment (lines 75, 93) have no
    // sourcename, and are in the mapping model's entitymappings; v4 to v5 has no mapping whose
    // source is ATMessageDisplayType (nor a parent of it), and its sourceless ATMessage mapping
    // z123 is in no entitymappings list, so it is no finding. Every model file has the Integer 32
    // pendingState with defaultValueString="YES" (model-lenient-default, a line of the model
    // file): ATDataModel line 27, ATDataModel 2 line 7, 3 line 8, 4 line 9, 5 and 6 line 24;
    // files in path order ("ATDataModel 2.xcdatamodel" before "ATDataModel.xcdatamodel").
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel v1 to v2.xcmappingmodel": [
      "85:lint-unused-entity-mapping", "7:model-lenient-default", "27:model-lenient-default",
    ],
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel v2 to v3.xcmappingmodel": [
      "7:model-lenient-default", "8:model-lenient-default",
    ],
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel v3 to v4.xcmappingmodel": [
      "8:model-lenient-default", "9:model-lenient-default",
    ],
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel v4 to v5.xcmappingmodel": [
      "4:lint-source-entity-unread", "9:model-lenient-default", "24:model-lenient-default",
    ],
    "apptentive/apptentive-ios/Apptentive/Apptentive/Model/ATDataModel v5 to v6.xcmappingmodel": [
      "75:lint-unused-entity-mapping", "93:lint-unused-entity-mapping", "24:model-lenient-default",
      "24:model-lenient-default",
    ],
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model1ToModel2.xcmappingmodel": [
      "95:lint-optional-into-mandatory"
    ],
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model3ToModel4.xcmappingmodel": [],
    "billmoss/CoreDataMigrations-DefaultMigration/CoreDataMigration/Model4ToModel5.xcmappingmodel": [
      "60:lint-unused-entity-mapping", "92:lint-policy-without-module",
    ],
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model1ToModel2.xcmappingmodel": [
      "95:lint-optional-into-mandatory"
    ],
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model3ToModel4.xcmappingmodel": [],
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model4ToModel5-1.xcmappingmodel": [
      "60:lint-unused-entity-mapping", "93:lint-policy-without-module",
    ],
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model4ToModel5-2.xcmappingmodel": [
      "60:lint-unused-entity-mapping", "93:lint-policy-without-module",
    ],
    "billmoss/CoreDataMigrations-HybridMigration/CoreDataMigration/Model4ToModel5-3.xcmappingmodel": [
      "60:lint-unused-entity-mapping", "93:lint-policy-without-module",
    ],
    "jdspoone/CoreDataMigrationExample/CoreDataMigration/v1.0-to-v1.1.xcmappingmodel": [],
    "jdspoone/CoreDataMigrationExample/CoreDataMigration/v1.1-to-v1.2.xcmappingmodel": [
      "71:lint-unused-entity-mapping"
    ],
    "jdspoone/CoreDataMigrationExample/CoreDataMigration/v1.2-to-v1.3.xcmappingmodel": [],
    "objcio/core-data/Migrations/Migrations/Moody 2-Moody 3.xcmappingmodel": [],
    "objcio/core-data/Migrations/Migrations/Moody 3-Moody 4.xcmappingmodel": [],
    "objcio/core-data/Migrations/Migrations/Moody 4-Moody 5.xcmappingmodel": [],
    "objcio/core-data/Migrations/Migrations/Moody 5-Moody 6.xcmappingmodel": ["146:lint-unused-entity-mapping"],
    "wibosco/CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/Migration1to2.xcmappingmodel":
      [],
    "wibosco/CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/Migration2to3.xcmappingmodel":
      ["47:lint-unused-entity-mapping"],
    "wibosco/CoreDataMigrationRevised-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/Migration2to3ModelMapping.xcmappingmodel":
      ["84:lint-unused-entity-mapping"],
  ]

  static func path(_ relative: String) -> String { SharedPaths.corpus!.appendingPathComponent(relative).path }

  /// Every mapping model in the corpus (recorded or not), relative to the corpus.
  static var corpusMappingModels: [String] {
    guard let corpus = SharedPaths.corpus else { return [] }
    return SharedPaths.corpusMappingModelFiles.map {
      String($0.deletingLastPathComponent().path.dropFirst(corpus.path.count + 1))
    }
  }

  /// Every recorded mapping model is in the corpus (the corpus may hold more: those only have to
  /// pass `importCompilesToTheSamePlan` until they are recorded).
  @Test func theCorpusHoldsTheRecordedMappingModels() throws {
    let found = try FileManager.default.subpathsOfDirectory(atPath: SharedPaths.corpus!.path)
      .filter { $0.hasSuffix(".xcmappingmodel") }
    #expect(Set(Self.expectedFindings.keys).subtracting(found).isEmpty)
  }

  @Test(arguments: expectedFindings.keys.sorted())
  func compilesAndLintsAsRecorded(_ relative: String) throws {
    let path = Self.path(relative)
    let compiled = MappingCompilation.compile(mappingPath: path)
    let expected = Self.expectedFindings[relative]!
    let hasError = expected.contains { $0.contains(":map-") || $0.contains(":xcmap-") }
    #expect((compiled.plan != nil) == !hasError, "\(compiled.diagnostics)")
    // Both models came from the project's model files, and neither drifted from its snapshot.
    #expect(!compiled.diagnostics.contains { $0.id == "xcmap-model-drift" || $0.id.hasPrefix("xcmap-unknown") })
    let findings = Linter.lint(path: path).map { "\($0.diagnostic.location?.line ?? 0):\($0.ruleId)" }
    #expect(findings == expected)
    // Every diagnostic points into the mapping model's xcmapping.xml, but those about a model
    // (apptentive's lenient default), which point into that model's file.
    for d in compiled.diagnostics {
      let file = d.id.hasPrefix("model-") ? ".xcdatamodel/contents" : ".xcmappingmodel/xcmapping.xml"
      #expect(d.location?.file.hasSuffix(file) == true, "\(d)")
    }
    if let plan = compiled.plan {
      #expect(plan.name + ".xcmappingmodel" == (relative as NSString).lastPathComponent)
      let decoded = try PlanReader.decode(PlanWriter.encode(plan))
      #expect(decoded.entityMappings.count == plan.entityMappings.count)
    }
  }

  /// For every mapping model in the corpus, recorded or not.
  @Test(arguments: corpusMappingModels)
  func importCompilesToTheSamePlan(_ relative: String) throws {
    let folder = try FileManagerTemp.folder("import")
    defer { FileManagerTemp.remove(folder.path) }
    let output = folder.appendingPathComponent("Imported.xml").path
    let imported = XcodeImport.text(xcmappingPath: Self.path(relative), outputPath: output)
    let text = try #require(imported.text, "\(imported.diagnostics)")
    try Data(text.utf8).write(to: URL(fileURLWithPath: output))
    let direct = MappingCompilation.compile(mappingPath: Self.path(relative))
    let viaText = MappingCompilation.compile(mappingPath: output)
    if let a = direct.plan {
      let b = try #require(viaText.plan, "\(viaText.diagnostics)")
      #expect(PlanWriter.encode(a, sourcePositions: false) == PlanWriter.encode(b, sourcePositions: false))
    } else {
      #expect(viaText.plan == nil)
      #expect(
        direct.diagnostics.filter { $0.severity == .error }.map(\.id)
          == viaText.diagnostics.filter { $0.severity == .error }.map(\.id))
    }
  }

  /// The objc.io tests document the expression Xcode compiles for Mood.continent; the import
  /// writes it from the key path and mapping name fields.
  @Test func keyPathRelationshipsBecomeTheDocumentedExpression() throws {
    let compiled = MappingCompilation.compile(
      mappingPath: Self.path("objcio/core-data/Migrations/Migrations/Moody 2-Moody 3.xcmappingmodel"))
    let plan = try #require(compiled.plan)
    let mood = try #require(plan.entityMappings.first { $0.name == "MoodToMood" })
    let continent = try #require(mood.relationshipMappings.first { $0.name == "continent" })
    #expect(
      continent.valueExpression.map { "\($0.expression)" }
        == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "ContinentToContinent", $source.country.continent)"#
    )
    // mappingnumber order, not idrefs order.
    #expect(plan.entityMappings.map(\.name) == ["MoodToMood", "CountryToCountry", "ContinentToContinent"])
  }
}
