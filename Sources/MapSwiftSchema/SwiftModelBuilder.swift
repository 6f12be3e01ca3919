import MapRuntime
import SwiftSyntax

/// Builds the Core Data model of one schema version from its `@Model` classes, as SwiftData
/// does (Specs/swiftdata-schema.md): attributes, composites, relationships and their inverses,
/// uniqueness constraints and indexes.
struct SwiftModelBuilder {
  let declarations: SwiftDeclarations
  private(set) var diagnostics: [MapRuntime.Diagnostic] = []

  init(declarations: SwiftDeclarations) {
    self.declarations = declarations
  }

  /// A relationship before inverses are known: its entity, and the inverse it names.
  private struct PendingInverse {
    var entity: Int
    var relationship: Int
    var type: String
    var property: String
    var scope: [String]
    var location: MapRuntime.SourceLocation
  }

  /// The model of `classes` (the version's model classes, each once); nil when an error was
  /// found (in `diagnostics`).
  mutating func model(of classes: [SwiftTypeDeclaration], identifier: String, name: String) -> ObjectModel? {
    let before = diagnostics.count
    var entities: [EntityDescription] = []
    var pending: [PendingInverse] = []
    var byName: [String: SwiftTypeDeclaration] = [:]
    for c in classes {
      if let other = byName[c.name] {
        diagnostics.append(
          MapRuntime.Diagnostic(
            .error, id: "swift-duplicate-entity",
            "two @Model classes named '\(c.name)' in one schema version (the other is \(other.qualifiedName) at \(other.location))",
            at: c.location))
        continue
      }
      byName[c.name] = c
    }
    for c in classes where byName[c.name]?.qualifiedName == c.qualifiedName {
      entities.append(entity(c, index: entities.count, pending: &pending))
    }
    guard diagnostics.count == before else { return nil }
    resolveInverses(&entities, pending: pending)
    guard diagnostics.count == before else { return nil }
    let model = ObjectModel(
      entities: entities, versionIdentifiers: [identifier],
      configurations: [ModelConfiguration(name: "default", memberEntities: entities.map(\.name).sorted())],
      versionName: name)
    checkIndexes(model)
    guard diagnostics.count == before else { return nil }
    return model
  }

  // MARK: Entities

  private mutating func entity(_ c: SwiftTypeDeclaration, index: Int, pending: inout [PendingInverse])
    -> EntityDescription
  {
    var e = EntityDescription(name: c.name, className: c.name, location: c.location)
    let scope = c.scope + [c.name]
    if let first = c.inherited.first,
      case .model(let parent)? = SwiftStorage.resolve(first, from: c.scope, in: declarations)
    {
      e.parentName = parent.name
    }
    for p in c.properties where p.attribute(named: "Transient") == nil {
      do throws(MapRuntime.Diagnostic) {
        let options = try SwiftPropertyOptions(p)
        guard
          let written = p.type.map({ SwiftWrittenType($0, in: p.source) })
            ?? p.initializer.flatMap(SwiftWrittenType.init(initialValue:))
        else {
          throw MapRuntime.Diagnostic(
            .error, id: "swift-untyped-property",
            "the type of '\(p.name)' is not written and its initial value does not tell it: write its type (var \(p.name): Type)",
            at: p.location)
        }
        var (base, optional) = (written, false)
        while case .optional(let inner) = base { (base, optional) = (inner, true) }
        if case .array(.named(let element)) = base,
          case .model(let destination)? = SwiftStorage.resolve(element, from: scope, in: declarations)
        {
          e.relationships.append(relationship(p, options, to: destination, optional: optional, toMany: true))
        } else if case .named(let n) = base,
          case .model(let destination)? = SwiftStorage.resolve(n, from: scope, in: declarations)
        {
          e.relationships.append(relationship(p, options, to: destination, optional: optional, toMany: false))
        } else {
          if options.isRelationship {
            throw MapRuntime.Diagnostic(
              .error, id: "swift-attribute-argument",
              "@Relationship on '\(p.name)', whose type \(written.text) is not a @Model class or an array of one",
              at: p.location)
          }
          // A value transformer stores any type: its Swift type is not looked up.
          var a =
            options.transformerName == nil
            ? try attribute(p, base, optional: optional, scope: scope)
            : AttributeDescription(name: p.name, type: .transformable, isOptional: optional, location: p.location)
          a.renamingIdentifier = options.originalName
          a.versionHashModifier = options.hashModifier
          a.allowsExternalBinaryDataStorage = options.externalStorage
          a.preservesValueInHistoryOnDeletion = options.preservesValueOnDeletion
          a.isTransient = options.isEphemeral
          a.isIndexedBySpotlight = options.spotlight
          a.allowsCloudEncryption = options.allowsCloudEncryption
          if let transformer = options.transformerName {
            a.valueTransformerName = transformer
            a.customClassName = written.text.hasSuffix("?") ? String(written.text.dropLast()) : written.text
          }
          e.attributes.append(a)
        }
        if options.isUnique { e.uniquenessConstraints.append([p.name]) }
        if let inverse = options.inverse, options.isRelationship, !e.relationships.isEmpty,
          e.relationships.last!.name == p.name
        {
          pending.append(
            PendingInverse(
              entity: index, relationship: e.relationships.count - 1, type: inverse.type, property: inverse.property,
              scope: scope, location: p.location))
        }
      } catch {
        diagnostics.append(error)
      }
    }
    for m in c.macros where m.name == "Unique" || m.name == "Index" {
      do throws(MapRuntime.Diagnostic) {
        let groups = try keyPathGroups(m)
        if m.name == "Unique" {
          e.uniquenessConstraints += groups
        } else {
          for g in groups {
            e.fetchIndexes.append(
              FetchIndexDescription(
                name: "SwiftDataIndexOnBinary" + g.joined(), elements: g.map { .init(property: $0) }))
            if g.count > 1 { e.compoundIndexes.append(g) }
          }
        }
      } catch {
        diagnostics.append(error)
      }
    }
    return e
  }

