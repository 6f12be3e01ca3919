import Foundation

/// Custom migration policies by class name. Core Data finds policies through the Objective-C
/// runtime; Swift on Linux has none, so an executable registers its policies before it runs
/// a plan.
public enum PolicyRegistry {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var byName: [String: EntityMigrationPolicy.Type] = [:]

  /// Registers under the module-qualified name (`App.LegacyToModernPolicy`, from
  /// `String(reflecting:)`) and under any extra names given.
  public static func register(_ type: EntityMigrationPolicy.Type, as names: String...) {
    lock.lock()
    defer { lock.unlock() }
    byName[String(reflecting: type)] = type
    for n in names { byName[n] = type }
  }

  /// The policy class for a name as written in a mapping. An exact match wins; a bare class
  /// name also finds a registered `Module.Name` when exactly one module has that class.
  public static func lookup(_ name: String) -> EntityMigrationPolicy.Type? {
    lock.lock()
    defer { lock.unlock() }
    if let t = byName[name] { return t }
    if !name.contains(".") {
      let matches = byName.filter { $0.key.hasSuffix("." + name) }
      let types = Set(matches.values.map { ObjectIdentifier($0) })
      if types.count == 1 { return matches.first?.value }
    }
    return nil
  }

  /// Every registered name, sorted.
  public static var registeredNames: [String] {
    lock.lock()
    defer { lock.unlock() }
    return byName.keys.sorted()
  }
}
