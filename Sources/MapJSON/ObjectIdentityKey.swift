import MapRuntime

/// The key of a JSON store object that holds its id. Version 1 of the format calls it `id`,
/// which a model may also use as a property name (SwiftData models nearly always do): a store
/// of such a model is written as version 2, whose objects hold their id under `@id`, a name no
/// Core Data property can have (Xcode's property names are letters, digits and underscores).
/// Readers take `@id` in any store, and `id` as the id wherever the entity has no property
/// of that name. Every other store is written as version 1, byte for byte as before.
enum ObjectIdentityKey {
  static let version1: StaticString = "id"
  static let version2: StaticString = "@id"

  /// The key that holds ids of `entity`'s objects when reading.
  static func key(for entity: EntityLayout) -> StaticString {
    entity.propertyIndex("\(version1)") == nil ? version1 : version2
  }

  /// Whether a store of this layout needs version 2.
  static func needsVersion2(_ layout: StoreLayout) -> Bool {
    layout.entities.contains { $0.propertyIndex("\(version1)") != nil }
  }

  static func formatVersion(_ layout: StoreLayout) -> Int64 { needsVersion2(layout) ? 2 : 1 }

  static func writtenKey(_ layout: StoreLayout) -> String { "\(needsVersion2(layout) ? version2 : version1)" }
}
