import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// Which entities of a plan may go a chunk at a time (`StreamingPlan`), on the diary fixture's
/// mapping and on variants of it that each break one rule; expectations written by hand from
/// the rules of `Specs/limits.md` ("Memory").
@Suite(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct StreamingPlanTests {
  /// The diary mapping with `edit` applied to its text, compiled next to the fixture's models.
  func analysed(_ edit: (String) -> String) throws -> StreamingPlan {
    let diary = SharedPaths.fixtures!.appendingPathComponent("diary")
    let text = try String(contentsOf: diary.appendingPathComponent("SQADMappingModel1_2.xml"), encoding: .utf8)
    let work = try FileManagerTemp.folder("streaming-plan")
    defer { FileManagerTemp.remove(work.path) }
    try FileManager.default.createSymbolicLink(
      at: work.appendingPathComponent("SimpleQADiary.xcdatamodeld"),
      withDestinationURL: diary.appendingPathComponent("SimpleQADiary.xcdatamodeld"))
    let path = work.appendingPathComponent("m.xml")
    let edited = edit(text)
    try edited.write(to: path, atomically: false, encoding: .utf8)
    let compiled = MappingCompilation.compile(mappingPath: path.path)
    let plan = try #require(compiled.plan, "\(compiled.diagnostics)")
    return StreamingPlan(plan, usesDefaultPolicy: plan.entityMappings.map { _ in true })
  }

  @Test func theDiaryStreamsBothEntities() throws {
    let s = try analysed { $0 }
    #expect(s.streamed == ["Questions", "Records"], "\(s.reasons)")
  }

  @Test func aRandomValueKeepsItsEntityWhole() throws {
    let s = try analysed {
      $0.replacingOccurrences(
        of: #"<attribute name="templateName">"Default"</attribute>"#,
        with: #"<attribute name="templateName">CAST(random(), "NSString")</attribute>"#)
    }
    #expect(s.streamed == ["Questions"])
    #expect(s.reasons["Records"]?.contains("random") == true, "\(s.reasons)")
  }

  @Test func anotherEntitysMappingAskingForItsObjectsKeepsItWhole() throws {
    let s = try analysed {
      $0.replacingOccurrences(
        of: #"<attribute name="name">"Default"</attribute>"#,
        with:
          #"<attribute name="name">CAST(count:(FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "RecordsToDayRecord", $source)), "NSString")</attribute>"#
      )
    }
    #expect(!s.streamed.contains("Records"))
    #expect(s.reasons["Records"]?.contains("QuestionsToTemplate") == true, "\(s.reasons)")
  }

  @Test func aLookUpOfAnotherObjectKeepsItWhole() throws {
    let s = try analysed {
      $0.replacingOccurrences(
        of: #""RecordsToDayRecord", $source)</relationship>"#,
        with: #""RecordsToDayRecord", $source.questions)</relationship>"#)
    }
    #expect(!s.streamed.contains("Records"))
    #expect(s.reasons["Records"]?.contains("RecordsToSectionRecord") == true, "\(s.reasons)")
  }

  @Test func aFetchKeepsItWhole() throws {
    let s = try analysed {
      $0.replacingOccurrences(
        of: #"<attribute name="sortField">$source.date</attribute>"#,
        with:
          #"<attribute name="sortField">CAST(FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Records", "TRUEPREDICATE"), $manager.sourceContext, YES), "NSString")</attribute>"#
      )
    }
    #expect(!s.streamed.contains("Records"))
    #expect(s.reasons["Records"]?.contains("fetch") == true, "\(s.reasons)")
  }
}
