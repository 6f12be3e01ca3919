import SwiftData

/// The app's container: the schema names Item only; the other entities are reached through
/// its relationships.
enum Store {
  static let schema = Schema([Item.self])

  static func container() throws -> ModelContainer {
    try ModelContainer(for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: false))
  }
}
