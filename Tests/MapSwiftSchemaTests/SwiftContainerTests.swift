import Foundation
import MapRuntime
import MapSwiftSchema
import MapTestSupport
import Testing

/// Which classes a schema without versions holds: those the model container's declaration
/// reaches (Specs/swiftdata-schema.md §1), and hostile declarations (unknown types, cycles,
/// huge lists). Expected entity sets are written out by hand from the Swift text.
@Suite struct SwiftContainerTests {
  static func read(_ texts: [String], conditions: SwiftBuildConditions = SwiftBuildConditions()) throws
    -> SwiftSchema
  {
    try SwiftSchema.read(
      sources: texts.enumerated().map { (path: "File\($0.offset).swift", text: $0.element) }, name: "Schema",
      conditions: conditions)
  }

  static func entities(_ schema: SwiftSchema) -> [String] {
    schema.versions[0].model.entities.map(\.name).sorted()
  }

  static func errors(_ texts: [String]) -> [Diagnostic] {
    do throws(SwiftSchemaError) {
      _ = try SwiftSchema.read(
        sources: texts.enumerated().map { (path: "File\($0.offset).swift", text: $0.element) }, name: "Schema")
      return []
    } catch {
      return error.diagnostics.filter { $0.severity == .error }
    }
  }

  static let models = """
    import SwiftData
    @Model final class Trip { var name = ""; var stops: [Stop] = []; var guide: Guide?; init() {} }
    @Model final class Stop { var place = ""; var trip: Trip?; var next: Stop?; init() {} }
    @Model final class Guide { var trips: [Trip]? = []; init() {} }
    @Model final class Stale { var tags: Set<String> = []; init() {} }
    @Model final class Other { var name = ""; init() {} }
    """

  @Test(arguments: [
    "let c = try ModelContainer(for: Trip.self)",
    "let c = try ModelContainer(for: Trip.self, configurations: ModelConfiguration())",
    "let c = try SwiftData.ModelContainer.init(for: [Trip.self])",
    "let s = Schema([Trip.self]); let c = try ModelContainer(for: s)",
    "struct A: App { var body: some Scene { WindowGroup { V() }.modelContainer(for: Trip.self, inMemory: true) } }",
    "struct A: App { var body: some Scene { WindowGroup { V() }.modelContainer(for: [Trip.self]) } }",
  ])
  func containerDeclarationsChooseTheReachedClasses(_ declaration: String) throws {
    let schema = try Self.read([Self.models, declaration])
    // Trip leads to Stop (array, with a cycle back and a self-reference) and Guide (optional).
    #expect(Self.entities(schema) == ["Guide", "Stop", "Trip"])
    let notes = schema.warnings.filter { $0.severity == .note }
    #expect(notes.map(\.message).sorted().map { $0.prefix(18) } == ["@Model class Other", "@Model class Stale"])
    #expect(
      notes.compactMap { $0.location.map { "\($0.file):\($0.line)" } }.sorted() == ["File0.swift:5", "File0.swift:6"])
  }

  @Test func severalTypesAndSeveralDeclarationsAreTheirUnion() throws {
    let schema = try Self.read([
      Self.models, "let a = try ModelContainer(for: Stop.self, Other.self)", "let b = Schema([Guide.self])",
    ])
    #expect(Self.entities(schema) == ["Guide", "Other", "Stop", "Trip"])
  }

  @Test func withoutAContainerEveryClassIsReadAndANoteSaysSo() throws {
    let errors = Self.errors([Self.models])
    // Stale's Set<String> stops the schema, as before containers were read.
    #expect(errors.map(\.id) == ["swift-unsupported-type"])
    let schema = try Self.read([
      "import SwiftData\n@Model final class A { var b: B?; init() {} }\n@Model final class B { init() {} }"
    ])
    #expect(Self.entities(schema) == ["A", "B"])
    #expect(schema.warnings.contains { $0.severity == .note && $0.message.hasPrefix("no model container declaration") })
  }

  @Test func aContainerThroughAValueOnlyIsAllClasses() throws {
    let schema = try Self.read([
      "import SwiftData\n@Model final class A { init() {} }\n@Model final class B { init() {} }",
      "func make(_ s: Schema) throws -> ModelContainer { try ModelContainer(for: s) }",
    ])
    #expect(Self.entities(schema) == ["A", "B"])
    #expect(schema.warnings.contains { $0.severity == .note && $0.message.contains("through a value") })
  }

  @Test func aContainerNamingAnUnknownTypeIsAnErrorAtItsPlace() throws {
    let errors = Self.errors([Self.models, "\n  let c = try ModelContainer(for: Trip.self, Nowhere.self)"])
    #expect(errors.map(\.id) == ["swift-container-type"])
    #expect(errors.first?.location == SourceLocation(file: "File1.swift", line: 2, column: 46))
    #expect(errors.first?.message.contains("'Nowhere'") == true)
    // A type that is declared but is no @Model class, beside one that is.
    let plain = Self.errors([Self.models + "\nstruct Value {}", "let s = Schema([Trip.self, Value.self])"])
    #expect(plain.map(\.id) == ["swift-container-type"])
  }

  /// A `Schema(...)` of no model at all is another library's: a note, and the other declarations.
  @Test func aSchemaOfNoModelIsNotSwiftDatas() throws {
    let models = "import SwiftData\n@Model final class A { init() {} }\n@Model final class B { init() {} }"
    let other = "struct Field {}\nlet graph = Schema([Field.self, Elsewhere.self])"
    let alone = try Self.read([models, other])
    #expect(Self.entities(alone) == ["A", "B"])
    #expect(alone.warnings.contains { $0.message.hasPrefix("this Schema(...) names no @Model class") })
    #expect(alone.warnings.contains { $0.message.hasPrefix("no model container declaration") })
    let withContainer = try Self.read([models, other, "let c = try ModelContainer(for: B.self)"])
    #expect(Self.entities(withContainer) == ["B"])
  }

  @Test func cyclesEndAndAHugeListIsRead() throws {
    var text = "import SwiftData\n"
    for i in 0..<300 {
      text += "@Model final class C\(i) { var next: C\((i + 1) % 300)?; var all: [C\(i)] = []; init() {} }\n"
    }
    text += "let s = Schema([" + (0..<20_000).map { "C\($0 % 300).self" }.joined(separator: ", ") + "])\n"
    let clock = ContinuousClock()
    let start = clock.now
    let schema = try Self.read([text])
    #expect(schema.versions[0].model.entities.count == 300)
    #expect(clock.now - start < .seconds(60))
  }

  @Test func deepIfNestingIsBounded() throws {
    func nested(_ depth: Int) -> String {
      "import SwiftData\nenum A { struct B { enum C {\n" + String(repeating: "#if canImport(SwiftData)\n", count: depth)
        + "@Model final class Deep { init() {} }\n" + String(repeating: "#endif\n", count: depth) + "} } }\n"
    }
    #expect(Self.entities(try Self.read([nested(16)])) == ["Deep"])
    let errors = Self.errors([nested(17)])
    #expect(errors.map(\.id) == ["swift-too-deep"])
    #expect(errors.first?.location?.line == 19)
    #expect(Self.errors([nested(5000)]).map(\.id) == ["swift-too-deep"])
  }

  @Test func anIfConditionThatCannotBeEvaluatedIsAnError() throws {
    let errors = Self.errors(["import SwiftData\n#if someFunction(x)\n@Model final class A { init() {} }\n#endif"])
    #expect(errors.map(\.id) == ["swift-if-condition"])
    #expect(errors.first?.location?.line == 2)
  }
}
