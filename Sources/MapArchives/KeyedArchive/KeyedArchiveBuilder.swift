/// Builds an `NSKeyedArchiver` archive object by object, and writes it as a binary property
/// list that `NSKeyedUnarchiver` (and `KeyedArchive`) reads.
///
/// Objects are numbered in the order they are added, after `$null` (object 0). A class instance
/// is a dictionary whose first field, `$class`, refers to a class dictionary `{$classes,
/// $classname}`; class dictionaries are shared by every instance of the same class (the same
/// name and chain) and are added after the first instance that needs them. Plain objects
/// (strings, numbers, booleans, data) are shared too: adding an equal one again returns the
/// first one's reference. An instance that must be referred to before its fields are known (a
/// back-reference, a cycle) is `reserve()`d first and `fill`ed later.
///
/// The output depends only on the calls made. Format: `Specs/xcmappingmodel-archives.md`.
public struct KeyedArchiveBuilder: Sendable {
  /// `$objects` so far; object 0 is `$null`.
  public private(set) var objects: [PropertyListValue] = [.string("$null")]
  private var plain: [PropertyListScalarIdentity: Int] = [:]
  private var classDictionaries: [ClassKey: Int] = [:]
  private var unfilled: Set<Int> = []

  private struct ClassKey: Hashable, Sendable {
    var name: String
    var classes: [String]
  }

  public init() {}

  /// The reference to `$null` (object 0). Computed, not stored: a global holding an indirect
  /// enum keeps its box behind a tagged pointer, which LeakSanitizer cannot follow, so the
  /// fuzz targets' leak check reported it (model-cache, after a 60 s run).
  public static var null: PropertyListValue { .uid(0) }

  /// Appends a class instance with these fields (in this order; `$class` is added first,
  /// referring to a uniqued class dictionary {$classes: classes, $classname: className});
  /// returns its reference (.uid).
  public mutating func add(_ className: String, classes: [String], fields: [PropertyListValue.Entry])
    -> PropertyListValue
  {
    let slot = reserve()
    fill(slot, className, classes: classes, fields: fields)
    return slot
  }

  /// Reserves a slot for an instance filled later with `fill` (for back-references/cycles).
  ///
  /// Every reserved slot must be filled before `archive(root:)`.
  public mutating func reserve() -> PropertyListValue {
    let index = objects.count
    objects.append(.dictionary([]))
    unfilled.insert(index)
    return .uid(UInt64(index))
  }

  /// Fills a slot that `reserve()` returned (once) with a class instance, as `add` would.
  public mutating func fill(
    _ slot: PropertyListValue, _ className: String, classes: [String], fields: [PropertyListValue.Entry]
  ) {
    guard case .uid(let u) = slot, unfilled.remove(Int(clamping: u)) != nil else {
      preconditionFailure("KeyedArchiveBuilder.fill: \(slot) is not a reserved, unfilled slot")
    }
    let classReference = classDictionary(className, classes: classes)
    objects[Int(u)] = .dictionary([.init("$class", classReference)] + fields)
  }

  /// A plain object in $objects (string, number, bool, data): uniqued, returns its reference.
  /// A nil string returns `null`.
  ///
  /// An array or dictionary given here is appended as it is, never shared.
  public mutating func object(_ value: PropertyListValue) -> PropertyListValue {
    guard let identity = PropertyListScalarIdentity(value) else {
      objects.append(value)
      return .uid(UInt64(objects.count - 1))
    }
    if let existing = plain[identity] { return .uid(UInt64(existing)) }
    objects.append(value)
    plain[identity] = objects.count - 1
    return .uid(UInt64(objects.count - 1))
  }

  /// A string object (`NSString`, archived as a plain string); nil is `null`.
  public mutating func string(_ s: String?) -> PropertyListValue {
    guard let s else { return Self.null }
    return object(.string(s))
  }

  /// An NSArray/NSMutableArray (or NSSet, NSOrderedSet and their mutable forms: the same
  /// `NS.objects` field) of these elements (references or inline values as given).
  public mutating func array(_ elements: [PropertyListValue], className: String = "NSArray") -> PropertyListValue {
    add(className, classes: Self.classes(of: className), fields: [.init("NS.objects", .array(elements))])
  }