  /// The properties `#Unique` and `#Index` name (and `@Attribute(.unique)`): stored properties of
  /// the class or of a class it inherits from, each once in a group. A key path into a
  /// composite's element (`\.place.lat`) is refused: what SwiftData makes of it is not known,
  /// and Core Data names no index or constraint after an element.
  private mutating func checkIndexes(_ model: ObjectModel) {
    for e in model.entities {
      let names = Set(model.allAttributes(of: e).map(\.name) + model.allRelationships(of: e).map(\.name))
      let groups =
        e.uniquenessConstraints.map { ("#Unique", $0) } + e.fetchIndexes.map { ("#Index", $0.elements.map(\.property)) }
      for (macro, group) in groups {
        if let name = group.first(where: { $0.contains(".") }) {
          diagnostics.append(
            MapRuntime.Diagnostic(
              .error, id: "swift-attribute-argument",
              "\(macro) on '\(e.name)' names '\(name)', an element of a composite, which mapc does not index (what SwiftData makes of it is not known)",
              at: e.location))
        } else if let name = group.first(where: { !names.contains($0) }) {
          diagnostics.append(
            MapRuntime.Diagnostic(
              .error, id: "swift-attribute-argument",
              "\(macro) on '\(e.name)' names '\(name)', which is no stored property of \(e.name)", at: e.location))
        } else if Set(group).count != group.count {
          diagnostics.append(
            MapRuntime.Diagnostic(
              .error, id: "swift-attribute-argument",
              "\(macro) on '\(e.name)' names a property twice in one group (\(group.joined(separator: ", ")))",
              at: e.location))
        }
      }
    }
  }

