/// Why an archived expression, predicate or user-info dictionary could not be read.
///
/// The message names the object of the archive (its index in `$objects`) and its class when the
/// fault is in one object, for example `object 7 (NSFunctionExpression): NSArguments is not an
/// array`.
public struct ExpressionArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  /// Index in `$objects` of the object at fault, when there is one.
  public var objectIndex: Int?
  /// Class of that object, when known.
  public var className: String?
  /// True when the archive is refused for what it expands to (`Limits.expandedValues`,
  /// `Limits.expandedBytes`): reported as `limit-expanded-size`.
  public var isExpansionLimit = false

  public init(_ message: String, objectIndex: Int? = nil, className: String? = nil, isExpansionLimit: Bool = false) {
    self.message = message
    self.objectIndex = objectIndex
    self.className = className
    self.isExpansionLimit = isExpansionLimit
  }

  public var description: String { message }
}
