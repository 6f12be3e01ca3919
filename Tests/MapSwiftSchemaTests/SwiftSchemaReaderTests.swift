import MapRuntime
import MapSwiftSchema
import Testing

/// Reading `@Model` classes into Core Data models (Specs/swiftdata-schema.md §§2–5). The
/// expected values are Core Data's own names for what SwiftData documents (attribute types,
/// optionality, delete rules) and, for composites and indexes, what SwiftData wrote into the
/// model caches of real stores (`../shared/swiftdata`, read with python3 by hand).
@Suite struct SwiftSchemaReaderTests {
  static func read(_ text: String, name: String = "Schema") throws -> SwiftSchema {
    try SwiftSchema.read(sources: [(path: "Schema.swift", text: text)], name: name)
  }

  static func entity(_ schema: SwiftSchema, _ name: String, version: Int = 0) throws -> EntityDescription {
    try #require(schema.versions[version].model.entity(named: name))
  }

  @Test func primitiveTypesMapToCoreDataTypes() throws {
    let schema = try Self.read(
      """
      import SwiftData
      @Model final class Sample {
        var text: String
        var count: Int
        var small: Int16
        var medium: Int32
        var large: Int64
        var ratio: Double
        var fraction: Float
        var flag: Bool
        var when: Date
        var blob: Data
        var key: UUID
        var link: URL
        var amount: Decimal
        var note: String?
        var maybe: Optional<Int>
        init() {}
      }
      """)
    let e = try Self.entity(schema, "Sample")
    let types = Dictionary(uniqueKeysWithValues: e.attributes.map { ($0.name, $0.type.rawValue) })
    #expect(
      types == [
        "text": "String", "count": "Integer 64", "small": "Integer 16", "medium": "Integer 32", "large": "Integer 64",
        "ratio": "Double", "fraction": "Float", "flag": "Boolean", "when": "Date", "blob": "Binary", "key": "UUID",
        "link": "URI", "amount": "Decimal", "note": "String", "maybe": "Integer 64",
      ])
    let optional = Set(e.attributes.filter(\.isOptional).map(\.name))
    #expect(optional == ["note", "maybe"])
    #expect(schema.versions.count == 1)
    #expect(schema.versions[0].identifier == "1.0.0")
    #expect(schema.versions[0].model.versionIdentifiers == ["1.0.0"])
    #expect(schema.versions[0].name == "Schema")
  }

  /// An extension of a type alias extends the aliased type, as in Swift: the types declared in
  /// it are the aliased type's, through a chain of aliases too (RogyMD/remember:
  /// `typealias ItemModel = SchemaLatest.ItemModel`, `typealias SchemaLatest = SchemaV1`,
  /// `extension ItemModel { public struct Point: Codable … }`).
  @Test func anExtensionThroughATypeAlias() throws {
    let schema = try Self.read(
      """
      import SwiftData
      typealias Item = Latest.Item
      typealias Latest = V1
      enum V1: VersionedSchema {
        static var versionIdentifier = Schema.Version(1, 0, 0)
        static var models: [any PersistentModel.Type] { [Item.self] }
        @Model final class Item {
          var center: Point
          var kind: Kind
          init() {}
        }
      }
      extension Item {
        struct Point: Codable { var x: Double; var y: Double }
        enum Kind: String, Codable { case a, b }
      }
      """)
    let attributes = try Self.entity(schema, "Item").attributes
    let center = try #require(attributes.first { $0.name == "center" })
    #expect(center.type == .composite)
    #expect(center.compositeElements.map(\.name) == ["x", "y"])
    #expect(center.compositeElements.map(\.type) == [.double, .double])
    let kind = try #require(attributes.first { $0.name == "kind" })
    #expect(kind.type == .composite)
    #expect(kind.compositeElements.map(\.name) == ["kind"])
  }

  /// String literals read as Swift reads them: `\u{…}` escapes, multi-line and raw strings
  /// (a default and a renaming identifier), and an inverse named by a qualified key path
  /// (`\V1.B.a`, as PlantMama writes `\PlantSchemaV2.Reminder.plant`).
  @Test func literalsAsSwiftReadsThemAndQualifiedInverses() throws {
    let schema = try Self.read(
      #"""
      import SwiftData
      enum V1: VersionedSchema {
        static var versionIdentifier = Schema.Version(1, 0, 0)
        static var models: [any PersistentModel.Type] { [A.self, B.self] }
        @Model final class A {
          var e: String = "caf\u{E9}"
          @Attribute(originalName: "old\u{E9}") var renamed: String = ""
          var multi: String = """
            line1
              line2
            """
          var raw: String = #"a\nb"#
          @Relationship(inverse: \V1.B.a) var bs: [B] = []
          init() {}
        }
        @Model final class B {
          var a: A?
          init() {}
        }
      }
      """#)
    let a = try Self.entity(schema, "A")
    #expect(a.attribute(named: "e")?.defaultValueString == "caf\u{E9}")
    #expect(a.attribute(named: "renamed")?.renamingIdentifier == "old\u{E9}")
    #expect(a.attribute(named: "multi")?.defaultValueString == "line1\n  line2")
    #expect(a.attribute(named: "raw")?.defaultValueString == "a\\nb")
    #expect(a.relationships.first { $0.name == "bs" }?.inverseName == "a")
  }

  /// A chain of distinct structs within structs is a nested composite however long (up to 32);
  /// a struct that contains itself through another is refused as such, and a chain of 40 is
  /// `swift-too-deep`.
  @Test func structsWithinStructs() throws {
    func chain(_ n: Int, back: Bool = false) -> String {
      (0..<n).map { "struct S\($0): Codable { var v: Int; var next: S\($0 + 1)? }" }.joined(separator: "\n")
        + "\nstruct S\(n): Codable { var v: Int\(back ? "; var loop: S0?" : "") }\n"
        + "@Model final class M { var s: S0; init() {} }\n"
    }
    var depth = 0
    var element = try #require(try Self.read(chain(20)).versions[0].model.entity(named: "M")?.attribute(named: "s"))
    while let next = element.compositeElements.first(where: { $0.name == "next" }) {
      depth += 1
      element = next
    }
    #expect(depth == 20)
    for (text, id) in [(chain(3, back: true), "swift-unsupported-type"), (chain(40), "swift-too-deep")] {
      #expect(throws: SwiftSchemaError.self) { try Self.read(text) }
      do {
        _ = try Self.read(text)
      } catch let error as SwiftSchemaError {
        #expect(error.diagnostics.map(\.id) == [id])
        #expect(error.diagnostics.first?.message.contains(",,") == false)
      }
    }
  }

  @Test func typesFromInitialValuesAndDefaults() throws {
    let schema = try Self.read(
      """
      @Model class Note {
        var title = "Untitled"
        var pages = 3
        var weight = -1.5
        var done = false
        let id = UUID()
        var created = Date.now
        var tags = [String]()
        init() {}
      }
      """)
    let e = try Self.entity(schema, "Note")
    let byName = Dictionary(uniqueKeysWithValues: e.attributes.map { ($0.name, $0) })
    #expect(byName["title"]?.type == .string)
    #expect(byName["title"]?.defaultValueString == "Untitled")
    #expect(byName["pages"]?.type == .integer64)
    #expect(byName["pages"]?.defaultValueString == "3")
    #expect(byName["weight"]?.type == .double)
    #expect(byName["weight"]?.defaultValueString == "-1.5")
    #expect(byName["done"]?.type == .boolean)
    #expect(byName["done"]?.defaultValueString == "NO")
    #expect(byName["id"]?.type == .uuid)
    #expect(byName["created"]?.type == .date)
    #expect(byName["tags"]?.type == .transformable)
    #expect(byName["tags"]?.customClassName == "Array<String>")
    #expect(e.attributes.map(\.name) == ["title", "pages", "weight", "done", "id", "created", "tags"])
  }

  @Test func computedStaticAndTransientPropertiesAreNotStored() throws {
    let schema = try Self.read(
      """
      @Model final class Trip {
        var name: String
        var label: String { name.uppercased() }
        var shout: String { get { name } set { name = newValue } }
        static var sample = Trip()
        @Transient var scratch = 0
        var watched: Int = 0 { didSet { print(watched) } }
        var a, b: Double
        init() {}
      }
      """)
    let e = try Self.entity(schema, "Trip")
    #expect(e.attributes.map(\.name) == ["name", "watched", "a", "b"])
    #expect(e.attribute(named: "a")?.type == .double)
  }

  @Test func attributeOptionsUniqueIndexesAndHashModifiers() throws {
    let schema = try Self.read(
      """
      @Model final class Photo {
        #Unique<Photo>([\\.album, \\.position])
        #Index<Photo>([\\.album], [\\.album, \\.position])
        @Attribute(.unique) var code: String
        @Attribute(.externalStorage) var pixels: Data
        @Attribute(originalName: "caption") var title: String
        @Attribute(hashModifier: "v2") var position: Int
        @Attribute(.preserveValueOnDeletion) var album: String
        @Attribute(.ephemeral) var cache: String?
        @Attribute(.transformable(by: ColorTransformer.self)) var tint: UIColor?
        init() {}
      }
      """)
    let e = try Self.entity(schema, "Photo")
    #expect(e.uniquenessConstraints == [["code"], ["album", "position"]])
    #expect(e.attribute(named: "pixels")?.allowsExternalBinaryDataStorage == true)
    #expect(e.attribute(named: "title")?.renamingIdentifier == "caption")
    #expect(e.attribute(named: "position")?.versionHashModifier == "v2")
    #expect(e.attribute(named: "album")?.preservesValueInHistoryOnDeletion == true)
    #expect(e.attribute(named: "cache")?.isTransient == true)
    // A type of another module is fine behind a value transformer.
    let tint = try #require(e.attribute(named: "tint"))
    #expect(tint.type == .transformable && tint.isOptional)
    #expect(tint.valueTransformerName == "ColorTransformer")
    // The index names SwiftData wrote in a real store's model: "SwiftDataIndexOnBinary" + names.
    #expect(e.fetchIndexes.map(\.name) == ["SwiftDataIndexOnBinaryalbum", "SwiftDataIndexOnBinaryalbumposition"])
    #expect(e.compoundIndexes == [["album", "position"]])
  }

  @Test func relationshipsAndInverses() throws {
    let schema = try Self.read(
      """
      @Model final class Shelf {
        @Relationship(deleteRule: .cascade, inverse: \\Book.home) var books: [Book] = []
        var favourite: Book?
        var next: Shelf?
        init() {}
      }
      @Model final class Book {
        var home: Shelf?
        var author: Writer
        var coauthors: [Writer]?
        init() {}
      }
      @Model final class Writer {
        var works: [Book] = []
        var agent: Agent?
        @Relationship(minimumModelCount: 1, maximumModelCount: 5) var pens: [Pen] = []
        init() {}
      }
      @Model final class Agent { var clients: [Writer] = []; init() {} }
      @Model final class Pen { init() {} }
      """)
    let shelf = try Self.entity(schema, "Shelf")
    let books = try #require(shelf.relationship(named: "books"))
    #expect(books.isToMany && !books.isOptional && books.deleteRule == .cascade)
    #expect(books.inverseName == "home" && books.inverseEntity == "Book")
    #expect(books.minCount == 0 && books.maxCount == 0)
    // Shelf has two relationships to Book: only the one named as an inverse pairs.
    #expect(shelf.relationship(named: "favourite")?.inverseName == nil)
    #expect(shelf.relationship(named: "favourite")?.maxCount == 1)
    // A relationship to its own entity is not paired with itself.
    #expect(shelf.relationship(named: "next")?.inverseName == nil)
    let book = try Self.entity(schema, "Book")
    #expect(book.relationship(named: "home")?.inverseName == "books")
    let author = try #require(book.relationship(named: "author"))
    #expect(!author.isOptional && !author.isToMany && author.maxCount == 1 && author.minCount == 0)
    // Book has two relationships to Writer and Writer one back: ambiguous, none inferred.
    #expect(author.inverseName == nil)
    #expect(book.relationship(named: "coauthors")?.inverseName == nil)
    let writer = try Self.entity(schema, "Writer")
    #expect(writer.relationship(named: "works")?.inverseName == nil)
    // One each way, no inverse written: SwiftData pairs them.
    #expect(writer.relationship(named: "agent")?.inverseName == "clients")
    let agent = try Self.entity(schema, "Agent")
    #expect(agent.relationship(named: "clients")?.inverseName == "agent")
    let pens = try #require(writer.relationship(named: "pens"))
    #expect(pens.minCount == 1 && pens.maxCount == 5)
    #expect(pens.deleteRule == .nullify)
  }

  @Test func codableStructsAndEnumsAreComposites() throws {
    let schema = try Self.read(
      """
      struct Address: Codable {
        var street: String
        var number: Int
        var lines: [String]
        var geo: Point?
      }
      struct Point: Codable { var x: Double; var y: Double }
      enum Mood: String, Codable { case happy, sad }
      enum Level: Int, Codable { case low, high }
      enum Side: Codable { case left, right }
      @Model final class Person {
        var home: Address
        var work: Address?
        var mood: Mood
        var level: Level?
        var side: Side
        init() {}
      }
      """)
    let e = try Self.entity(schema, "Person")
    let home = try #require(e.attribute(named: "home"))
    #expect(home.type == .composite && !home.isOptional)
    #expect(home.compositeElements.map(\.name) == ["street", "number", "lines", "geo"])
    #expect(home.compositeElements.map(\.type) == [.string, .integer64, .binary, .composite])
    // SwiftData writes every element of a struct optional (real store: Prep's non-optional
    // `prepIngredientName: String` is an optional element).
    #expect(home.compositeElements.allSatisfy { $0.isOptional })
    #expect(home.compositeElements[3].compositeElements.map(\.name) == ["x", "y"])
    #expect(e.attribute(named: "work")?.isOptional == true)
    let mood = try #require(e.attribute(named: "mood"))
    #expect(mood.type == .composite && !mood.isOptional)
    #expect(mood.compositeElements.map(\.name) == ["mood"])
    #expect(mood.compositeElements.map(\.type) == [.string])
    #expect(mood.userInfo["EnumType"] == "YES")
    #expect(e.attribute(named: "level")?.compositeElements.map(\.type) == [.integer64])
    #expect(e.attribute(named: "side")?.compositeElements.map(\.name) == ["left", "right"])
  }

  @Test func versionedSchemasAreVersionsInPlanOrder() throws {
    let schema = try Self.read(
      """
      enum TripsV2: VersionedSchema {
        static var versionIdentifier = Schema.Version(2, 1, 0)
        static var models: [any PersistentModel.Type] { [Trip.self, Stop.self] }
        @Model final class Trip { var name: String; var stops: [Stop] = []; init() {} }
        @Model final class Stop { var place: String; var trip: Trip?; init() {} }
      }
      enum TripsV1: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
        static var models: [any PersistentModel.Type] { [TripsV1.Trip.self] }
      }
      extension TripsV1 {
        @Model final class Trip { var title: String; init() {} }
      }
      enum Plan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self] }
        static var stages: [MigrationStage] { [] }
      }
      @Model final class Leftover { var x = 0; init() {} }
      """)
    #expect(schema.versions.map(\.name) == ["TripsV1", "TripsV2"])
    #expect(schema.versions.map(\.identifier) == ["1.0.0", "2.1.0"])
    #expect(schema.order == "the migration plan Plan")
    #expect(schema.versions[0].model.entities.map(\.name) == ["Trip"])
    #expect(schema.versions[0].model.entity(named: "Trip")?.attributes.map(\.name) == ["title"])
    #expect(schema.versions[1].model.entities.map(\.name) == ["Trip", "Stop"])
    let stop = try Self.entity(schema, "Stop", version: 1)
    #expect(stop.relationship(named: "trip")?.inverseName == "stops")
    #expect(schema.warnings.map(\.id) == ["swift-model-outside-schema"])
  }

  @Test func versionsWithoutAPlanGoByIdentifier() throws {
    let schema = try Self.read(
      """
      enum B: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 10, 0)
        static var models: [any PersistentModel.Type] { [Item.self] }
        @Model final class Item { var a = 0; init() {} }
      }
      enum A: VersionedSchema {
        static let versionIdentifier = Schema.Version(1, 9, 0)
        static var models: [any PersistentModel.Type] { [Item.self] }
        @Model final class Item { var b = 0; init() {} }
      }
      """)
    #expect(schema.versions.map(\.name) == ["A", "B"])
  }
}
