import MapRuntime
import MapSyntax

extension MappingCompiler {
  package mutating func compileEntityMapping(
    _ e: EntityMappingElement, infos: [String: TypeChecker.MappingInfo]
  ) -> EntityMapping? {
    let name = e.name?.value ?? Self.defaultName(e)
    guard let info = infos[name], info.source == e.source?.value, info.destination == e.destination?.value else {
      return nil  // a duplicate, already reported
    }
    let sourceEntity = resolveEntity(e.source, in: models.source, side: "source")
    let destinationEntity = resolveEntity(e.destination, in: models.destination, side: "destination")
    if let d = destinationEntity, d.isAbstract, let loc = e.destination?.location {
      error(
        "map-abstract-destination", "destination entity \(d.name) is abstract; Core Data cannot create instances of it",
        at: loc)
    }
    let type = mappingType(e, sourceEntity, destinationEntity)

    // Source instances.
    var sourceExpression: CompiledExpression?
    if e.sourceExpression != nil && e.filter != nil {
      error(
        "map-source-and-filter", "an entity mapping takes <sourceExpression> or <filter>, not both",
        at: e.filter!.location)
    }
    var checkerBase = TypeChecker(
      source: models.source, destination: models.destination, index: index, mappings: infos, mapping: info,
      hasPolicy: Self.policyName(e.policy?.value) != nil, itemType: nil, text: ExpressionText("", at: e.location))
    if type != .remove, let source = sourceEntity {
      if let text = e.sourceExpression {
        if let expr = parse(text) {
          var checker = checkerBase
          checker.text = text
          let t = checker.check(expr)
          absorb(&checker)
          if case .collection(let element, _) = t.type {
            if case .object(.source, let entity) = element, !models.source.isKind(entity, of: source.name) {
              error(
                "map-source-expression",
                "the source expression yields \(entity) objects, but the mapping's source entity is \(source.name)",
                at: text.location)
            } else if element != .unknown, case .object(.source, _) = element {
            } else if element != .unknown {
              error(
                "map-source-expression",
                "the source expression must yield source \(source.name) objects, not \(t.type)", at: text.location)
            }
          } else if t.type != .unknown {
            error(
              "map-source-expression",
              "the source expression must yield a collection of source \(source.name) objects, not \(t.type)",
              at: text.location)
          }
          sourceExpression = CompiledExpression(
            expr, source: ExpressionSource(text: text.text, location: text.location))
        }
      } else {
        var predicateText = "TRUEPREDICATE"
        if let filter = e.filter?.trimmed {
          predicateText = filter.text
          switch ExpressionParsing.parsePredicate(predicateText) {
          case .failure(let f):
            diagnostics.append(.error(f.id, f.message, at: filter.location(ofOffset: f.offset)))
          case .success(let p):
            var checker = checkerBase
            checker.text = filter
            checker.checkPredicateAt(p, selfType: .object(.source, source.name))
            absorb(&checker)
            if !predicates.contains(where: { $0.text == predicateText }) {
              predicates.append(PrecompiledPredicate(text: predicateText, predicate: p))
            }
          }
        } else if !predicates.contains(where: { $0.text == predicateText }) {
          predicates.append(PrecompiledPredicate(text: predicateText, predicate: .truePredicate))
        }
        sourceExpression = CompiledExpression(Self.defaultFetch(source.name, predicateText))
      }
    } else if let text = e.sourceExpression ?? e.filter, type == .remove || sourceEntity == nil, e.source == nil {
      error(
        "map-source-expression", "a mapping without a source entity cannot have a source expression or filter",
        at: text.location)
    }

    // Fan-out.
    var forEach: CompiledExpression?
    var itemType: Typed?
    if let text = e.forEach {
      if destinationEntity == nil && e.destination == nil {
        error(
          "map-foreach-without-destination", "<forEach> needs a destination entity to create instances of",
          at: text.location)
      }
      if let expr = parse(text) {
        var checker = checkerBase
        checker.text = text
        let t = checker.check(expr)
        absorb(&checker)
        itemType = Typed(t.type.elementType, mayBeNil: true)
        forEach = CompiledExpression(expr, source: ExpressionSource(text: text.text, location: text.location))
      } else {
        itemType = .unknown
      }
    }
    checkerBase = TypeChecker(
      source: models.source, destination: models.destination, index: index, mappings: infos, mapping: info,
      hasPolicy: Self.policyName(e.policy?.value) != nil, itemType: itemType, text: ExpressionText("", at: e.location))

    var attributeMappings: [PropertyMapping] = []
    var relationshipMappings: [PropertyMapping] = []
    if let destination = destinationEntity {
      (attributeMappings, relationshipMappings) = propertyMappings(
        e, source: sourceEntity, destination: destination, type: type, checker: checkerBase)
    } else {
      for p in e.attributes + e.relationships {
        error(
          "map-property-without-destination",
          "mapping \(name) has no destination entity, so it cannot set \(p.name.value)", at: p.location)
      }
    }

    return EntityMapping(
      name: name, type: type, sourceEntity: e.source?.value, destinationEntity: e.destination?.value,
      policyName: Self.policyName(e.policy?.value), userInfo: e.userInfo,
      sourceExpression: sourceExpression, forEach: forEach, attributeMappings: attributeMappings,
      relationshipMappings: relationshipMappings, location: e.location)
  }

