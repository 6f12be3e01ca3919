import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

/// The writer's bytes for a tiny plan, compared with bytes assembled by hand from
/// Specs/plan-format.md, so the spec and the code cannot drift apart unnoticed.
@Suite struct PlanLayoutTests {
  static let plan = MigrationPlan(
    name: "N", mappingPath: "m.xml",
    sourceModel: ObjectModel(entities: [], versionIdentifiers: ["1"]),
    destinationModel: ObjectModel(
      entities: [
        EntityDescription(name: "E", attributes: [AttributeDescription(name: "a", type: .string, isOptional: true)])
      ],
      versionIdentifiers: ["1"]),
    sourceEntityHashes: [],
    destinationEntityHashes: [EntityHash(entity: "E", hash: [UInt8](repeating: 0xAA, count: 32))],
    entityMappings: [
      EntityMapping(
        name: "M", type: .add, sourceEntity: nil, destinationEntity: "E",
        forEach: CompiledExpression(
          Expression(.constant(.integer(1))),
          source: ExpressionSource(text: "1", location: SourceLocation(file: "m.xml", line: 3, column: 12))),
        attributeMappings: [
          PropertyMapping(
            name: "a",
            valueExpression: CompiledExpression(
              Expression(
                .keyPath(base: .variable("source", span: SourceSpan(start: 0, end: 7)), components: ["a"]),
                span: SourceSpan(start: 0, end: 9))))
        ])
    ])

  static let body: [UInt8] = {
    func utf8(_ s: String) -> [UInt8] { [UInt8(s.utf8.count)] + Array(s.utf8) }
    // Strings in order of first use: 0 N, 1 m.xml, 2 "1", 3 E, 4 a, 5 M, 6 source.
    let strings: [UInt8] =
      [7] + utf8("N") + utf8("m.xml") + utf8("1") + utf8("E") + utf8("a") + utf8("M") + utf8("source")
    let planInfo: [UInt8] = [0, 1, 0]  // name, mapping path, no user info
    // entities: none; version identifiers: ["1"]; no templates, no configurations; no version name, no path
    let sourceModel: [UInt8] = [0, 1, 2, 0, 0, 0, 0]
    let attribute: [UInt8] =
      [4, 8, 1]  // name "a", type String (tag 8), optional
      + [UInt8](repeating: 0, count: 22)  // every other flag false, every optional absent, no user info
    let entity: [UInt8] =
      [3, 0, 0, 0, 0, 0, 0]  // name "E", no class, no parent, not abstract, no renaming id/modifier, no user info
      + [1] + attribute + [0, 0, 0, 0, 0, 0]  // 1 attribute; no relationships, … no location
    let destinationModel: [UInt8] = [1] + entity + [1, 2, 0, 0, 0, 0]
    let sourceHashes: [UInt8] = [0]
    let destinationHashes: [UInt8] = [1, 3, 32] + [UInt8](repeating: 0xAA, count: 32)
    let mapping: [UInt8] =
      // "M", add (2), no source, destination "E", no policy, no user info, no source expression
      [5, 2, 0, 1, 3, 0, 0, 0]
      + [1, 1, 1, 1, 3, 2]  // forEach: span (-1, -1), constant, integer 1
      + [1, 2, 1, 6, 24]  // its source: text "1", m.xml:3:12
      + [1, 4, 1]  // 1 attribute mapping "a", with an expression
      + [0, 18, 4]  // span (0, 9), key path
      + [0, 14, 3, 6]  // base: span (0, 7), variable "source"
      + [1, 4]  // components ["a"]
      + [0, 0, 0]  // no expression source; no user info; no location
      + [0, 0]  // no relationship mappings, no location
    let mappings: [UInt8] = [1] + mapping
    let predicates: [UInt8] = [0]  // no precompiled predicates
    var body: [UInt8] = []
    for (tag, payload) in [
      strings, planInfo, sourceModel, destinationModel, sourceHashes, destinationHashes, mappings, predicates,
    ].enumerated() {
      body += [UInt8(tag + 1), UInt8(payload.count)] + payload
    }
    return body
  }()

  @Test func bodyMatchesTheSpec() {
    let file = PlanWriter.encode(Self.plan)
    #expect(Array(file[52...]) == Self.body)
  }

  @Test func headerMatchesTheSpec() {
    let file = PlanWriter.encode(Self.plan)
    #expect(Array(file[0..<8]) == Array("\u{89}CDM\r\n\u{1a}\n".unicodeScalars.map { UInt8($0.value) }))
    #expect(Array(file[8..<12]) == [1, 0, 0, 0])
    #expect(Array(file[12..<20]) == [UInt8(Self.body.count), 0, 0, 0, 0, 0, 0, 0])
    #expect(Array(file[20..<52]) == PlanFormat.checksum(of: Self.body))
    #expect(file.count == 52 + Self.body.count)
  }

  @Test func handAssembledBodyDecodes() throws {
    let decoded = try PlanReader.decode(PlanWriter.encode(Self.plan))
    #expect(DeepDescription.differences(Self.plan, decoded) == [])
  }
}
