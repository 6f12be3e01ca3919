import Foundation

/// Conveniences for Swift code that builds or reads values (custom policies, tests).
extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
  public init(stringLiteral value: String) { self = .string(.native(value)) }
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: Value...) { self = .array(elements) }

  /// A string value.
  public init(_ string: String) { self = .string(.native(string)) }
  /// An integer value.
  public init(_ int: Int) { self = .int(Int64(int)) }
  /// A date value (stored as seconds since 2001-01-01T00:00:00Z).
  public init(_ date: Date) { self = .date(date.timeIntervalSinceReferenceDate) }
  /// nil stays nil.
  public init(_ string: String?) { self = string.map { .string(.native($0)) } ?? .null }

  /// The integer of an integer or Boolean value (nil otherwise).
  public var intValue: Int64? {
    switch self {
    case .int(let i): return i
    case .bool(let b): return b ? 1 : 0
    default: return nil
    }
  }

  /// The number of an integer, floating-point, Boolean or decimal value (nil otherwise).
  public var doubleValue: Double? {
    switch self {
    case .int(let i): return Double(i)
    case .double(let d): return d
    case .bool(let b): return b ? 1 : 0
    case .decimal(let s): return Double(s)
    default: return nil
    }
  }

  /// YES/NO of a Boolean value, or of a number (non-zero is YES); nil otherwise.
  public var boolValue: Bool? {
    switch self {
    case .bool(let b): return b
    case .int(let i): return i != 0
    case .double(let d): return d != 0
    default: return nil
    }
  }

  /// The date of a date value.
  public var dateValue: Date? {
    if case .date(let t) = self { return Date(timeIntervalSinceReferenceDate: t) }
    return nil
  }

  /// The elements of a collection (to-many relationships, arrays); nil for other values.
  public var arrayValue: [Value]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The object a source-object value refers to.
  public var sourceObject: ObjectRef? {
    if case .sourceObject(let r) = self { return r }
    return nil
  }

  /// The object a destination-object value refers to.
  public var destinationObject: ObjectRef? {
    if case .destinationObject(let r) = self { return r }
    return nil
  }

  /// The objects of a to-many relationship's value, or of a to-one's (zero or one).
  public var destinationObjects: [ObjectRef] {
    switch self {
    case .destinationObject(let r): return [r]
    case .array(let a): return a.compactMap(\.destinationObject)
    default: return []
    }
  }

  /// The objects of a source relationship's value.
  public var sourceObjects: [ObjectRef] {
    switch self {
    case .sourceObject(let r): return [r]
    case .array(let a): return a.compactMap(\.sourceObject)
    default: return []
    }
  }
}
