import MapRuntime
import SwiftParser
import SwiftSyntax

/// What `@Attribute(…)` and `@Relationship(…)` say of a property (Specs/swiftdata-schema.md §3).
struct SwiftPropertyOptions {
  var isUnique = false
  var externalStorage = false
  var preservesValueOnDeletion = false
  var isEphemeral = false
  var spotlight = false
  var allowsCloudEncryption = false
  /// `.transformable(by:)`: the value transformer's name.
  var transformerName: String?
  var originalName: String?
  var hashModifier: String?
  var deleteRule: DeleteRule = .nullify
  var minimumCount = 0
  var maximumCount = 0
  /// `inverse: \Type.property`: the type as written and the property.
  var inverse: (type: String, property: String)?
  var isRelationship = false

  /// Reads a property's `@Attribute` and `@Relationship`; an argument mapc cannot read is an
  /// error at its place.
  init(_ property: SwiftProperty) throws(MapRuntime.Diagnostic) {
    let file = { (node: Syntax) in property.source.location(of: node) }
    for attribute in property.attributes {
      let name = SwiftDeclarations.simpleName(attribute.attributeName)
      guard name == "Attribute" || name == "Relationship" else { continue }
      if name == "Relationship" { isRelationship = true }
      guard case .argumentList(let arguments)? = attribute.arguments else { continue }
      for argument in arguments {
        let label = argument.label?.text
        let value = argument.expression
        switch label {
        case nil:
          try option(value, in: name, at: file(Syntax(value)))
        case "originalName":
          originalName = try Self.string(value, "originalName", at: file(Syntax(value)))
        case "hashModifier":
          hashModifier = try Self.string(value, "hashModifier", at: file(Syntax(value)))
        case "deleteRule" where name == "Relationship":
          let rule = Self.memberName(value)
          switch rule {
          case "cascade": deleteRule = .cascade
          case "nullify": deleteRule = .nullify
          case "deny": deleteRule = .deny
          case "noAction": deleteRule = .noAction
          default:
            throw MapRuntime.Diagnostic(
              .error, id: "swift-attribute-argument",
              "deleteRule must be .cascade, .nullify, .deny or .noAction (found '\(value.trimmedDescription)')",
              at: file(Syntax(value)))
          }
        case "minimumModelCount" where name == "Relationship":
          minimumCount = try Self.integer(value, "minimumModelCount", at: file(Syntax(value)))
        case "maximumModelCount" where name == "Relationship":
          maximumCount = try Self.integer(value, "maximumModelCount", at: file(Syntax(value)))
        case "inverse" where name == "Relationship":
          // `\Type.property`, the type qualified or not (`\SchemaV2.Reminder.plant`, which
          // swift-syntax reads as the root `SchemaV2` and two components).
          let path = value.as(KeyPathExprSyntax.self)
          let names =
            path?.components.compactMap { c -> String? in
              guard case .property(let p) = c.component, p.declName.argumentNames == nil else { return nil }
              return p.declName.baseName.text
            } ?? []
          guard let path, let root = path.root, !names.isEmpty, names.count == path.components.count else {
            throw MapRuntime.Diagnostic(
              .error, id: "swift-attribute-argument",
              "inverse must be a key path \\Type.property (found '\(value.trimmedDescription)')",
              at: file(Syntax(value)))
          }
          inverse = (([SwiftDeclarations.dottedName(root)] + names.dropLast()).joined(separator: "."), names.last!)
        default:
          throw MapRuntime.Diagnostic(
            .error, id: "swift-attribute-argument",
            "@\(name) argument '\(label ?? "")' is not one mapc reads", at: file(Syntax(argument)))
        }
      }
    }
  }

  private mutating func option(_ value: ExprSyntax, in name: String, at place: MapRuntime.SourceLocation)
    throws(MapRuntime.Diagnostic)
  {
    if let call = value.as(FunctionCallExprSyntax.self), Self.memberName(call.calledExpression) == "transformable" {
      guard let first = call.arguments.first else {
        throw MapRuntime.Diagnostic(.error, id: "swift-attribute-argument", ".transformable needs by:", at: place)
      }
      let expr = first.expression
      if let text = Self.literal(expr) {
        transformerName = text
      } else if let m = expr.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "self", let base = m.base {
        transformerName = base.trimmedDescription
      } else {
        throw MapRuntime.Diagnostic(
          .error, id: "swift-attribute-argument",
          ".transformable(by:) takes a transformer type (Name.self) or its name", at: place)
      }
      return
    }
    switch Self.memberName(value) {
    case "unique": isUnique = true
    case "externalStorage": externalStorage = true
    case "preserveValueOnDeletion": preservesValueOnDeletion = true
    case "ephemeral": isEphemeral = true
    case "spotlight": spotlight = true
    case "allowsCloudEncryption": allowsCloudEncryption = true
    default:
      throw MapRuntime.Diagnostic(
        .error, id: "swift-attribute-argument", "@\(name) option '\(value.trimmedDescription)' is not one mapc reads",
        at: place)
    }
  }

  /// `.name` or `Type.name`: the member's name.
  static func memberName(_ expr: ExprSyntax) -> String? {
    expr.as(MemberAccessExprSyntax.self)?.declName.baseName.text
  }

  /// The value of a string literal without interpolation, its escapes (`\u{E9}` among them) and
  /// raw or multi-line forms resolved as Swift resolves them (swift-syntax's own reading).
  static func literal(_ expr: ExprSyntax) -> String? {
    expr.as(StringLiteralExprSyntax.self)?.representedLiteralValue
  }

  static func string(_ expr: ExprSyntax, _ label: String, at place: MapRuntime.SourceLocation)
    throws(MapRuntime.Diagnostic)
    -> String
  {
    guard let text = literal(expr) else {
      throw MapRuntime.Diagnostic(
        .error, id: "swift-attribute-argument",
        "\(label) must be a string literal (found '\(expr.trimmedDescription)')",
        at: place)
    }
    return text
  }

  static func integer(_ expr: ExprSyntax, _ label: String, at place: MapRuntime.SourceLocation)
    throws(MapRuntime.Diagnostic)
    -> Int
  {
    guard let value = expr.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue else {
      throw MapRuntime.Diagnostic(
        .error, id: "swift-attribute-argument",
        "\(label) must be an integer literal (found '\(expr.trimmedDescription)')",
        at: place)
    }
    return value
  }
}
