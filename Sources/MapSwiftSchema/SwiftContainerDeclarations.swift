import MapRuntime
import SwiftIfConfig
import SwiftSyntax

/// A type a model container's declaration names (`Trip.self` in `ModelContainer(for: Trip.self)`),
/// where it is written and the types enclosing the call (for the name's lookup).
struct SwiftContainerType: Hashable {
  var name: String
  var scope: [String]
  var location: MapRuntime.SourceLocation
  /// Where the declaration that names it starts.
  var declaration: MapRuntime.SourceLocation
  /// Named by `Schema(...)`, a name other libraries use too (not `ModelContainer`).
  var bySchema: Bool
}

/// The declarations of a model container in the files' active code (Specs/swiftdata-schema.md
/// §1): `ModelContainer(for: A.self, B.self, …)`, `ModelContainer(for: [A.self])`,
/// `.modelContainer(for: A.self)` (SwiftUI), `Schema([A.self, …])` and
/// `Schema(versionedSchema: V.self)`, wherever they are written. A declaration that names its
/// types through a value (`ModelContainer(for: schema)`) counts as found, and names none of its
/// own: the `Schema([...])` that made the value is one of the declarations.
struct SwiftContainerDeclarations {
  /// Where each declaration is, in the order of the files.
  private(set) var places: [MapRuntime.SourceLocation] = []
  /// The types named, in the order written, without repeats.
  private(set) var types: [SwiftContainerType] = []
  private var seen: Set<String> = []

  init(files: [SwiftSourceFile], conditions: SwiftBuildConditions) {
    for file in files {
      let finder = Finder(file: file, conditions: conditions)
      finder.walk(file.tree)
      places += finder.places
      for t in finder.types
      where seen.insert((t.scope + [t.name, t.declaration.description]).joined(separator: "\u{0}")).inserted {
        types.append(t)
      }
    }
  }

  /// Walks the active code of one file for container declarations.
  private final class Finder: ActiveSyntaxVisitor {
    let file: SwiftSourceFile
    var places: [MapRuntime.SourceLocation] = []
    var types: [SwiftContainerType] = []

    init(file: SwiftSourceFile, conditions: SwiftBuildConditions) {
      self.file = file
      super.init(viewMode: .sourceAccurate, configuration: conditions)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
      let callee = Self.calleeName(node.calledExpression)
      guard callee == "ModelContainer" || callee == "modelContainer" || callee == "Schema" else {
        return .visitChildren
      }
      let call = Call(scope: Self.scope(of: node), place: file.location(of: node))
      let arguments = Array(node.arguments)
      switch callee {
      case "ModelContainer", "modelContainer":
        guard let first = arguments.firstIndex(where: { $0.label?.text == "for" }) else { return .visitChildren }
        places.append(call.place)
        for argument in arguments[first...] where argument.label == nil || argument.label?.text == "for" {
          names(in: argument.expression, call, bySchema: false)
        }
      case "Schema":
        if let v = arguments.first(where: { $0.label?.text == "versionedSchema" }) {
          places.append(call.place)
          names(in: v.expression, call, bySchema: true)
        } else if let list = arguments.first, list.label == nil, list.expression.is(ArrayExprSyntax.self) {
          places.append(call.place)
          names(in: list.expression, call, bySchema: true)
        }
      default:
        break
      }
      return .visitChildren
    }

    /// `ModelContainer`, `SwiftData.ModelContainer`, `ModelContainer.init`, `.modelContainer`
    /// as their last name (`init` dropped).
    static func calleeName(_ expression: ExprSyntax) -> String? {
      if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
      if let member = expression.as(MemberAccessExprSyntax.self) {
        if member.declName.baseName.text == "init", let base = member.base { return calleeName(base) }
        return member.declName.baseName.text
      }
      return nil
    }

    /// The `X.self` of an argument, or of each element of an array literal.
    /// A declaration: the types around it and where it starts.
    struct Call {
      var scope: [String]
      var place: MapRuntime.SourceLocation
    }

    func names(in expression: ExprSyntax, _ call: Call, bySchema: Bool) {
      if let array = expression.as(ArrayExprSyntax.self) {
        for element in array.elements { names(in: element.expression, call, bySchema: bySchema) }
        return
      }
      guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
        let base = member.base
      else { return }
      let name = file.text(of: base).filter { !$0.isWhitespace }
      types.append(
        SwiftContainerType(
          name: name, scope: call.scope, location: file.location(of: expression), declaration: call.place,
          bySchema: bySchema))
    }

    /// The names of the types around `node`, outermost first.
    static func scope(of node: some SyntaxProtocol) -> [String] {
      var names: [String] = []
      var parent = node.parent
      while let p = parent {
        if let c = p.as(ClassDeclSyntax.self) {
          names.append(c.name.text)
        } else if let s = p.as(StructDeclSyntax.self) {
          names.append(s.name.text)
        } else if let e = p.as(EnumDeclSyntax.self) {
          names.append(e.name.text)
        } else if let x = p.as(ExtensionDeclSyntax.self) {
          names += SwiftDeclarations.dottedName(x.extendedType).split(separator: ".").map(String.init).reversed()
        }
        parent = p.parent
      }
      return names.reversed()
    }
  }
}
