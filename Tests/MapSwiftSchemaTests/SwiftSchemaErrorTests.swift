import MapRuntime
import MapSwiftSchema
import Testing

/// Swift source that is no schema mapc can read: each is refused with its diagnostic id at the
/// line and column of the cause (counted by hand in the texts below, 1-based).
@Suite struct SwiftSchemaErrorTests {
  static func errors(_ text: String) -> [Diagnostic] {
    do {
      _ = try SwiftSchema.read(sources: [(path: "Bad.swift", text: text)], name: "Bad")
      return []
    } catch {
      return error.diagnostics
    }
  }

  static func place(_ d: Diagnostic?) -> String {
    guard let l = d?.location else { return "none" }
    return "\(l.file):\(l.line):\(l.column)"
  }

  @Test func syntaxError() {
    let found = Self.errors("@Model final class A {\n  var x: Int = \n}\n")
    #expect(found.map(\.id) == ["swift-syntax"])
    // Where the missing value belongs: after `= ` on line 2.
    #expect(Self.place(found.first) == "Bad.swift:2:16")
    #expect(found.first?.message.contains("expected") == true)
  }

  /// `#Unique` and `#Index` name stored properties of the class (Swift would not compile a key
  /// path to none), each once in a group, and no element of a composite.
  @Test func indexesAndConstraintsNameStoredProperties() {
    for (macro, message) in [
      ("#Index<A>([\\.nope])", "names 'nope', which is no stored property of A"),
      ("#Unique<A>([\\.a, \\.a])", "names a property twice in one group"),
      ("#Index<A>([\\.s.x])", "names 's.x', an element of a composite"),
    ] {
      let found = Self.errors(
        """
        struct S: Codable { var x: Int }
        @Model final class A {
          \(macro)
          var a: Int = 0
          var s: S?
          init() {}
        }
        """)
      #expect(found.map(\.id) == ["swift-attribute-argument"], "\(macro)")
      #expect(found.first?.message.contains(message) == true, "\(found.first?.message ?? "")")
    }
  }

  @Test func unsupportedTypes() {
    let found = Self.errors(
      """
      enum Shape: Codable { case circle(Double) }
      @Model final class A {
        var scores: [String: Int]
        var pair: (Int, Int)
        var shape: Shape
        var tags: Set<String>
        init() {}
      }
      """)
    #expect(found.map(\.id) == Array(repeating: "swift-unsupported-type", count: 4))
    #expect(found.map(Self.place) == ["Bad.swift:3:7", "Bad.swift:4:7", "Bad.swift:5:7", "Bad.swift:6:7"])
    #expect(found[2].message.contains("associated values"))
  }

  @Test func unknownAndUntypedProperties() {
    let found = Self.errors(
      """
      @Model final class A {
        var where: Location
        var made = makeIt()
        init() {}
      }
      """.replacingOccurrences(of: "where", with: "place"))
    #expect(found.map(\.id) == ["swift-unknown-type", "swift-untyped-property"])
    #expect(found.map(Self.place) == ["Bad.swift:2:7", "Bad.swift:3:7"])
  }

  @Test func badArgumentsAndInverses() {
    let found = Self.errors(
      """
      let prefix = "old"
      @Model final class A {
        @Attribute(originalName: prefix) var x: Int
        @Attribute(.sparkly) var y: Int
        init() {}
      }
      """)
    #expect(found.map(\.id) == ["swift-attribute-argument", "swift-attribute-argument"])
    #expect(found.map(Self.place) == ["Bad.swift:3:28", "Bad.swift:4:14"])
    let inverse = Self.errors(
      """
      @Model final class A {
        @Relationship(inverse: \\B.nothing) var b: B?
        init() {}
      }
      @Model final class B { var a: A?; init() {} }
      """)
    #expect(inverse.map(\.id) == ["swift-unknown-inverse"])
    #expect(inverse.map(Self.place) == ["Bad.swift:2:42"])
  }

  @Test func noModelAndBadVersions() {
    #expect(Self.errors("struct Nothing {}").map(\.id) == ["swift-no-model"])
    let found = Self.errors(
      """
      enum V1: VersionedSchema {
        static var versionIdentifier = Schema.Version(1, 0, 0)
        static var models: [any PersistentModel.Type] { [Missing.self] }
      }
      enum V2: VersionedSchema {
        static var versionIdentifier = Schema.Version(major, 0, 0)
        static var models: [any PersistentModel.Type] { [] }
      }
      """)
    #expect(found.map(\.id) == ["swift-schema-version", "swift-schema-version"])
    #expect(found.map(Self.place) == ["Bad.swift:3:51", "Bad.swift:6:34"])
  }

  @Test func duplicateEntityInOneVersion() {
    let found = Self.errors(
      """
      enum V1: VersionedSchema {
        static var versionIdentifier = Schema.Version(1, 0, 0)
        static var models: [any PersistentModel.Type] { [Item.self, Other.Item.self] }
        @Model final class Item { init() {} }
      }
      enum Other { @Model final class Item { init() {} } }
      """)
    #expect(found.map(\.id) == ["swift-duplicate-entity"])
    #expect(Self.place(found.first) == "Bad.swift:6:33")
  }
}
