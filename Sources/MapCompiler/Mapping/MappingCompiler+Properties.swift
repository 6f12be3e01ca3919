import MapRuntime
import MapSyntax

extension MappingCompiler {
  /// The attribute and relationship mappings of one entity mapping: the explicit ones, checked,
  /// then Xcode's implicit ones for destination properties the file does not mention.
  mutating func propertyMappings(
    _ e: EntityMappingElement, source: EntityDescription?, destination: EntityDescription,
    type: EntityMappingType, checker base: TypeChecker
  ) -> ([PropertyMapping], [PropertyMapping]) {
    let properties = index.properties(.destination, destination.name)
    let attributes = properties?.attributes ?? []
    let relationships = properties?.relationships ?? []
    var explicitAttributes: [String: PropertyMapping] = [:]
    var explicitRelationships: [String: PropertyMapping] = [:]
    var seen: [String: SourceLocation] = [:]

    for p in e.attributes {
      guard firstMention(p, seen: &seen) else { continue }
      let name = p.name.value
      guard let a = properties?.attribute(name) else {
        unknownProperty(
          p, of: .attribute, in: destination, isOtherKind: properties?.relationship(name) != nil,
          candidates: attributes.map(\.name))
        continue
      }
      if a.isDerived {
        error(
          "map-derived-attribute",
          "\(destination.name).\(name) is derived (\(a.derivationExpression ?? "")); the store computes it, a mapping cannot set it",
          at: p.name.location)
        continue
      }
      if a.isTransient {
        warning(
          "map-transient-attribute",
          "\(destination.name).\(name) is transient and is not stored; this mapping has no effect", at: p.name.location)
      }
      guard let (text, expr) = parsedExpression(of: p, .attribute) else { continue }
      var checker = base
      checker.text = text
      let t = checker.check(expr)
      absorb(&checker)
      checkAssignable(t.type, to: a, in: destination, at: text.location)
      explicitAttributes[name] = Self.explicitMapping(p, text, expr)
    }

    for p in e.relationships {
      guard firstMention(p, seen: &seen) else { continue }
      let name = p.name.value
      guard let r = properties?.relationship(name) else {
        unknownProperty(
          p, of: .relationship, in: destination, isOtherKind: properties?.attribute(name) != nil,
          candidates: relationships.map(\.name))
        continue
      }
      guard let (text, expr) = parsedExpression(of: p, .relationship) else { continue }
      var checker = base
      checker.text = text
      checker.relationship = r
      let t = checker.check(expr)
      absorb(&checker)
      checkRelationshipValue(t.type, r, in: destination, at: text.location)
      explicitRelationships[name] = Self.explicitMapping(p, text, expr)
    }

    // Implicit mappings (Xcode fills these in for properties present in both entities).
    var attributeMappings: [PropertyMapping] = []
    var relationshipMappings: [PropertyMapping] = []
    let sourceProperties = source.flatMap { index.properties(.source, $0.name) }
    for a in attributes where !a.isTransient && !a.isDerived {
      if let explicit = explicitAttributes[a.name] {
        attributeMappings.append(explicit)
      } else if let sourceProperties, type != .add,
        let sa = sourceProperties.attribute(a.name).flatMap({ $0.isTransient ? nil : $0 })
          ?? Self.matchingSourceAttribute(for: a, in: sourceProperties.attributes),
        Self.implicitlyConvertible(sa.type, a.type)
      {
        let expr = Expression(.keyPath(base: .variable("source"), components: [sa.name]))
        attributeMappings.append(PropertyMapping(name: a.name, valueExpression: CompiledExpression(expr)))
      }
    }
    for r in relationships where !r.isTransient {
      if let explicit = explicitRelationships[r.name] {
        relationshipMappings.append(explicit)
      } else if let sourceProperties, type != .add,
        let sr = sourceProperties.relationships.first(where: {
          ($0.renamingIdentifier ?? $0.name) == (r.renamingIdentifier ?? r.name) || $0.name == r.name
        })
      {
        let expr = Expression(
          .selector(
            target: .variable("manager"), selector: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
            arguments: [.string(sr.name), Expression(.keyPath(base: .variable("source"), components: [sr.name]))]))
        relationshipMappings.append(PropertyMapping(name: r.name, valueExpression: CompiledExpression(expr)))
      }
    }
    return (attributeMappings, relationshipMappings)
  }

  /// The two kinds of property element, as their messages name them.
  enum PropertyKind: String {
    case attribute, relationship

    var other: PropertyKind { self == .attribute ? .relationship : .attribute }
    /// The kind with its article, as in "… is a relationship of …".
    var withArticle: String { self == .attribute ? "an attribute" : "a relationship" }
    /// The id of an element naming no property of this kind.
    var unknownID: String { self == .attribute ? "map-unknown-attribute" : "map-unknown-relationship" }
  }

  /// Whether `p` is the first element that maps its property; reports a repeated one
  /// (`map-duplicate-property`, attributes and relationships sharing one name space).
  private mutating func firstMention(_ p: PropertyElement, seen: inout [String: SourceLocation]) -> Bool {
    let name = p.name.value
    if let first = seen[name] {
      error(
        "map-duplicate-property", "\(name) is mapped twice", at: p.name.location,
        notes: [Diagnostic.Note("first mapped here", at: first)])
      return false
    }
    seen[name] = p.name.location
    return true
  }

