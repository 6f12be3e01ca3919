import MapRuntime

/// The class names, keys and numbers Foundation and Core Data use when they archive
/// `NSExpression` and `NSPredicate` objects, shared by `ExpressionArchiveReader` and
/// `ExpressionArchiveWriter`. Which of them were checked against real Xcode files is recorded in
/// `Specs/xcmappingmodel-expressions.md`.
enum ArchiveVocabulary {
  /// The class constant that built-in functions (`add:to:`, `now`, …) are sent to.
  static let predicateUtilities = "_NSPredicateUtilities"
  /// The selector of a subscript (`a[0]`, `a[FIRST]`).
  static let indexSelector = "objectFrom:withIndex:"
  /// The selector of `CAST(value, "Type")`.
  static let castSelector = "castObject:toType:"
  /// The type a class constant is cast to (`CAST("NSDate", "Class")`).
  static let classCastType = "Class"

  /// `NSExpressionType` values.
  enum ExpressionType {
    static let constant: Int64 = 0
    static let evaluatedObject: Int64 = 1
    static let variable: Int64 = 2
    static let keyPath: Int64 = 3
    static let function: Int64 = 4
    static let union: Int64 = 5
    static let intersect: Int64 = 6
    static let minus: Int64 = 7
    static let keyPathSpecifier: Int64 = 10
    static let symbolic: Int64 = 11
    static let subquery: Int64 = 13
    static let aggregate: Int64 = 14
    static let conditional: Int64 = 20
    static let fetch: Int64 = 50
  }

  /// `NSOperatorType` values (`NSPredicateOperatorType`).
  static let operatorTypes: [(ComparisonOperator, Int64)] = [
    (.lessThan, 0), (.lessThanOrEqual, 1), (.greaterThan, 2), (.greaterThanOrEqual, 3),
    (.equal, 4), (.notEqual, 5), (.matches, 6), (.like, 7), (.beginsWith, 8), (.endsWith, 9),
    (.in, 10), (.contains, 99), (.between, 100),
  ]
  static let customSelectorOperatorType: Int64 = 11

  /// `NSCompoundPredicateType` values.
  static let notType: Int64 = 0
  static let andType: Int64 = 1
  static let orType: Int64 = 2

  /// `NSModifier` values: direct, ALL, ANY. NONE is archived as NOT (ANY …).
  static let directModifier: Int64 = 0
  static let allModifier: Int64 = 1
  static let anyModifier: Int64 = 2

  /// `NSPosition` of an `NSSubstringPredicateOperator`.
  static let beginsWithPosition: Int64 = 0
  static let endsWithPosition: Int64 = 1

  /// `$classes` of each class written, the class first.
  static func classChain(_ className: String) -> [String] {
    switch className {
    case "NSKeyPathExpression": ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"]
    case "NSLikePredicateOperator":
      [className, "NSMatchingPredicateOperator", "NSStringPredicateOperator", "NSPredicateOperator", "NSObject"]
    case "NSMatchingPredicateOperator", "NSSubstringPredicateOperator":
      [className, "NSStringPredicateOperator", "NSPredicateOperator", "NSObject"]
    case "NSMutableArray": ["NSMutableArray", "NSArray", "NSObject"]
    case "NSMutableDictionary": ["NSMutableDictionary", "NSDictionary", "NSObject"]
    case "NSDecimalNumber": ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"]
    default:
      if className.hasSuffix("Expression") {
        [className, "NSExpression", "NSObject"]
      } else if className.hasSuffix("PredicateOperator") {
        [className, "NSPredicateOperator", "NSObject"]
      } else if className.hasSuffix("Predicate") {
        [className, "NSPredicate", "NSObject"]
      } else {
        [className, "NSObject"]
      }
    }
  }
}
