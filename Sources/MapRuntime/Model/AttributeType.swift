/// Core Data's `NSAttributeType`, spelled as Xcode writes it in `attributeType="…"`.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
  case undefined = "Undefined"
  case integer16 = "Integer 16"
  case integer32 = "Integer 32"
  case integer64 = "Integer 64"
  case decimal = "Decimal"
  case double = "Double"
  case float = "Float"
  case string = "String"
  case boolean = "Boolean"
  case date = "Date"
  case binary = "Binary"
  case uuid = "UUID"
  case uri = "URI"
  case transformable = "Transformable"
  case objectID = "Object ID"
  case composite = "Composite"

  /// The `NSAttributeType` raw value, which is what the entity version hash mixes in.
  public var coreDataCode: Int32 {
    switch self {
    case .undefined: 0
    case .integer16: 100
    case .integer32: 200
    case .integer64: 300
    case .decimal: 400
    case .double: 500
    case .float: 600
    case .string: 700
    case .boolean: 800
    case .date: 900
    case .binary: 1000
    case .uuid: 1100
    case .uri: 1200
    case .transformable: 1800
    case .objectID: 2000
    case .composite: 2100
    }
  }

  public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }
  public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }

  /// Inclusive range of an integer type, nil for other types.
  public var integerRange: ClosedRange<Int64>? {
    switch self {
    case .integer16: Int64(Int16.min)...Int64(Int16.max)
    case .integer32: Int64(Int32.min)...Int64(Int32.max)
    case .integer64: Int64.min...Int64.max
    default: nil
    }
  }
}
