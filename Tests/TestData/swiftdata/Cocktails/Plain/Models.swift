import Foundation
import SwiftData
import SwiftUI

@Model
final class Cocktail {
  #Index<Cocktail>([\.cocktailName], [\.collectionName], [\.cocktailName, \.collectionName])
  var id = UUID()
  @Attribute(.unique) var cocktailName: String
  var collectionName: String
  var author: Attribution?
  var buildOrder: Method?
  var collection: Section?
  var compiledTags: TagSet
  var glasswareType: Vessel
  var ice: Frozen?
  var titleCocktail: Bool?
  var variation: Riff?
  var garnish: [Garnish]
  var imageAsset: CocktailImage?
  @Relationship(deleteRule: .cascade) var spec: [Ingredient]
  init() { fatalError() }
}

@Model
final class CocktailImage {
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

@Model
final class Garnish {
  @Attribute(.unique) var name: String
  var cocktails: [Cocktail]?
  init() { fatalError() }
}

@Model
final class Ingredient {
  var id: UUID
  var unit: Amount
  var value: Double
  var ingredientBase: IngredientBase
  init() { fatalError() }
}

@Model
final class IngredientBase {
  var category: Category
  var info: String?
  var isCustom: Bool
  @Attribute(.unique) var name: String
  var prep: Preparation?
  var tags: TagSet?
  init() { fatalError() }
}
