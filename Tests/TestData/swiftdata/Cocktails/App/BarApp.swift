import SwiftData
import SwiftUI

@main
struct BarApp: App {
  var body: some Scene {
    WindowGroup { Text("Bar") }
      .modelContainer(for: [Cocktail.self, Ingredient.self])
  }
}
