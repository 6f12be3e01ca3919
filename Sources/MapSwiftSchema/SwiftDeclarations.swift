import MapRuntime
import SwiftDiagnostics
import SwiftIfConfig
import SwiftSyntax

/// A stored property as written in a class or struct: its name, type as written (or nil), its
/// initial value, and the attributes SwiftData reads (`@Attribute`, `@Relationship`, `@Transient`).
struct SwiftProperty {
  var name: String
  var type: TypeSyntax?
  var initializer: ExprSyntax?
  var attributes: [AttributeSyntax]
  var location: MapRuntime.SourceLocation
  /// The file it is written in (for the places of its parts).
  var source: SwiftSourceFile

  func attribute(named name: String) -> AttributeSyntax? {
    attributes.first { SwiftDeclarations.simpleName($0.attributeName) == name }
  }
}

/// A case of an enum: its name and whether it carries associated values.
struct SwiftEnumCase {
  var name: String
  var hasAssociatedValues: Bool
}

/// A `#Unique<T>(…)` or `#Index<T>(…)` inside a model class.
struct SwiftMacroUse {
  var name: String
  var arguments: LabeledExprListSyntax
  var location: MapRuntime.SourceLocation
  var source: SwiftSourceFile
}

/// A type declared in the given files: a class (a model when marked `@Model`), a struct, an
/// enum (a versioned schema or a migration plan when it conforms to those protocols), or a
/// type alias. Members declared in extensions of the type are gathered with it.
struct SwiftTypeDeclaration {
  enum Kind {
    case modelClass
    case plainClass
    case structure
    case enumeration
    case alias(TypeSyntax, SwiftSourceFile)
  }

  var kind: Kind
  var name: String
  /// The names of the enclosing types, outermost first.
  var scope: [String]
  var location: MapRuntime.SourceLocation
  var inherited: [String] = []
  var properties: [SwiftProperty] = []
  /// `static` properties, by name: their initial value or the last expression of their getter.
  var staticValues: [String: (ExprSyntax, MapRuntime.SourceLocation)] = [:]
  var cases: [SwiftEnumCase] = []
  var macros: [SwiftMacroUse] = []

  var qualifiedName: String { (scope + [name]).joined(separator: ".") }
  var isModel: Bool {
    if case .modelClass = kind { return true }
    return false
  }
  var isAlias: Bool {
    if case .alias = kind { return true }
    return false
  }
}

/// Every type declared in a set of Swift files, by qualified name (`SchemaV1.Item`), in the
/// order of the files and of their declarations. Only the active clause of each `#if` is read
/// (`SwiftBuildConditions`).
struct SwiftDeclarations {
  private(set) var types: [SwiftTypeDeclaration] = []
  private var index: [String: Int] = [:]
  /// Types whose members an extension adds before (or without) their declaration.
  private var pendingExtensions: [String: SwiftTypeDeclaration] = [:]
  let conditions: SwiftBuildConditions
  /// `#if` conditions that cannot be evaluated (`swift-if-condition`).
  private(set) var diagnostics: [MapRuntime.Diagnostic] = []

  init(files: [SwiftSourceFile], conditions: SwiftBuildConditions = SwiftBuildConditions()) {
    self.conditions = conditions
    for file in files {
      for item in file.tree.statements {
        if case .decl(let decl) = item.item { collect(decl, scope: [], file: file) }
      }
    }
    // Types declared inside an extension of a type alias (`typealias Item = V1.Item`,
    // `extension Item { struct Point … }`) are the aliased type's: found under its name too.
    for (i, t) in types.enumerated() where !t.scope.isEmpty {
      let written = t.scope.joined(separator: ".")
      guard let real = resolvedName(written, from: []), real != written else { continue }
      let key = real + "." + t.name
      if index[key] == nil { index[key] = i }
    }
    // An extension's key is the name it was written with; the type it extends is what that
    // name resolves to, through aliases (the name itself when it names a declared type).
    for (name, ext) in pendingExtensions.sorted(by: { $0.key < $1.key }) {
      if let real = resolvedName(name, from: []), let i = index[real] { merge(ext, into: i) }
    }
  }

  /// The qualified name of the declaration a dotted `name` written in `scope` designates,
  /// following type aliases at every step (`SchemaLatest.Item` with `SchemaLatest = V1`:
  /// `V1.Item`); nil when some part is not declared in the files.
  func resolvedName(_ name: String, from scope: [String], depth: Int = 0) -> String? {
    guard depth < 16 else { return nil }
    let parts = name.split(separator: ".").map(String.init)
    guard let first = parts.first, let declared = lookup(first, from: scope),
      var qualified = followed(declared, depth: depth)
    else { return nil }
    for part in parts.dropFirst() {
      guard let inner = type(named: qualified + "." + part), let next = followed(inner, depth: depth) else {
        return nil
      }
      qualified = next
    }
    return qualified
  }

