import MapRuntime

/// What the compiler knows about an expression's value before the migration runs.
package indirect enum StaticType: Sendable, Hashable, CustomStringConvertible {
  package enum Side: Sendable, Hashable {
    case source, destination
  }

  /// Anything (Transformable values, custom policy functions).
  case unknown
  case null
  case bool, integer, double, decimal, string, date, data
  case object(Side, String)
  /// `fromToMany`: the collection may hold several objects for one source object (a to-many
  /// key path, a fan-out mapping) — assigning it to a to-one relationship is an error.
  case collection(StaticType, fromToMany: Bool)
  case manager
  case context(Side)
  case fetchRequest(Side, String)
  case entityPolicy, entityMapping, propertyMapping, userInfo

  static func of(_ a: AttributeType) -> StaticType {
    switch a {
    case .integer16, .integer32, .integer64: .integer
    case .double, .float: .double
    case .decimal: .decimal
    case .string, .uri, .uuid: .string
    case .boolean: .bool
    case .date: .date
    case .binary: .data
    default: .unknown
    }
  }

  var isNumeric: Bool {
    switch self {
    case .integer, .double, .decimal, .bool: true
    default: false
    }
  }

  package var elementType: StaticType {
    if case .collection(let e, _) = self { return e }
    return self
  }

  package var description: String {
    switch self {
    case .unknown: "a value of unknown type"
    case .null: "nil"
    case .bool: "a Boolean"
    case .integer: "an integer"
    case .double: "a floating-point number"
    case .decimal: "a decimal number"
    case .string: "a string"
    case .date: "a date"
    case .data: "binary data"
    case .object(let side, let e): "\(side == .source ? "source" : "destination") \(e) objects"
    case .collection(let e, _): "a collection of \(e)"
    case .manager: "$manager"
    case .context(let side): "the \(side == .source ? "source" : "destination") context"
    case .fetchRequest(_, let e): "a fetch request for \(e)"
    case .entityPolicy: "$entityPolicy"
    case .entityMapping: "an entity mapping"
    case .propertyMapping: "a property mapping"
    case .userInfo: "a userInfo dictionary"
    }
  }
}

/// A type and whether the value may be nil.
package struct Typed: Sendable, Hashable {
  package var type: StaticType
  package var mayBeNil: Bool
  package init(_ type: StaticType, mayBeNil: Bool = false) {
    self.type = type
    self.mayBeNil = mayBeNil
  }
  package static let unknown = Typed(.unknown, mayBeNil: true)
}
