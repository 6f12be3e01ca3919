import MapRuntime

/// What a type named in a schema is to SwiftData: a value Core Data stores as one attribute, a
/// model (a relationship), or a `Codable` struct or enum (a composite attribute).
enum SwiftStorage {
  case primitive(AttributeType)
  case model(SwiftTypeDeclaration)
  case structure(SwiftTypeDeclaration)
  case enumeration(SwiftTypeDeclaration)
  /// SwiftUI's `Color.Resolved`: four `Float` elements.
  case resolvedColor

  /// The Swift types SwiftData stores as one attribute of a Core Data type
  /// (Specs/swiftdata-schema.md §2).
  static let primitives: [String: AttributeType] = [
    "String": .string,
    "Int": .integer64, "Int64": .integer64, "UInt": .integer64, "UInt64": .integer64,
    "Int32": .integer32, "UInt32": .integer32,
    "Int16": .integer16, "UInt16": .integer16, "Int8": .integer16, "UInt8": .integer16,
    "Double": .double, "CGFloat": .double, "Float": .float,
    "Bool": .boolean,
    "Date": .date, "Data": .binary, "UUID": .uuid, "URL": .uri, "Decimal": .decimal,
  ]

  /// The elements of SwiftUI's `Color.Resolved` as SwiftData stores it (read from a real store).
  static let resolvedColorElements = ["linearRed", "linearGreen", "linearBlue", "opacity"]

  /// The storage of a type named `name` in `scope`: a declared type of the given files (Swift's
  /// lexical lookup, through type aliases), else one of the primitives; nil when unknown.
  static func resolve(_ name: String, from scope: [String], in declarations: SwiftDeclarations) -> SwiftStorage? {
    var (name, scope) = (name, scope)
    for _ in 0..<16 {
      if let declared = declarations.lookup(name, from: scope) {
        switch declared.kind {
        case .modelClass: return .model(declared)
        case .structure: return .structure(declared)
        case .enumeration: return .enumeration(declared)
        case .plainClass: return nil
        case .alias(let target, let file):
          guard case .named(let aliased) = SwiftWrittenType(target, in: file) else { return nil }
          (name, scope) = (aliased, declared.scope)
          continue
        }
      }
      if ["Color.Resolved", "SwiftUI.Color.Resolved"].contains(name) { return .resolvedColor }
      let bare =
        name.hasPrefix("Foundation.") || name.hasPrefix("Swift.") ? String(name.split(separator: ".").last!) : name
      return primitives[bare].map { .primitive($0) }
    }
    return nil
  }
}