  /// A declaration's qualified name, or for a type alias that of the type it names.
  private func followed(_ declaration: SwiftTypeDeclaration, depth: Int) -> String? {
    guard case .alias(let target, let file) = declaration.kind else { return declaration.qualifiedName }
    guard case .named(let aliased) = SwiftWrittenType(target, in: file) else { return nil }
    return resolvedName(aliased, from: declaration.scope, depth: depth + 1)
  }

  func type(named qualified: String) -> SwiftTypeDeclaration? {
    index[qualified].map { types[$0] }
  }

  /// The type a name written in `scope` designates, by Swift's lexical lookup: the innermost
  /// enclosing scope first. `name` may be dotted (`SchemaV1.Item`).
  func lookup(_ name: String, from scope: [String]) -> SwiftTypeDeclaration? {
    var scope = scope
    while true {
      if let found = type(named: (scope + [name]).joined(separator: ".")) { return found }
      if scope.isEmpty { return nil }
      scope.removeLast()
    }
  }

  /// An attribute's or type's name without module qualification or generic arguments.
  static func simpleName(_ type: TypeSyntax) -> String {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
    return type.trimmedDescription
  }

  private mutating func add(_ declaration: SwiftTypeDeclaration) {
    let key = declaration.qualifiedName
    if let i = index[key] {
      // A second declaration of the same name (in another file): its members join the first.
      merge(declaration, into: i)
      return
    }
    index[key] = types.count
    types.append(declaration)
  }

  private mutating func merge(_ other: SwiftTypeDeclaration, into i: Int) {
    types[i].inherited += other.inherited
    types[i].properties += other.properties
    types[i].cases += other.cases
    types[i].macros += other.macros
    types[i].staticValues.merge(other.staticValues) { first, _ in first }
  }

  /// The declarations of the active clause of `#if` (none when no clause is active).
  mutating func active(_ ifConfig: IfConfigDeclSyntax, file: SwiftSourceFile) -> [DeclSyntax] {
    let (clause, found) = ifConfig.activeClause(in: conditions)
    for d in found where d.diagMessage.severity == .error {
      diagnostics.append(
        MapRuntime.Diagnostic(
          .error, id: "swift-if-condition", "this #if condition cannot be evaluated: \(d.message)",
          at: file.location(atOffset: d.position.utf8Offset)))
    }
    switch clause?.elements {
    case .statements(let items)?:
      return items.compactMap { item in
        if case .decl(let d) = item.item { return d }
        return nil
      }
    case .decls(let members)?: return members.map(\.decl)
    default: return []
    }
  }

  private mutating func collect(_ decl: DeclSyntax, scope: [String], file: SwiftSourceFile) {
    if let i = decl.as(IfConfigDeclSyntax.self) {
      for d in active(i, file: file) { collect(d, scope: scope, file: file) }
    } else if let c = decl.as(ClassDeclSyntax.self) {
      let isModel = c.attributes.contains { element in
        if case .attribute(let a) = element { return Self.simpleName(a.attributeName) == "Model" }
        return false
      }
      var t = SwiftTypeDeclaration(
        kind: isModel ? .modelClass : .plainClass, name: c.name.text, scope: scope, location: file.location(of: c.name))
      t.inherited = Self.inherited(c.inheritanceClause)
      members(c.memberBlock, into: &t, file: file)
      add(t)
      nested(c.memberBlock, scope: scope + [c.name.text], file: file)
    } else if let s = decl.as(StructDeclSyntax.self) {
      var t = SwiftTypeDeclaration(
        kind: .structure, name: s.name.text, scope: scope, location: file.location(of: s.name))
      t.inherited = Self.inherited(s.inheritanceClause)
      members(s.memberBlock, into: &t, file: file)
      add(t)
      nested(s.memberBlock, scope: scope + [s.name.text], file: file)
    } else if let e = decl.as(EnumDeclSyntax.self) {
      var t = SwiftTypeDeclaration(
        kind: .enumeration, name: e.name.text, scope: scope, location: file.location(of: e.name))
      t.inherited = Self.inherited(e.inheritanceClause)
      members(e.memberBlock, into: &t, file: file)
      add(t)
      nested(e.memberBlock, scope: scope + [e.name.text], file: file)
    } else if let a = decl.as(TypeAliasDeclSyntax.self) {
      add(
        SwiftTypeDeclaration(
          kind: .alias(a.initializer.value, file), name: a.name.text, scope: scope, location: file.location(of: a.name))
      )
    } else if let x = decl.as(ExtensionDeclSyntax.self) {
      let extended = Self.dottedName(x.extendedType)
      let path = extended.split(separator: ".").map(String.init)
      guard let last = path.last else { return }
      let outer = scope + path.dropLast()
      var t = SwiftTypeDeclaration(
        kind: .enumeration, name: last, scope: outer, location: file.location(of: x.extendedType))
      t.inherited = Self.inherited(x.inheritanceClause)
      members(x.memberBlock, into: &t, file: file)
      let key = (outer + [last]).joined(separator: ".")
      // An extension of a type alias extends the aliased type, known only once every file is
      // read: it waits with those of types not declared yet.
      if let i = index[key], !types[i].isAlias {
        merge(t, into: i)
      } else if var known = pendingExtensions[key] {
        known.inherited += t.inherited
        known.properties += t.properties
        known.staticValues.merge(t.staticValues) { first, _ in first }
        pendingExtensions[key] = known
      } else {
        pendingExtensions[key] = t
      }
      nested(x.memberBlock, scope: outer + [last], file: file)
    }
  }

