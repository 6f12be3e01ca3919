/// Which of the functions mapc runs also exist on an iPhone or a Mac, where Core Data runs an
/// exported mapping model (`mapc export`) itself: a table keyed by name beside the function
/// tables (`KnownFunctions`), which `DeviceFunctionsTests` keeps in step with them.
///
/// A function the device lacks makes Core Data stop the migration with "unrecognized selector"
/// (or an unknown-function exception) unless the app implements it: `mapc export` refuses such a
/// mapping or writes, with `--policy-source`, the policy class that implements each
/// (`PolicySourceWriter`); `mapc lint` reports each in an `.xcmappingmodel`
/// (`lint-device-unknown-function`).
package enum DeviceFunctions {
  /// Where a function comes from.
  package enum Origin: Sendable, Equatable {
    /// Apple's: the device has it. The text says where it is declared.
    case apple(String)
    /// mapc's own: the device lacks it. The text says what to use instead, when anything.
    case mapc(String)

    package var onDevice: Bool {
      if case .apple = self { return true }
      return false
    }
  }

  /// NSExpression's built-in functions (`name:(args)`): the list in the comment of
  /// NSExpression.h (`expressionForFunction:arguments:`), `random:` of its documentation, the
  /// functions `CAST` and indexing compile to, and `canonical:`, which Core Data's own derived
  /// attributes use. All are on the device; an entry `.mapc` would make export and lint report
  /// the function.
  package static let builtins: [String: Origin] = {
    var table: [String: Origin] = [:]
    let header =
      "sum: count: min: max: average: median: mode: stddev: add:to: from:subtract: multiply:by: divide:by: modulus:by: sqrt: log: ln: raise:toPower: exp: floor: ceiling: abs: trunc: uppercase: lowercase: random randomn: now bitwiseAnd:with: bitwiseOr:with: bitwiseXor:with: leftshift:by: rightshift:by: onesComplement: noindex: distanceToLocation:fromLocation: length:"
    for name in header.split(separator: " ") { table[String(name)] = .apple("NSExpression.h") }
    table["canonical:"] = .apple("NSExpression (private; Core Data's derived attributes use it)")
    table["castObject:toType:"] = .apple("NSExpression: what CAST(value, type) is")
    table["objectFrom:withIndex:"] = .apple("NSExpression: what collection[index] is")
    table["random:"] = .apple("NSExpression's documentation")
    return table
  }()

  /// `FUNCTION($manager, …)`: NSMigrationManager's methods (those Xcode's own mapping models
  /// call, and key-value coding).
  package static let manager: [String: Origin] = [
    "destinationInstancesForEntityMappingNamed:sourceInstances:": .apple("NSMigrationManager"),
    "sourceInstancesForEntityMappingNamed:destinationInstances:": .apple("NSMigrationManager"),
    "destinationInstancesForSourceRelationshipNamed:sourceInstances:": .apple(
      "NSMigrationManager (Xcode's relationship mappings)"),
    "fetchRequestForSourceEntityNamed:predicateString:": .apple("NSMigrationManager (Xcode's source fetch)"),
    "fetchRequestForDestinationEntityNamed:predicateString:": .apple("NSMigrationManager"),
    "valueForKey:": .apple("NSObject (key-value coding)"),
    "valueForKeyPath:": .apple("NSObject (key-value coding)"),
  ]

  /// `FUNCTION($entityPolicy, …)`: NSEntityMigrationPolicy declares none of these; they are
  /// mapc's library (`Specs/functions.md` §7). Where Core Data has a form of its own, the text
  /// names it.
  package static let entityPolicy: [String: Origin] = [
    "dateFromString:format:": .mapc("no NSExpression form; the policy class implements it"),
    "dateFromString:format:timeZone:": .mapc("no NSExpression form; the policy class implements it"),
    "stringFromDate:format:": .mapc("no NSExpression form; the policy class implements it"),
    "stringFromDate:format:timeZone:": .mapc("no NSExpression form; the policy class implements it"),
    "numberFromString:": .mapc("Core Data's form: CAST(value, \"NSNumber\")"),
    "stringFromNumber:": .mapc("Core Data's form: FUNCTION(value, \"stringValue\")"),
    "uuid": .mapc("no NSExpression form; the policy class implements it (a new random UUID per call on the device)"),
    "split:by:": .mapc("Core Data's form: FUNCTION(value, \"componentsSeparatedByString:\", separator)"),
    "join:with:": .mapc("no NSExpression form; the policy class implements it"),
    "trim:": .mapc("no NSExpression form; the policy class implements it"),
    "replace:with:in:": .mapc("no NSExpression form; the policy class implements it"),
    "defaultValue:for:": .mapc("Core Data's form: TERNARY(value != nil, value, fallback)"),
  ]

  /// `FUNCTION(value, …)`: methods of Foundation's classes (NSString, NSNumber, NSArray, NSSet,
  /// NSObject's key-value coding).
  package static let objectMethods: [String: Origin] = {
    var table: [String: Origin] = [:]
    for name in [
      "stringByAppendingString:", "uppercaseString", "lowercaseString", "capitalizedString", "length", "hasPrefix:",
      "hasSuffix:", "componentsSeparatedByString:", "intValue", "integerValue", "doubleValue", "boolValue",
    ] {
      table[name] = .apple("NSString")
    }
    table["stringValue"] = .apple("NSNumber")
    table["count"] = .apple("NSArray, NSSet, NSOrderedSet")
    for name in ["valueForKey:", "valueForKeyPath:", "description", "self"] { table[name] = .apple("NSObject") }
    return table
  }()
}

extension DeviceFunctions {
  /// The classes `mapc export --policy-source` writes are named `<Model>MapcPolicy` (for the
  /// entity mappings without a policy of their own) and `<Model>MapcPolicy_<Base>` (a subclass
  /// of the policy `Base` a mapping named, with `.` and other non-identifier characters as
  /// `_`). They implement mapc's library with its semantics, so mapc runs a mapping that names
  /// one as it runs the mapping before export.
  package static let generatedPolicyMarker = "MapcPolicy"

  /// For a generated class's name: the identifier of the policy it extends ("" for none); nil
  /// for any other name.
  package static func generatedPolicyBase(_ name: String?) -> String? {
    guard let name, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
      let r = name.range(of: generatedPolicyMarker), r.lowerBound > name.startIndex
    else { return nil }
    let rest = name[r.upperBound...]
    if rest.isEmpty { return "" }
    return rest.hasPrefix("_") && rest.count > 1 ? String(rest.dropFirst()) : nil
  }

  /// A Swift identifier from a name: ASCII letters, digits and `_` kept, anything else `_`; a
  /// leading digit gets a `_` before it.
  package static func identifier(_ text: String) -> String {
    var s = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    if s.isEmpty || s.first!.isNumber { s = "_" + s }
    return s
  }
}