  /// Reports an element naming no property of its kind (`map-unknown-attribute`,
  /// `map-unknown-relationship`): a property of the other kind, or a name with a suggestion.
  private mutating func unknownProperty(
    _ p: PropertyElement, of kind: PropertyKind, in destination: EntityDescription, isOtherKind: Bool,
    candidates: [String]
  ) {
    let name = p.name.value
    let other = kind.other
    let message =
      isOtherKind
      ? "\(name) is \(other.withArticle) of \(destination.name); map it with <\(other.rawValue) name=\"\(name)\">"
      : "destination entity \(destination.name) has no \(kind.rawValue) \(name)\(suggestion(name, candidates))"
    error(kind.unknownID, message, at: p.name.location)
  }

  /// The element's expression, parsed; nil (reported) when it has none or it does not parse.
  private mutating func parsedExpression(of p: PropertyElement, _ kind: PropertyKind) -> (ExpressionText, Expression)? {
    guard let text = p.expression else {
      error("map-empty-expression", "<\(kind.rawValue) name=\"\(p.name.value)\"> has no expression", at: p.location)
      return nil
    }
    guard let expr = parse(text) else { return nil }
    return (text, expr)
  }

  /// The mapping an explicit element gives, once its expression is checked.
  private static func explicitMapping(_ p: PropertyElement, _ text: ExpressionText, _ expr: Expression)
    -> PropertyMapping
  {
    PropertyMapping(
      name: p.name.value,
      valueExpression: CompiledExpression(expr, source: ExpressionSource(text: text.text, location: text.location)),
      userInfo: p.userInfo, location: p.location)
  }

  /// The source attribute an unmentioned destination attribute takes its value from: same name,
  /// else the same renaming identifier.
  static func matchingSourceAttribute(for a: AttributeDescription, in candidates: [AttributeDescription])
    -> AttributeDescription?
  {
    if let same = candidates.first(where: { $0.name == a.name && !$0.isTransient }) { return same }
    let id = a.renamingIdentifier ?? a.name
    return candidates.first { ($0.renamingIdentifier ?? $0.name) == id && !$0.isTransient }
  }

  /// Core Data's inferred-mapping rule: the same type, or numbers and Booleans between themselves.
  package static func implicitlyConvertible(_ from: AttributeType, _ to: AttributeType) -> Bool {
    if from == to { return true }
    let numeric: Set<AttributeType> = [.integer16, .integer32, .integer64, .decimal, .double, .float, .boolean]
    return numeric.contains(from) && numeric.contains(to)
  }

  mutating func checkAssignable(
    _ t: StaticType, to a: AttributeDescription, in entity: EntityDescription, at location: SourceLocation
  ) {
    let target = StaticType.of(a.type)
    let ok: Bool
    switch (t, a.type) {
    // A collection of unknown values follows an error already reported (or a Transformable).
    case (.unknown, _), (.null, _), (.collection(.unknown, _), _): ok = true
    case (_, .transformable), (_, .undefined), (_, .objectID), (_, .composite):
      if case .object = t { ok = false } else if case .collection(.object, _) = t { ok = false } else { ok = true }
    default:
      switch target {
      case .integer, .double, .decimal, .bool: ok = t.isNumeric
      case .string: ok = t == .string
      default: ok = t == target
      }
    }
    guard !ok else { return }
    var hint = ""
    switch (t, target) {
    case (.string, .date): hint = "; convert it with FUNCTION($entityPolicy, \"dateFromString:format:\", …)"
    case (.string, .integer), (.string, .double), (.string, .decimal):
      hint = "; convert it with CAST(…, \"NSNumber\")"
    case (.integer, .string), (.double, .string), (.decimal, .string):
      hint = "; convert it with FUNCTION(…, \"stringValue\")"
    case (.date, .string): hint = "; convert it with FUNCTION($entityPolicy, \"stringFromDate:format:\", …)"
    case (.integer, .date), (.double, .date):
      hint = "; a number of seconds since 2001-01-01 becomes a date with CAST(x, \"NSDate\")"
    case (.object, _), (.collection(.object, _), _): hint = "; objects go in relationships, not attributes"
    case (.collection, _): hint = "; a key path through a to-many relationship gives one value per object"
    default: break
    }
    let article = "AEIOU".contains(a.type.rawValue.first ?? "x") ? "an" : "a"
    error(
      "map-type-mismatch",
      "\(entity.name).\(a.name) is \(article) \(a.type.rawValue) attribute, but the expression gives \(t)\(hint)",
      at: location)
  }

  mutating func checkRelationshipValue(
    _ t: StaticType, _ r: RelationshipDescription, in entity: EntityDescription, at location: SourceLocation
  ) {
    let element: StaticType
    let many: Bool
    switch t {
    case .unknown, .null: return
    case .collection(let e, let m):
      element = e
      many = m
    default:
      element = t
      many = false
    }
    switch element {
    case .unknown: break
    case .object(.source, let e):
      error(
        "map-relationship-source-objects",
        "\(entity.name).\(r.name) must hold destination objects, but the expression gives source \(e) objects; look up their migrated instances with FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"<mapping>\", …)",
        at: location)
      return
    case .object(.destination, let e):
      if !models.destination.isKind(e, of: r.destinationEntity) {
        error(
          "map-relationship-entity",
          "\(entity.name).\(r.name) holds \(r.destinationEntity) objects, but the expression gives \(e) objects",
          at: location)
        return
      }
    default:
      error(
        "map-relationship-type", "\(entity.name).\(r.name) is a relationship, but the expression gives \(element)",
        at: location)
      return
    }
    if !r.isToMany && many {
      error(
        "map-to-many-into-to-one",
        "\(entity.name).\(r.name) is a to-one relationship, but the expression can give several objects for one source object",
        at: location)
    }
  }
}