  /// `#Unique<T>([\.a, \.b], [\.c])`, `#Index<T>(…)`: the property names of each group.
  private func keyPathGroups(_ m: SwiftMacroUse) throws(MapRuntime.Diagnostic) -> [[String]] {
    var groups: [[String]] = []
    for argument in m.arguments {
      guard let array = argument.expression.as(ArrayExprSyntax.self) else {
        throw MapRuntime.Diagnostic(
          .error, id: "swift-attribute-argument",
          "#\(m.name) takes arrays of key paths ([\\.a, \\.b]); found '\(argument.expression.trimmedDescription)'",
          at: m.source.location(of: argument))
      }
      var group: [String] = []
      for element in array.elements {
        guard let path = element.expression.as(KeyPathExprSyntax.self) else {
          throw MapRuntime.Diagnostic(
            .error, id: "swift-attribute-argument",
            "#\(m.name) takes key paths (\\.property); found '\(element.expression.trimmedDescription)'",
            at: m.source.location(of: element))
        }
        let names = path.components.compactMap { component -> String? in
          if case .property(let p) = component.component { return p.declName.baseName.text }
          return nil
        }
        group.append(names.joined(separator: "."))
      }
      if !group.isEmpty { groups.append(group) }
    }
    return groups
  }

  private func relationship(
    _ p: SwiftProperty, _ options: SwiftPropertyOptions, to destination: SwiftTypeDeclaration, optional: Bool,
    toMany: Bool
  ) -> RelationshipDescription {
    RelationshipDescription(
      name: p.name, destinationEntity: destination.name, inverseEntity: nil, isOptional: optional, isToMany: toMany,
      minCount: options.minimumCount, maxCount: toMany ? options.maximumCount : 1, deleteRule: options.deleteRule,
      renamingIdentifier: options.originalName, versionHashModifier: options.hashModifier, location: p.location)
  }

  // MARK: Attributes

  private func attribute(_ p: SwiftProperty, _ base: SwiftWrittenType, optional: Bool, scope: [String])
    throws(MapRuntime.Diagnostic) -> AttributeDescription
  {
    switch base {
    case .array(let element):
      // Checked: the element must be a type SwiftData can store.
      _ = try storage(of: element, for: p, scope: scope)
      return AttributeDescription(
        name: p.name, type: .transformable, isOptional: optional, valueTransformerName: "NSSecureUnarchiveFromData",
        customClassName: "Array<\(element.text)>", location: p.location)
    case .named(let n):
      guard let storage = SwiftStorage.resolve(n, from: scope, in: declarations) else {
        throw unknown(n, p)
      }
      switch storage {
      case .primitive(let type):
        var a = AttributeDescription(name: p.name, type: type, isOptional: optional, location: p.location)
        a.defaultValueString = p.initializer.flatMap { defaultText($0, for: type) }
        return a
      case .model:
        throw unsupported(p, base, "a @Model class here")
      case .structure(let s):
        return try composite(p.name, s, optional: optional, at: p, within: [])
      case .enumeration(let e):
        return try enumComposite(p.name, e, optional: optional, at: p)
      case .resolvedColor:
        return resolvedColor(p.name, optional: optional, at: p.location)
      }
    case .optional, .set, .dictionary, .other:
      throw unsupported(p, base, nil)
    }
  }

  /// A `Codable` struct as a composite attribute: one element per stored property, each
  /// optional (as SwiftData writes them), arrays as binary elements.
  /// Structs within structs a composite attribute may nest (`swift-too-deep` past it): every
  /// level is a nested element, and Core Data's composites are meant to be shallow.
  static let maximumCompositeDepth = 32