  /// An NSDictionary/NSMutableDictionary of these entries (references or inline values as
  /// given), in this order: fields `NS.keys` and `NS.objects`.
  public mutating func dictionary(
    _ entries: [(key: PropertyListValue, value: PropertyListValue)], className: String = "NSDictionary"
  ) -> PropertyListValue {
    add(
      className, classes: Self.classes(of: className),
      fields: [.init("NS.keys", .array(entries.map(\.key))), .init("NS.objects", .array(entries.map(\.value)))])
  }

  /// The archive: {$version: 100000, $archiver: "NSKeyedArchiver", $top: {root: root},
  /// $objects: [...]}, as bplist bytes (keys in the order Xcode's archives have them: $version,
  /// $objects, $archiver, $top).
  public func archive(root: PropertyListValue) -> [UInt8] {
    precondition(
      unfilled.isEmpty, "KeyedArchiveBuilder.archive: slots \(unfilled.sorted()) were reserved but never filled")
    return BinaryPropertyListWriter.write(plist(root: root))
  }

  /// The archive as a property list value (what `archive(root:)` writes).
  public func plist(root: PropertyListValue) -> PropertyListValue {
    .dictionary([
      .init("$version", .integer(100_000)),
      .init("$objects", .array(objects)),
      .init("$archiver", .string("NSKeyedArchiver")),
      .init("$top", .dictionary([.init("root", root)])),
    ])
  }

  /// The `$classes` chain of a Foundation or Core Data class as Apple's archives spell it
  /// (the class, its superclasses, `NSObject`); `[className, "NSObject"]` for other classes.
  public static func classes(of className: String) -> [String] {
    knownChains[className] ?? [className, "NSObject"]
  }

  private mutating func classDictionary(_ className: String, classes: [String]) -> PropertyListValue {
    let key = ClassKey(name: className, classes: classes)
    if let existing = classDictionaries[key] { return .uid(UInt64(existing)) }
    objects.append(
      .dictionary([
        .init("$classname", .string(className)),
        .init("$classes", .array(classes.map { .string($0) })),
      ]))
    classDictionaries[key] = objects.count - 1
    return .uid(UInt64(objects.count - 1))
  }

  /// Chains seen in the corpus's mapping models and compiled models, and their Foundation
  /// relatives.
  private static let knownChains: [String: [String]] = {
    let chains: [[String]] = [
      ["NSArray", "NSObject"],
      ["NSMutableArray", "NSArray", "NSObject"],
      ["NSDictionary", "NSObject"],
      ["NSMutableDictionary", "NSDictionary", "NSObject"],
      ["NSSet", "NSObject"],
      ["NSMutableSet", "NSSet", "NSObject"],
      ["NSOrderedSet", "NSObject"],
      ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"],
      ["NSString", "NSObject"],
      ["NSMutableString", "NSString", "NSObject"],
      ["NSData", "NSObject"],
      ["NSMutableData", "NSData", "NSObject"],
      ["NSDate", "NSObject"],
      ["NSNumber", "NSValue", "NSObject"],
      ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
      ["NSDecimalNumberPlaceholder", "NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
      ["NSUUID", "NSObject"],
      ["NSURL", "NSObject"],
      ["NSConstantValueExpression", "NSExpression", "NSObject"],
      ["NSSelfExpression", "NSExpression", "NSObject"],
      ["NSVariableExpression", "NSExpression", "NSObject"],
      ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"],
      ["NSFunctionExpression", "NSExpression", "NSObject"],
      ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
      ["NSComparisonPredicate", "NSPredicate", "NSObject"],
      ["NSCompoundPredicate", "NSPredicate", "NSObject"],
      ["NSEqualityPredicateOperator", "NSPredicateOperator", "NSObject"],
      ["NSManagedObjectModel", "NSObject"],
      ["NSEntityDescription", "NSObject"],
      ["NSAttributeDescription", "NSPropertyDescription", "NSObject"],
      ["NSDerivedAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject"],
      ["NSCompositeAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject"],
      ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"],
      ["NSFetchedPropertyDescription", "NSPropertyDescription", "NSObject"],
      ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"],
      ["NSFetchIndexDescription", "NSObject"],
      ["NSFetchIndexElementDescription", "NSObject"],
    ]
    return Dictionary(uniqueKeysWithValues: chains.map { ($0[0], $0) })
  }()
}
