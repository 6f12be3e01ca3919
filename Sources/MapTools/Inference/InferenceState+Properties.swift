import MapCompiler
import MapRuntime
import MapSyntax

extension InferenceState {
  /// The explicit `<attribute>` and `<relationship>` elements of one entity mapping: renamed
  /// properties, optional values becoming mandatory (with the destination's default), and
  /// destination properties the compiler would otherwise fill from a same-named source property
  /// that inference did not match. Reports what cannot be inferred.
  mutating func propertyElements(_ s: EntityDescription, _ d: EntityDescription) -> (
    [PropertyElement], [PropertyElement]
  ) {
    let sourceAttributes = MatchKey.Index(
      source.allAttributes(of: s).filter { !$0.isTransient }, name: \.name, renamingIdentifier: \.renamingIdentifier)
    var attributes: [PropertyElement] = []
    for a in destination.allAttributes(of: d) where !a.isTransient && !a.isDerived {
      let at = a.location ?? d.location
      guard
        let (_, match) = uniqueMatch(
          "attribute", a.name, a.renamingIdentifier, in: sourceAttributes, name: \.name, s, d, at: at)
      else { continue }
      guard let sa = match else {
        if !a.isOptional && a.defaultValue == nil {
          problem(
            "infer-mandatory-without-default",
            "attribute \(d.name).\(a.name) is new and mandatory with no default value, so existing \(s.name) objects would have none; give it a default value in the model, or write a mapping with <attribute name=\"\(a.name)\">EXPRESSION</attribute> in <entityMapping source=\"\(s.name)\" destination=\"\(d.name)\">",
            at: at, in: destination)
        } else if sourceAttributes.hasName(a.name) {
          // The compiler would take the unrelated same-named source attribute.
          attributes.append(element(a.name, DefaultLiteral.text(a.defaultValue) ?? "nil"))
        }
        continue
      }
      if sa.name != a.name { renames.append("\(s.name).\(sa.name) → \(d.name).\(a.name)") }
      guard MappingCompiler.implicitlyConvertible(sa.type, a.type) else {
        problem(
          "infer-type-change",
          "attribute \(d.name).\(a.name) is \(a.type.rawValue) but \(s.name).\(sa.name) was \(sa.type.rawValue) (Core Data: \"Source and destination attribute types are incompatible\"; only numbers and Booleans convert); write a mapping with <attribute name=\"\(a.name)\">\(Self.conversion(from: sa, to: a))</attribute> in <entityMapping source=\"\(s.name)\" destination=\"\(d.name)\">",
          at: at, in: destination)
        continue
      }
      var expression = "$source.\(sa.name)"
      // Optional to mandatory: with a default, nil becomes it (Core Data's own form, as its
      // `_nonNilValueOrDefaultValueForAttribute…`; a device has no defaultValue:for:). Without
      // one Core Data still infers the step, copying the value (its builder has no error for
      // it, reference §5.3): the step goes on when no object holds nil, and an object that
      // does fails the destination's validation (`run-validation-mandatory`), named.
      if sa.isOptional && !a.isOptional, let fallback = DefaultLiteral.text(a.defaultValue) {
        expression = "TERNARY($source.\(sa.name) != nil, $source.\(sa.name), \(fallback))"
      } else if sa.name == a.name {
        continue  // the compiler's implicit $source.name
      }
      attributes.append(element(a.name, expression))
    }
    return (attributes, relationshipElements(s, d))
  }