  private func composite(
    _ name: String, _ s: SwiftTypeDeclaration, optional: Bool, at p: SwiftProperty, within: [String]
  ) throws(MapRuntime.Diagnostic) -> AttributeDescription {
    // `within`: the structs this one is an element of, outermost first.
    guard !within.contains(s.qualifiedName) else {
      throw unsupported(p, .named(s.name), "a struct that contains itself")
    }
    guard within.count < Self.maximumCompositeDepth else {
      throw MapRuntime.Diagnostic(
        .error, id: "swift-too-deep",
        "'\(p.name)' has the type \(s.name), a struct nested \(within.count + 1) deep in composites; mapc maps at most \(Self.maximumCompositeDepth)",
        at: p.location)
    }
    var a = AttributeDescription(name: name, type: .composite, isOptional: optional, location: p.location)
    let scope = s.scope + [s.name]
    for member in s.properties {
      guard
        let written = member.type.map({ SwiftWrittenType($0, in: member.source) })
          ?? member.initializer.flatMap(SwiftWrittenType.init(initialValue:))
      else {
        throw MapRuntime.Diagnostic(
          .error, id: "swift-untyped-property",
          "the type of '\(s.name).\(member.name)' is not written and its initial value does not tell it: write its type",
          at: member.location)
      }
      var base = written
      while case .optional(let inner) = base { base = inner }
      switch base {
      case .array, .set, .dictionary:
        a.compositeElements.append(
          AttributeDescription(name: member.name, type: .binary, isOptional: true, location: member.location))
      case .named(let n):
        guard let storage = SwiftStorage.resolve(n, from: scope, in: declarations) else { throw unknown(n, member) }
        switch storage {
        case .primitive(let type):
          a.compositeElements.append(
            AttributeDescription(name: member.name, type: type, isOptional: true, location: member.location))
        case .structure(let inner):
          a.compositeElements.append(
            try composite(member.name, inner, optional: true, at: member, within: within + [s.qualifiedName]))
        case .enumeration(let e):
          a.compositeElements.append(try enumComposite(member.name, e, optional: true, at: member))
        case .resolvedColor:
          a.compositeElements.append(resolvedColor(member.name, optional: true, at: member.location))
        case .model:
          throw unsupported(member, base, "a @Model class inside a Codable struct")
        }
      case .optional, .other:
        throw unsupported(member, base, nil)
      }
    }
    return a
  }

  /// A `Codable` enum as a composite: with a raw type, one element named like the property, of
  /// the raw type; without, one text element per case. Marked `EnumType` as SwiftData does.
  private func enumComposite(_ name: String, _ e: SwiftTypeDeclaration, optional: Bool, at p: SwiftProperty)
    throws(MapRuntime.Diagnostic) -> AttributeDescription
  {
    if let carrying = e.cases.first(where: \.hasAssociatedValues) {
      throw unsupported(p, .named(e.name), "an enum with associated values (case \(carrying.name))")
    }
    var a = AttributeDescription(
      name: name, type: .composite, isOptional: optional, userInfo: UserInfo([.init(key: "EnumType", value: "YES")]),
      location: p.location)
    let raw = e.inherited.lazy.compactMap { name -> AttributeType? in
      name == "Character" ? .string : SwiftStorage.primitives[name]
    }.first
    if let raw {
      a.compositeElements = [AttributeDescription(name: name, type: raw, isOptional: true, location: p.location)]
    } else {
      a.compositeElements = e.cases.map {
        AttributeDescription(name: $0.name, type: .string, isOptional: true, location: p.location)
      }
    }
    return a
  }

  private func resolvedColor(_ name: String, optional: Bool, at location: MapRuntime.SourceLocation)
    -> AttributeDescription
  {
    AttributeDescription(
      name: name, type: .composite, isOptional: optional,
      compositeElements: SwiftStorage.resolvedColorElements.map {
        AttributeDescription(name: $0, type: .float, location: location)
      }, location: location)
  }

  private func storage(of element: SwiftWrittenType, for p: SwiftProperty, scope: [String])
    throws(MapRuntime.Diagnostic) -> SwiftStorage?
  {
    var base = element
    while case .optional(let inner) = base { base = inner }
    guard case .named(let n) = base else { throw unsupported(p, .array(element), nil) }
    guard let storage = SwiftStorage.resolve(n, from: scope, in: declarations) else { throw unknown(n, p) }
    return storage
  }

  /// A literal initial value as Core Data's default value text; nil for anything else.
  private func defaultText(_ expr: ExprSyntax, for type: AttributeType) -> String? {
    switch type {
    case .string:
      return SwiftPropertyOptions.literal(expr)
    case .boolean:
      guard let b = expr.as(BooleanLiteralExprSyntax.self) else { return nil }
      return b.literal.tokenKind == .keyword(.true) ? "YES" : "NO"
    case .integer16, .integer32, .integer64, .double, .float, .decimal:
      var sign = ""
      var e = expr
      if let p = expr.as(PrefixOperatorExprSyntax.self), p.operator.text == "-" {
        sign = "-"
        e = p.expression
      }
      if let i = e.as(IntegerLiteralExprSyntax.self), let v = i.representedLiteralValue { return sign + String(v) }
      if [.double, .float, .decimal].contains(type), let f = e.as(FloatLiteralExprSyntax.self) {
        return sign + f.literal.text.replacingOccurrences(of: "_", with: "")
      }
      return nil
    default:
      return nil
    }
  }

