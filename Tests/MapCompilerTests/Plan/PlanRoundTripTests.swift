import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

@Suite struct PlanRoundTripTests {
  @Test func fullPlanRoundTripsInEveryField() throws {
    let bytes = PlanWriter.encode(SamplePlans.full)
    let decoded = try PlanReader.decode(bytes)
    #expect(DeepDescription.differences(SamplePlans.full, decoded) == [])
  }

  @Test func smallPlanRoundTripsInEveryField() throws {
    let decoded = try PlanReader.decode(PlanWriter.encode(SamplePlans.small))
    #expect(DeepDescription.differences(SamplePlans.small, decoded) == [])
    #expect(decoded == SamplePlans.small)  // (the full sample holds NaNs, which are never ==)
  }

  @Test func encodingIsDeterministic() throws {
    let first = PlanWriter.encode(SamplePlans.full)
    let second = PlanWriter.encode(SamplePlans.full)
    #expect(first == second)
    // Re-encoding what was read gives the same bytes again.
    let third = PlanWriter.encode(try PlanReader.decode(first))
    #expect(first == third)
  }

  /// The deep comparison would hide bugs if it missed spans, string spellings or -0.0.
  @Test func deepComparisonSeesSpansSpellingsAndSignedZero() {
    var moved = SamplePlans.small
    let expr = moved.entityMappings[0].attributeMappings[0].valueExpression!
    moved.entityMappings[0].attributeMappings[0].valueExpression = CompiledExpression(
      Expression(expr.expression.kind, span: SourceSpan(start: 1, end: 22)), source: expr.source)
    #expect(moved == SamplePlans.small)  // `==` ignores spans…
    #expect(!DeepDescription.differences(SamplePlans.small, moved).isEmpty)  // …this does not.

    var respelled = SamplePlans.small
    respelled.name = "caf\u{e9}"
    var decomposed = SamplePlans.small
    decomposed.name = "cafe\u{301}"
    #expect(respelled.name == decomposed.name)
    #expect(!DeepDescription.differences(respelled, decomposed).isEmpty)

    #expect(!DeepDescription.differences(Expression.Constant.double(0.0), Expression.Constant.double(-0.0)).isEmpty)
  }

  /// Strings that Swift considers equal but that are spelled differently keep their own bytes.
  @Test func canonicallyEquivalentStringsKeepTheirBytes() throws {
    var plan = SamplePlans.small
    plan.name = "caf\u{e9}"
    plan.mappingPath = "cafe\u{301}"
    let decoded = try PlanReader.decode(PlanWriter.encode(plan))
    #expect(Array(decoded.name.utf8) == Array("caf\u{e9}".utf8))
    #expect(Array(decoded.mappingPath.utf8) == Array("cafe\u{301}".utf8))
  }

  /// The sample must exercise every optional field present at least once, so the round trip
  /// covers each of them; a field added later without a sample value shows up here.
  @Test func fullSampleSetsEveryOptionalField() {
    let fields = DeepDescription.optionalFields(of: SamplePlans.full)
    // A default value of a class mapc cannot read, kept from a store's model cache so that a
    // store written with that model keeps it (Specs/sqlite-store.md §7.2), is not part of a plan:
    // plans are compiled from Xcode models, and a cached model is only ever a step's source,
    // whose defaults a run does not use.
    let notInPlans: Set = ["AttributeDescription.archivedDefaultValue"]
    let neverSet = fields.filter { !$0.value && !notInPlans.contains($0.key) }.map(\.key).sorted()
    #expect(neverSet == [])
    #expect(fields["AttributeDescription.customClassName"] == true)
    #expect(fields["CompiledExpression.source"] == true)
    #expect(fields.count >= 35)
  }

  @Test func fullSampleHoldsEveryEnumCase() {
    var seen: [String: Set<String>] = [:]
    func note(_ kind: String, _ value: Any) { seen[kind, default: []].insert(DeepDescription.caseName(value)) }
    DeepDescription.forEachValue(in: SamplePlans.full) { value in
      switch value {
      case let e as Expression: note("expression", e.kind)
      case let c as Expression.Constant: note("constant", c)
      case let s as Expression.Subscript: note("subscript", s)
      case let o as Expression.SetOperator: note("set operator", o)
      case let p as Predicate: note("predicate", p.kind)
      case let c as Comparison:
        note("operator", c.op)
        note("modifier", c.modifier)
        note("options", c.options.rawValue)
      case let c as ModelConstant: note("model constant", c)
      case let a as AttributeDescription: note("attribute type", a.type)
      case let r as RelationshipDescription: note("delete rule", r.deleteRule)
      case let m as EntityMapping: note("mapping type", m.type)
      case let f as FetchRequestTemplate: note("result type", f.resultType)
      default: break
      }
    }
    let expected: [String: Set<String>] = [
      "expression": [
        "constant", "evaluatedObject", "variable", "keyPath", "index", "function", "selector",
        "aggregate", "fetch", "cast", "ternary", "subquery", "assignment", "setOperation",
      ],
      "constant": ["null", "bool", "integer", "double", "decimal", "string"],
      "subscript": ["expression", "first", "last", "size"],
      "set operator": ["union", "intersect", "minus"],
      "predicate": ["constant", "not", "and", "or", "comparison"],
      "operator": Set(ComparisonOperator.allCases.map { "\($0)" }),
      "modifier": Set(ComparisonModifier.allCases.map { "\($0)" }),
      "options": ["0", "1", "2", "4", "7"],
      "model constant": ["integer", "double", "decimal", "boolean", "string", "date", "binary"],
      "attribute type": Set(AttributeType.allCases.map { "\($0)" }),
      "delete rule": Set(DeleteRule.allCases.map { "\($0)" }),
      "mapping type": Set(EntityMappingType.allCases.map { "\($0)" }),
      "result type": ["managedObjects", "objectIDs", "dictionaries"],
    ]
    for (kind, cases) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(
        seen[kind, default: []].isSuperset(of: cases),
        "\(kind): missing \(cases.subtracting(seen[kind, default: []]).sorted())")
    }
  }

  @Test func decodedModelsAnswerLookUpsByName() throws {
    let decoded = try PlanReader.decode(PlanWriter.encode(SamplePlans.full))
    #expect(decoded.destinationModel.entity(named: "Person")?.name == "Person")
    #expect(decoded.destinationModel.entityIndex(named: "Record") == 3)
    #expect(decoded.entityMapping(named: "AddLibrary")?.type == .add)
  }

  @Test func writeAndReadAFile() throws {
    let path = FileManagerTemp.path("plan-\(#line).cdm")
    defer { FileManagerTemp.remove(path) }
    try PlanWriter.write(SamplePlans.full, to: path)
    let bytes = try PlanReader.readBytes(path)
    #expect(DeepDescription.differences(SamplePlans.full, try PlanReader.decode(bytes)) == [])
    // Read from its file, relative paths are taken as relative to the plan's folder
    // (Specs/plan-format.md §4, "File paths").
    let resolved = try PlanReader.read(contentsOf: path)
    #expect(resolved.mappingPath == PlanReader.folder(of: path) + "/" + SamplePlans.full.mappingPath)
    #expect(resolved.entityMappings.count == SamplePlans.full.entityMappings.count)
  }
}
