import Foundation
import MapTestSupport
import Testing

/// The model mapc reads from Swift source hashes like the store SwiftData wrote
/// (Specs/swiftdata-schema.md §7). The schemas below are this test's own: they declare the
/// entities, attributes and relationships the real stores' models hold (read from each store's
/// Z_MODELCACHE with python3 by hand), in code of their own (other type names for the Codable
/// values, inverses written or left to inference). The oracle is the store: its
/// `NSStoreModelVersionHashes`, read by python3 (`store_facts.py`: sqlite3 and plistlib).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SwiftSchemaStoreTests {
  static func storeHashes(_ store: URL) throws -> [String: String] {
    struct Facts: Decodable { var hashes: [String: String] }
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/store_facts.py")
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, store.path])
    try #require(r.exitCode == 0, "store_facts.py: \(r.stderr)")
    return try JSONDecoder().decode(Facts.self, from: Data(r.stdout.utf8)).hashes
  }

  static func mapcHashes(_ arguments: [String]) throws -> [String: String] {
    struct Hashes: Decodable { var entityVersionHashes: [String: String] }
    let r = runMapc(["hash"] + arguments + ["--format", "json"])
    try #require(r.exitCode == 0, "mapc hash: \(r.stderr)")
    return try JSONDecoder().decode(Hashes.self, from: Data(r.stdout.utf8)).entityVersionHashes
  }

  static let craftingSchema = """
    import Foundation
    import SwiftData

    @Model
    final class Item {
      @Attribute(.unique) var name: String = ""
      @Relationship(inverse: \\CraftingRecipe.producedItem) var craftingRecipe: CraftingRecipe?
      var label: String { "item " + name }
      init() {}
    }

    @Model
    final class Component {
      var id: UUID = UUID()
      var count: Int = 1
      var item: Item?
      var craftingRecipe: CraftingRecipe?
      init() {}
    }

    @Model
    final class CraftingRecipe {
      var producedItemCount: String = "1"
      var producedItem: Item?
      var requiredComponents: [Component] = []
      @Transient var draft = false
      init() {}
    }
    """

  static let cocktailSchema = """
    import SwiftData
    import SwiftUI

    struct Credit: Codable { var id = UUID(); var person: String?; var place: String?; var year: String? }
    struct Steps: Codable { var instructions: [String] }
    struct Labels: Codable {
      var flavors: [String]
      var profiles: [String]
      var styles: [String]
      var booze: [String]
      var nA: [String]
    }
    struct Recipe: Codable { var id = UUID(); var prepIngredientName: String; var prepRecipe: [Steps] }
    enum Shelf: Int, Codable { case first = 0, second }
    enum Glass: String, Codable { case coupe, rocks }
    enum Cube: String, Codable { case big, crushed }
    enum Twist: String, Codable { case yes, no }
    enum Measure: String, Codable { case oz, ml }
    enum Kind: String, Codable { case spirit, syrup }

    enum BarV1: VersionedSchema {
      static var versionIdentifier = Schema.Version(1, 0, 0)
      static var models: [any PersistentModel.Type] {
        [Cocktail.self, CocktailImage.self, Garnish.self, Ingredient.self, IngredientBase.self]
      }

      @Model final class Cocktail {
        #Index<Cocktail>([\\.cocktailName], [\\.collectionName], [\\.cocktailName, \\.collectionName])
        var id = UUID()
        @Attribute(.unique) var cocktailName: String
        var collectionName: String
        var author: Credit?
        var buildOrder: Steps?
        var collection: Shelf?
        var compiledTags: Labels
        var glasswareType: Glass
        var ice: Cube?
        var titleCocktail: Bool?
        var variation: Twist?
        var garnish: [Garnish]
        var imageAsset: CocktailImage?
        @Relationship(deleteRule: .cascade) var spec: [Ingredient]
        init() { fatalError() }
      }

      @Model final class CocktailImage {
        var backgroundColor: Color.Resolved
        var drinkColor: Color.Resolved
        var drinkLayer: String
        var garnishes: [String]?
        var glassBackLayer: String
        var glassReflection: String
        var iceLayer: String?
        var inDrinkComponents: [String]?
        var innerRim: String
        var straw: String?
        init() { fatalError() }
      }

      @Model final class Garnish {
        @Attribute(.unique) var name: String
        var cocktails: [Cocktail]?
        init() { fatalError() }
      }

      @Model final class Ingredient {
        var id: UUID
        var unit: Measure
        var value: Double
        var ingredientBase: IngredientBase
        init() { fatalError() }
      }

      @Model final class IngredientBase {
        var category: Kind
        var info: String?
        var isCustom: Bool
        @Attribute(.unique) var name: String
        var prep: Recipe?
        var tags: Labels?
        init() { fatalError() }
      }
    }
    """

  /// Real store `k` of `stores` with its `-wal` and `-shm`, as `default.store` in `folder`.
  static func copyStore(_ k: Int, into folder: TemporaryFolder) throws {
    let source = try #require(SharedPaths.swiftdata).appendingPathComponent(stores[k].store).path
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
      try FileManager.default.copyItem(atPath: source + suffix, toPath: folder.path + "/default.store" + suffix)
    }
  }

  static let stores: [(store: String, schema: String)] = [
    ("sergd2005+ResourcesManager/default.store", craftingSchema),
    ("MatthewHunt84+MetaCocktailsSwiftData/MetaCocktailsSwiftData/default.store", cocktailSchema),
  ]

  @Test(.needsShared, arguments: [0, 1]) func schemaHashesLikeTheRealStore(_ k: Int) throws {
    let root = try #require(SharedPaths.swiftdata)
    let store = root.appendingPathComponent(Self.stores[k].store)
    let expected = try Self.storeHashes(store)
    #expect(expected.count >= 3)
    let folder = try TemporaryFolder()
    try folder.write("Schema.swift", Self.stores[k].schema)
    let got = try Self.mapcHashes([folder.path + "/Schema.swift"])
    #expect(got == expected)
  }

  /// `store export --model Crafting.swift` reads every row with the model from Swift: the row
  /// counts are those SOURCES.md gives for the store (WAL applied).
  @Test(.needsShared) func storeExportWithTheSwiftSchema() throws {
    let folder = try TemporaryFolder()
    try Self.copyStore(0, into: folder)
    try folder.write("Crafting.swift", Self.craftingSchema)
    let out = folder.path + "/out.json"
    let r = runMapc([
      "store", "export", folder.path + "/default.store", "--model", folder.path + "/Crafting.swift", "-o", out,
    ])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
    let objects = try #require(json?["objects"] as? [String: [Any]])
    #expect(objects.mapValues(\.count) == ["Component": 5, "CraftingRecipe": 4, "Item": 7])
  }

  @Test(.needsShared) func storeInfoNamesTheSwiftSchemaVersion() throws {
    let folder = try TemporaryFolder()
    try Self.copyStore(0, into: folder)
    try folder.write("Crafting.swift", Self.craftingSchema)
    let r = runMapc(["store", "info", folder.path + "/default.store", "--model", folder.path + "/Crafting.swift"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stdout.contains("model version: Crafting"), "\(r.stdout)")
  }

  /// `store check` and `store repair` take the schema in Swift as `--model` (they made the Swift
  /// options' group in code, never parsed, and trapped reading it), and one version of a bundle
  /// (an `.xcdatamodel`, as their help says) as well as the bundle.
  @Test(.needsShared) func storeCheckAndRepairWithTheSwiftSchemaOrAModelVersion() throws {
    let folder = try TemporaryFolder()
    try Self.copyStore(0, into: folder)
    try folder.write("Crafting.swift", Self.craftingSchema)
    let store = folder.path + "/default.store"
    let check = runMapc(["store", "check", store, "--model", folder.path + "/Crafting.swift"])
    #expect(check.exitCode == 0, "\(check.stderr)")
    #expect(check.stderr.contains("0 errors, 0 warnings"), "\(check.stderr)")
    let repair = runMapc([
      "store", "repair", store, "--model", folder.path + "/Crafting.swift", "-o", folder.path + "/fixed.store",
    ])
    #expect(repair.exitCode == 0, "\(repair.stderr)")
    let model = runMapc(["model", folder.path + "/Crafting.swift", "-o", folder.path + "/Crafting.xcdatamodeld"])
    try #require(model.exitCode == 0, "\(model.stderr)")
    let versions = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/Crafting.xcdatamodeld")
      .filter { $0.hasSuffix(".xcdatamodel") }
    #expect(versions.count == 1)
    for version in versions {
      let one = runMapc(["store", "check", store, "--model", folder.path + "/Crafting.xcdatamodeld/" + version])
      #expect(one.exitCode == 0, "\(one.stderr)")
      #expect(one.stderr.contains("0 errors, 0 warnings"), "\(one.stderr)")
    }
  }
}