  private func unknown(_ name: String, _ p: SwiftProperty) -> MapRuntime.Diagnostic {
    MapRuntime.Diagnostic(
      .error, id: "swift-unknown-type",
      "the type '\(name)' of '\(p.name)' is not declared in the given files and is not one SwiftData stores as an attribute (String, Int, Double, Float, Bool, Date, Data, UUID, URL, Decimal, a Codable struct or enum, or an array of them): give the file that declares it; for a type of another module (CoreLocation's CLLocationCoordinate2D), give a file that declares a Codable struct of that name with the stored properties SwiftData encodes",
      at: p.location)
  }

  private func unsupported(_ p: SwiftProperty, _ type: SwiftWrittenType, _ what: String?) -> MapRuntime.Diagnostic {
    MapRuntime.Diagnostic(
      .error, id: "swift-unsupported-type",
      "'\(p.name)' has the type \(type.text)\(what.map { ", \($0)" } ?? ""), which mapc does not map to a Core Data attribute (sets, dictionaries, tuples, generic types and enums with associated values are not supported)",
      at: p.location)
  }

  // MARK: Inverses

  /// Inverses named with `@Relationship(inverse:)`, then the ones SwiftData infers: a
  /// relationship from A to B and the only one from B back to A, when neither has an inverse.
  private mutating func resolveInverses(_ entities: inout [EntityDescription], pending: [PendingInverse]) {
    let index = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    let relationshipIndex = entities.map { e in
      Dictionary(e.relationships.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    }
    for p in pending {
      let source = entities[p.entity].relationships[p.relationship]
      let target: String? = {
        if case .model(let d)? = SwiftStorage.resolve(p.type, from: p.scope, in: declarations) { return d.name }
        return nil
      }()
      guard let target, let t = index[target], let k = relationshipIndex[t][p.property] else {
        diagnostics.append(
          MapRuntime.Diagnostic(
            .error, id: "swift-unknown-inverse",
            "the inverse \\\(p.type).\(p.property) of '\(source.name)' is not a relationship of a @Model class of this schema version",
            at: p.location))
        continue
      }
      let other = entities[t].relationships[k]
      guard target == source.destinationEntity, other.destinationEntity == entities[p.entity].name else {
        diagnostics.append(
          MapRuntime.Diagnostic(
            .error, id: "swift-unknown-inverse",
            "the inverse \\\(p.type).\(p.property) of '\(source.name)' does not point back: '\(source.name)' leads to \(source.destinationEntity), '\(p.property)' to \(other.destinationEntity)",
            at: p.location))
        continue
      }
      link(&entities, (p.entity, p.relationship), (t, k))
    }
    // The relationships still without an inverse, by (entity, destination): one pass each way.
    struct Pair: Hashable {
      var from: Int
      var to: Int
    }
    var open: [Pair: [Int]] = [:]
    for e in entities.indices {
      for (r, relationship) in entities[e].relationships.enumerated() where relationship.inverseName == nil {
        if let d = index[relationship.destinationEntity], d != e { open[Pair(from: e, to: d), default: []].append(r) }
      }
    }
    for (pair, forward) in open.sorted(by: { ($0.key.from, $0.key.to) < ($1.key.from, $1.key.to) })
    where pair.from < pair.to && forward.count == 1 {
      guard let back = open[Pair(from: pair.to, to: pair.from)], back.count == 1 else { continue }
      link(&entities, (pair.from, forward[0]), (pair.to, back[0]))
    }
  }

  private func link(_ entities: inout [EntityDescription], _ a: (Int, Int), _ b: (Int, Int)) {
    entities[a.0].relationships[a.1].inverseName = entities[b.0].relationships[b.1].name
    entities[a.0].relationships[a.1].inverseEntity = entities[b.0].name
    entities[b.0].relationships[b.1].inverseName = entities[a.0].relationships[a.1].name
    entities[b.0].relationships[b.1].inverseEntity = entities[a.0].name
  }
}
