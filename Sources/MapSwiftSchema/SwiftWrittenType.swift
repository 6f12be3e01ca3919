import SwiftSyntax

/// A property's type as written (or as its initial value tells it): the shapes SwiftData reads.
indirect enum SwiftWrittenType: Hashable {
  case named(String)
  case optional(SwiftWrittenType)
  case array(SwiftWrittenType)
  case set(SwiftWrittenType)
  case dictionary(SwiftWrittenType, SwiftWrittenType)
  /// Anything else (a tuple, a function, `some P`, `any P`): its text.
  case other(String)

  /// The type written as `type` in `file` (whose masked parts, Specs/limits.md, are read here
  /// from the text as written).
  init(_ type: TypeSyntax, in file: SwiftSourceFile) {
    if let o = type.as(OptionalTypeSyntax.self) {
      self = .optional(SwiftWrittenType(o.wrappedType, in: file))
    } else if let o = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      self = .optional(SwiftWrittenType(o.wrappedType, in: file))
    } else if let a = type.as(ArrayTypeSyntax.self) {
      self = .array(SwiftWrittenType(a.element, in: file))
    } else if let d = type.as(DictionaryTypeSyntax.self) {
      self = .dictionary(SwiftWrittenType(d.key, in: file), SwiftWrittenType(d.value, in: file))
    } else if let i = type.as(IdentifierTypeSyntax.self) {
      if i.genericArgumentClause == nil,
        let (masked, fragment) = file.maskedType(at: i.name.positionAfterSkippingLeadingTrivia.utf8Offset)
      {
        self = SwiftWrittenType(masked, in: fragment)
      } else {
        self = Self.generic(i.name.text, i.genericArgumentClause, text: file.text(of: type), in: file)
      }
    } else if let m = type.as(MemberTypeSyntax.self) {
      let base = SwiftDeclarations.dottedName(m.baseType)
      if ["Swift", "Foundation"].contains(base) {
        self = Self.generic(m.name.text, m.genericArgumentClause, text: file.text(of: type), in: file)
      } else if m.genericArgumentClause == nil {
        self = .named(base + "." + m.name.text)
      } else {
        self = .other(file.text(of: type))
      }
    } else {
      self = .other(file.text(of: type))
    }
  }

  private static func generic(
    _ name: String, _ clause: GenericArgumentClauseSyntax?, text: String, in file: SwiftSourceFile
  ) -> SwiftWrittenType {
    guard let clause else { return .named(name) }
    let arguments: [SwiftWrittenType] = clause.arguments.map { argument in
      if case .type(let t) = argument.argument { return SwiftWrittenType(t, in: file) }
      return .other(file.text(of: argument))
    }
    switch (name, arguments.count) {
    case ("Optional", 1): return .optional(arguments[0])
    case ("Array", 1): return .array(arguments[0])
    case ("Set", 1): return .set(arguments[0])
    case ("Dictionary", 2): return .dictionary(arguments[0], arguments[1])
    default: return .other(text)
    }
  }

  /// The type of a property's initial value, when the value tells it (a literal, `UUID()`,
  /// `Date.now`, `[Item]()`, `Tags()`); nil otherwise.
  init?(initialValue expr: ExprSyntax) {
    if expr.is(StringLiteralExprSyntax.self) {
      self = .named("String")
    } else if expr.is(IntegerLiteralExprSyntax.self) {
      self = .named("Int")
    } else if expr.is(FloatLiteralExprSyntax.self) {
      self = .named("Double")
    } else if expr.is(BooleanLiteralExprSyntax.self) {
      self = .named("Bool")
    } else if let p = expr.as(PrefixOperatorExprSyntax.self), p.operator.text == "-" {
      guard let inner = SwiftWrittenType(initialValue: p.expression) else { return nil }
      self = inner
    } else if let call = expr.as(FunctionCallExprSyntax.self) {
      let called = call.calledExpression
      if let array = called.as(ArrayExprSyntax.self), array.elements.count == 1,
        let name = Self.typeName(array.elements.first!.expression)
      {
        self = .array(.named(name))
      } else if let m = called.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "init",
        let base = m.base, let name = Self.typeName(base)
      {
        self = .named(name)
      } else if let name = Self.typeName(called), name.first?.isUppercase == true {
        self = .named(name)
      } else {
        return nil
      }
    } else if let m = expr.as(MemberAccessExprSyntax.self), let base = m.base, let name = Self.typeName(base),
      name.first?.isUppercase == true
    {
      // `Date.now`, `UUID.init`: a static member of the type named.
      self = .named(name)
    } else {
      return nil
    }
  }

  /// `Name` or `A.B` written as an expression.
  private static func typeName(_ expr: ExprSyntax) -> String? {
    if let d = expr.as(DeclReferenceExprSyntax.self) { return d.baseName.text }
    if let m = expr.as(MemberAccessExprSyntax.self), let base = m.base, let b = typeName(base) {
      return ["Swift", "Foundation"].contains(b) ? m.declName.baseName.text : b + "." + m.declName.baseName.text
    }
    return nil
  }

  var text: String {
    switch self {
    case .named(let n): n
    case .optional(let w): w.text + "?"
    case .array(let w): "[" + w.text + "]"
    case .set(let w): "Set<" + w.text + ">"
    case .dictionary(let k, let v): "[" + k.text + ": " + v.text + "]"
    case .other(let t): t
    }
  }
}
