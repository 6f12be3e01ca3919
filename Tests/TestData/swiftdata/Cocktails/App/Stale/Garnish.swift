import SwiftData

/// An old Garnish kept for reference; not in the app's target.
@Model
final class Garnish {
  var label: String = ""
  init() {}
}
