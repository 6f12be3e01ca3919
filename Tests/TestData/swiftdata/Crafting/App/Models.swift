#if canImport(SwiftData) && os(iOS)
  import Foundation
  import SwiftData

  @Model
  final class Component {
    var id: UUID = UUID()
    var count: Int = 1
    var item: Item?
    var craftingRecipe: CraftingRecipe?
    #if DEBUG
      var debugLabel: String = ""
    #endif
    init() {}
  }

  @Model
  final class Item {
    @Attribute(.unique) var name: String = ""
    @Relationship(inverse: \CraftingRecipe.producedItem) var craftingRecipe: CraftingRecipe?
    #if os(Linux)
      var linuxOnly: Int = 0
    #endif
    init() {}
  }

  @Model
  final class CraftingRecipe {
    var producedItemCount: String = "1"
    var producedItem: Item?
    var requiredComponents: [Component] = []
    init() {}
  }
#endif
