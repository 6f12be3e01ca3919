import Foundation
import SwiftData

@Model
final class Item {
  @Attribute(.unique) var name: String = ""
  @Relationship(inverse: \CraftingRecipe.producedItem) var craftingRecipe: CraftingRecipe?
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
  init() {}
}
