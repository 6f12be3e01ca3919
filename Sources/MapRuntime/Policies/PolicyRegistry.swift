import Foundation

/// Custom migration policies by class name. Core Data finds policies through the Objective-C
/// runtime; Swift on Linux has none, so an executable registers its policies before it runs
/// a plan:
///
/// ```swift
/// PolicyRegistry.register(LegacyToModernPolicy.self)                   // "MyApp.LegacyToModernPolicy"
/// PolicyRegistry.register(LibraryPolicy.self, as: "SBLibraryPolicy")  // also an old Objective-C name
/// MapcCommand.main()
/// ```
public enum PolicyRegistry {
  /// The `run-unknown-policy` problems of a plan in this executable (a policy class a mapping
  /// names that is not registered, or ambiguous), found without running: `mapc migrate --plan`.
  package static func problems(_ plan: MigrationPlan) -> [MigrationError] {
    var problems: [MigrationError] = []
    _ = MappingPolicies.make(plan, &problems)
    return problems
  }

  /// A policy class a plan names that this executable cannot make (not registered, or an
  /// ambiguous name), with the entity mappings that name it, in plan order.
  package struct MissingClass: Sendable, Hashable {
    package var name: String
    package var mappings: [String]
    /// Where the first entity mapping naming it is.
    package var location: SourceLocation?
  }

  /// The policy classes `plan` names that this executable does not have (`run-unknown-policy`
  /// when run), each once, in the order of the entity mappings that first name them: what
  /// `mapc migrate --plan` and `mapc lint` of a bundle show instead of stopping.
  package static func missingClasses(_ plan: MigrationPlan) -> [MissingClass] {
    var result: [MissingClass] = []
    for m in plan.entityMappings {
      guard let name = m.policyName, MappingPolicies.policy(for: m, plan: plan).1 != nil else { continue }
      if let k = result.firstIndex(where: { $0.name == name }) {
        result[k].mappings.append(m.name)
      } else {
        result.append(MissingClass(name: name, mappings: [m.name], location: m.location))
      }
    }
    return result
  }

  /// What a policy name written in a mapping stands for.
  public enum Resolution: Sendable {
    case found(EntityMigrationPolicy.Type)
    /// A bare class name registered in more than one module: the qualified names it could be.
    case ambiguous([String])
    case missing
  }

  private static let lock = NSLock()
  // unsafe: read and written only under `lock`.
  nonisolated(unsafe) private static var byName: [String: EntityMigrationPolicy.Type] = [:]

  /// Registers under the module-qualified name (`App.LegacyToModernPolicy`, from
  /// `String(reflecting:)`) and under any extra names given. Registering a name again replaces
  /// the earlier class.
  public static func register(_ type: EntityMigrationPolicy.Type, as names: String...) {
    lock.lock()
    defer { lock.unlock() }
    byName[String(reflecting: type)] = type
    for n in names { byName[n] = type }
  }

  /// Removes a name (for tests that register policies of their own).
  public static func unregister(_ name: String) {
    lock.lock()
    defer { lock.unlock() }
    byName[name] = nil
  }

  /// The policy class for a name as written in a mapping. An exact match wins; a bare class
  /// name (no dot) also finds a registered `Module.Name` when exactly one class has that
  /// last component.
  public static func resolve(_ name: String) -> Resolution {
    lock.lock()
    defer { lock.unlock() }
    if let t = byName[name] { return .found(t) }
    guard !name.isEmpty, !name.contains(".") else { return .missing }
    let matches = byName.filter { $0.key.hasSuffix("." + name) }
    let types = Set(matches.values.map { ObjectIdentifier($0) })
    switch types.count {
    case 0: return .missing
    case 1: return .found(matches.first!.value)
    default: return .ambiguous(matches.keys.sorted())
    }
  }

  /// `resolve(_:)` when it finds exactly one class, else nil.
  public static func lookup(_ name: String) -> EntityMigrationPolicy.Type? {
    if case .found(let t) = resolve(name) { return t }
    return nil
  }

  /// The registered class whose name, written as an identifier (`DeviceFunctions.identifier`:
  /// `App.LegacyPolicy` as `App_LegacyPolicy`), is `identifier`; nil when none or several are.
  package static func registeredType(identifiedAs identifier: String) -> EntityMigrationPolicy.Type? {
    let names = registeredNames.filter { DeviceFunctions.identifier($0) == identifier }
    guard names.count == 1 else { return nil }
    return lookup(names[0])
  }

  /// Every registered name, sorted.
  public static var registeredNames: [String] {
    lock.lock()
    defer { lock.unlock() }
    return byName.keys.sorted()
  }
}
