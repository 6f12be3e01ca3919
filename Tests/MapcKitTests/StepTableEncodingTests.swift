import Foundation
@testable import MapTools
@testable import MapRuntime
@testable import MapcKit
import Testing

/// `mapc migrate --plan --format json` and `--report` files were first written by Foundation's
/// JSON encoder; MapJSONText writes them now (issue 42). Foundation's encoder, with the options
/// mapc used, is the oracle: the same bytes for plans and reports that hold every kind of member
/// (nil and present optionals, empty arrays, escapes, `/`, non-ASCII text).
@Suite struct StepTableEncodingTests {
  /// What a `--report` file holds per step (RunReport's shape): counts and losses.
  struct Report: Encodable {
    var command = "migrate"
    var store = "/tmp/a b/store.sqlite"
    var output: String? = nil
    var steps: [Step]
    struct Step: Encodable {
      var from: String?
      var to: String?
      var mapping: String
      var objectsRead: Int
      var entityMappings: [MigrationManager.MappingCount]
      var dropped: [DataLoss]
    }
  }

  static func foundation(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }

  @Test func aPlanIsWrittenAsFoundationWroteIt() throws {
    let step = StepTable.Step(
      from: "V1", to: "V2 \"é\"/\t", mapping: "m.cdm",
      sourceEntities: [
        .init(
          name: "Note", objects: 3, fate: "migrated", mappings: ["NoteToNote"],
          properties: [
            .init(name: "title", kind: "attribute", fate: "renamed", to: "heading", count: 2, consentedLinks: nil),
            .init(name: "tags", kind: "relationship", fate: "dropped", to: nil, count: nil, consentedLinks: 1),
          ]),
        .init(name: "Empty", objects: nil, fate: "dropped", mappings: [], properties: []),
      ],
      destinationEntities: [.init(name: "Note", madeBy: [.init(mapping: "NoteToNote", source: nil)])],
      losses: nil, missingPolicyClasses: ["P\u{1}"], reverse: true)
    let plan = StepTable.Plan(store: "/s/😀.json", from: "V1", to: "V2", steps: [step, step])
    #expect(StepTable.encode(plan) == (try Self.foundation(plan)))
    let empty = StepTable.Plan(store: "", from: "", to: "", steps: [])
    #expect(StepTable.encode(empty) == (try Self.foundation(empty)))
  }

  @Test func aReportIsWrittenAsFoundationWroteIt() throws {
    let counts = MigrationManager.MappingCount(
      mapping: "A", sourceEntity: "Src", destinationEntity: nil, read: 4, used: 3, made: -1)
    let loss = DataLoss(entity: "Note", property: "body", isRelationship: false, count: 7, unfit: "Integer 16")
    let report = Report(
      steps: [
        .init(from: nil, to: "B", mapping: "x", objectsRead: 0, entityMappings: [counts], dropped: [loss]),
        .init(from: "A", to: nil, mapping: "y", objectsRead: Int.max, entityMappings: [], dropped: []),
      ])
    #expect(StepTable.encode(report) == (try Self.foundation(report)))
  }
}