  /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "E", "P"), $manager.sourceContext, NO)`.
  static func defaultFetch(_ entity: String, _ predicate: String) -> Expression {
    let request = Expression(
      .selector(
        target: .variable("manager"), selector: "fetchRequestForSourceEntityNamed:predicateString:",
        arguments: [.string(entity), .string(predicate)]))
    let context = Expression(.keyPath(base: .variable("manager"), components: ["sourceContext"]))
    return Expression(.fetch(request: request, context: context, countOnly: false))
  }

  mutating func absorb(_ checker: inout TypeChecker) {
    diagnostics.append(contentsOf: checker.diagnostics)
    checker.diagnostics = []
    for p in checker.predicates where !predicates.contains(where: { $0.text == p.text }) {
      predicates.append(p)
    }
    checker.predicates = []
  }

  /// Parses an expression, reporting a syntax error at its exact position.
  mutating func parse(_ text: ExpressionText) -> Expression? {
    let body = text.text
    if body.isXMLSpaceOnly {
      error("map-empty-expression", "the expression is empty", at: text.location)
      return nil
    }
    switch ExpressionParsing.parseExpression(body) {
    case .success(let e): return e
    case .failure(let f):
      diagnostics.append(.error(f.id, f.message, at: text.location(ofOffset: f.offset)))
      return nil
    }
  }

  private mutating func resolveEntity(_ name: Located<String>?, in model: ObjectModel, side: String)
    -> EntityDescription?
  {
    guard let name else { return nil }
    if let e = model.entity(named: name.value) { return e }
    error(
      "map-unknown-entity",
      "the \(side) model has no entity \(name.value)\(suggestion(name.value, model.entities.map(\.name)))",
      at: name.location)
    return nil
  }

  /// The declared type, checked against the entities; or Core Data's rule when absent.
  private mutating func mappingType(
    _ e: EntityMappingElement, _ source: EntityDescription?, _ destination: EntityDescription?
  ) -> EntityMappingType {
    let hashesEqual: Bool? = {
      guard let s = source, let d = destination,
        let hs = sourceHashByEntity[s.name], let hd = destinationHashByEntity[d.name]
      else { return nil }
      return hs.hash == hd.hash && s.name == d.name
    }()
    guard let declared = e.type else {
      if e.source == nil { return .add }
      if e.destination == nil { return .remove }
      return hashesEqual == true ? .copy : .transform
    }
    guard let type = EntityMappingType(rawValue: declared.value) else {
      error(
        "map-unknown-type",
        "unknown entity mapping type \(declared.value); use one of \(EntityMappingType.allCases.map(\.rawValue).joined(separator: ", "))\(suggestion(declared.value, EntityMappingType.allCases.map(\.rawValue)))",
        at: declared.location)
      return .transform
    }
    switch type {
    case .add:
      if let s = e.source {
        error(
          "map-type-entities", "an add mapping creates instances from nothing; it cannot have source=\"\(s.value)\"",
          at: s.location)
      }
      if e.destination == nil {
        error("map-type-entities", "an add mapping needs a destination entity", at: declared.location)
      }
    case .remove:
      if let d = e.destination {
        error(
          "map-type-entities", "a remove mapping drops its source instances; it cannot have destination=\"\(d.value)\"",
          at: d.location)
      }
      if e.source == nil { error("map-type-entities", "a remove mapping needs a source entity", at: declared.location) }
    case .copy, .transform:
      if e.source == nil || e.destination == nil {
        error(
          "map-type-entities", "a \(type.rawValue) mapping needs both a source and a destination entity",
          at: declared.location)
      }
      if type == .copy, hashesEqual == false, let s = source, let d = destination {
        error(
          "map-copy-hash-mismatch",
          "a copy mapping needs identical entities, but \(s.name) in the source model and \(d.name) in the destination model have different version hashes; use type=\"transform\"",
          at: declared.location)
      }
    case .custom, .undefined:
      break
    }
    return type
  }
}

extension MappingCompiler {
  /// The policy a mapping names, nil for none. The class `mapc export --policy-source` writes for
  /// mappings without a policy of their own (`<Model>MapcPolicy`) stands for mapc's default policy
  /// with its library, so it is none: an exported mapping model compiles to the plan of the
  /// mapping it was exported from.
  static func policyName(_ written: String?) -> String? {
    guard let written, !written.isEmpty, DeviceFunctions.generatedPolicyBase(written) != "" else { return nil }
    return written
  }
}