  private mutating func nested(_ block: MemberBlockSyntax, scope: [String], file: SwiftSourceFile) {
    for member in block.members { collect(member.decl, scope: scope, file: file) }
  }

  /// Stored properties, static values, enum cases and `#Unique`/`#Index` of one member block.
  private mutating func members(_ block: MemberBlockSyntax, into t: inout SwiftTypeDeclaration, file: SwiftSourceFile) {
    members(block.members.map(\.decl), into: &t, file: file)
  }

  private mutating func members(_ decls: [DeclSyntax], into t: inout SwiftTypeDeclaration, file: SwiftSourceFile) {
    for decl in decls {
      if let i = decl.as(IfConfigDeclSyntax.self) {
        members(active(i, file: file), into: &t, file: file)
      } else if let v = decl.as(VariableDeclSyntax.self) {
        let isStatic = v.modifiers.contains { ["static", "class"].contains($0.name.text) }
        let bindings = Array(v.bindings)
        for (k, binding) in bindings.enumerated() {
          guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
          let name = pattern.identifier.text.replacingOccurrences(of: "`", with: "")
          if isStatic {
            if let value = binding.initializer?.value ?? Self.getterValue(binding.accessorBlock) {
              t.staticValues[name] = (value, file.location(of: value))
            }
            continue
          }
          if Self.isComputed(binding.accessorBlock) { continue }
          // `var a, b: Int`: a binding without a type or a value takes the next type written.
          var type = binding.typeAnnotation?.type
          if type == nil && binding.initializer == nil {
            type = bindings[(k + 1)...].lazy.compactMap { $0.typeAnnotation?.type }.first
          }
          let attributes = v.attributes.compactMap { element -> AttributeSyntax? in
            if case .attribute(let a) = element { return a }
            return nil
          }
          t.properties.append(
            SwiftProperty(
              name: name, type: type, initializer: binding.initializer?.value, attributes: attributes,
              location: file.location(of: pattern), source: file))
        }
      } else if let c = decl.as(EnumCaseDeclSyntax.self) {
        for element in c.elements {
          t.cases.append(
            SwiftEnumCase(
              name: element.name.text.replacingOccurrences(of: "`", with: ""),
              hasAssociatedValues: element.parameterClause != nil))
        }
      } else if let m = decl.as(MacroExpansionDeclSyntax.self) {
        t.macros.append(
          SwiftMacroUse(name: m.macroName.text, arguments: m.arguments, location: file.location(of: m), source: file))
      }
    }
  }

  /// A property with a getter (or a bare code block) is computed; one with only `willSet` or
  /// `didSet` observers is stored.
  static func isComputed(_ block: AccessorBlockSyntax?) -> Bool {
    guard let block else { return false }
    switch block.accessors {
    case .getter: return true
    case .accessors(let list):
      return list.contains { ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
    }
  }

  /// The value a computed static property returns: the last expression of its getter.
  static func getterValue(_ block: AccessorBlockSyntax?) -> ExprSyntax? {
    guard let block else { return nil }
    let statements: CodeBlockItemListSyntax?
    switch block.accessors {
    case .getter(let items): statements = items
    case .accessors(let list):
      statements = list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
    }
    guard let last = statements?.last?.item else { return nil }
    if let expr = last.as(ExprSyntax.self) { return expr }
    if let ret = last.as(ReturnStmtSyntax.self) { return ret.expression }
    return nil
  }

  static func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
    clause?.inheritedTypes.map { dottedName($0.type) } ?? []
  }

  /// `A.B.C` for a member type, the name for an identifier type, the text otherwise.
  static func dottedName(_ type: TypeSyntax) -> String {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self) { return dottedName(member.baseType) + "." + member.name.text }
    return type.trimmedDescription
  }
}