  private mutating func relationshipElements(_ s: EntityDescription, _ d: EntityDescription) -> [PropertyElement] {
    let sourceRelationships = MatchKey.Index(
      source.allRelationships(of: s).filter { !$0.isTransient }, name: \.name,
      renamingIdentifier: \.renamingIdentifier)
    var result: [PropertyElement] = []
    for r in destination.allRelationships(of: d) where !r.isTransient {
      let at = r.location ?? d.location
      guard
        let (key, match) = uniqueMatch(
          "relationship", r.name, r.renamingIdentifier, in: sourceRelationships, name: \.name, s, d, at: at)
      else { continue }
      guard let sr = match else {
        // Core Data infers a new mandatory to-many whose minimum count is 0: the existing
        // objects get an empty one, which passes validation. A to-one, or a to-many that must
        // hold objects, would have none.
        if !r.isOptional && (!r.isToMany || r.minCount > 0) {
          let what =
            r.isToMany
            ? "is new and must hold at least \(r.minCount) object\(r.minCount == 1 ? "" : "s")"
            : "is a new mandatory to-one relationship"
          problem(
            "infer-mandatory-without-default",
            "relationship \(d.name).\(r.name) \(what), so existing \(s.name) objects would have none (Core Data infers a new mandatory relationship only when it is to-many with a minimum count of 0: an empty one); make it optional, or write a mapping with <relationship name=\"\(r.name)\">EXPRESSION</relationship> in <entityMapping source=\"\(s.name)\" destination=\"\(d.name)\">",
            at: at, in: destination)
        } else if sourceRelationships.hasName(r.name) || sourceRelationships.hasKey(key) {
          result.append(element(r.name, "nil"))
        }
        continue
      }
      if sr.name != r.name { renames.append("\(s.name).\(sr.name) → \(d.name).\(r.name)") }
      let target = destinationOf[sr.destinationEntity]
      guard let target, destination.isKind(target, of: r.destinationEntity) else {
        problem(
          "infer-relationship",
          "relationship \(d.name).\(r.name) holds \(r.destinationEntity) objects, but \(s.name).\(sr.name) held \(sr.destinationEntity) objects, which \(target.map { "become \($0) objects" } ?? "have no counterpart in the destination model") (Core Data: \"Unable to infer mapping for relationship\"); write a mapping that sets <relationship name=\"\(r.name)\">",
          at: at, in: destination)
        continue
      }
      if sr.isToMany && !r.isToMany {
        problem(
          "infer-to-many-into-to-one",
          "relationship \(d.name).\(r.name) is to-one, but \(s.name).\(sr.name) was to-many: objects with several would lose all but one; write a mapping that picks one, e.g. <relationship name=\"\(r.name)\">FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"\(sr.name)\", $source.\(sr.name).@first)</relationship>",
          at: at, in: destination)
        continue
      }
      guard sr.name != r.name else { continue }  // the compiler's implicit relationship mapping
      result.append(
        element(
          r.name,
          "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\", \"\(sr.name)\", $source.\(sr.name))"
        ))
    }
    return result
  }

  /// The match key of destination property `name` of `d` (a `kind`) and the one source
  /// property of `s` it designates (nil: none); nil after reporting several
  /// (`infer-ambiguous-match`).
  private mutating func uniqueMatch<P>(
    _ kind: String, _ name: String, _ renamingIdentifier: String?, in sourceProperties: MatchKey.Index<P>,
    name propertyName: (P) -> String, _ s: EntityDescription, _ d: EntityDescription, at: SourceLocation?
  ) -> (key: String, match: P?)? {
    if let given {
      // A reversed step: the source property the forward step read into this one, if any.
      let from = given.properties[d.name]?[name]
      let found = from.map { sourceProperties.named($0) } ?? []
      if let first = found.first { matching.properties[d.name, default: [:]][name] = propertyName(first) }
      return (name, found.first)
    }
    let key = MatchKey.wanted(name: name, renamingIdentifier: renamingIdentifier)
    var candidates = sourceProperties.candidates(key)
    // As for entities: an identifier that names nothing falls back to the property's name.
    if candidates.isEmpty, key != name, sourceProperties.hasName(name) {
      candidates = sourceProperties.candidates(name)
      diagnostics.append(
        .warning(
          "infer-renaming-identifier-unmatched",
          "\(kind) \(d.name).\(name)'s renaming identifier \(key) names no \(kind) of \(s.name); matched by its name (Core Data would take it for a new \(kind) and drop the source's values)",
          at: at, file: destination.path))
    }
    guard candidates.count <= 1 else {
      problem(
        "infer-ambiguous-match",
        "\(kind) \(d.name).\(name) (renaming identifier \(key)) matches several \(kind)s of \(s.name): \(candidates.map(propertyName).joined(separator: ", ")); make the renaming identifiers unique",
        at: at, in: destination)
      return nil
    }
    if let first = candidates.first { matching.properties[d.name, default: [:]][name] = propertyName(first) }
    return (key, candidates.first)
  }

  private func element(_ name: String, _ expression: String) -> PropertyElement {
    PropertyElement(name: Located(name, at: here), expression: ExpressionText(expression, at: here), location: here)
  }

  /// A starting point for the expression of a type change that cannot be inferred.
  static func conversion(from sa: AttributeDescription, to a: AttributeDescription) -> String {
    let value = "$source.\(sa.name)"
    switch (sa.type, a.type) {
    case (.string, .date): return "FUNCTION($entityPolicy, \"dateFromString:format:\", \(value), \"yyyy-MM-dd\")"
    // Core Data's own forms where there is one: a device has mapc's library only from a policy.
    case (.string, let t) where t.isNumeric: return "CAST(\(value), \"NSNumber\")"
    case (let t, .string) where t.isNumeric || t == .boolean: return "FUNCTION(\(value), \"stringValue\")"
    case (.date, .string): return "FUNCTION($entityPolicy, \"stringFromDate:format:\", \(value), \"yyyy-MM-dd\")"
    default: return "EXPRESSION"
    }
  }
}
