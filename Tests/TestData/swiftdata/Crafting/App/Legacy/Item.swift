import SwiftData

/// A stale copy of Item, outside the app's target.
@Model
final class Item {
  var name: String = ""
  var weight: Double = 0
  init() {}
}
