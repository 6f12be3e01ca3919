import MapRuntime

/// `FUNCTION(…)` calls: selectors on receivers, built-in functions and policy functions.
extension TypeChecker {
  mutating func selectorCall(_ target: Expression, _ selector: String, _ args: [Expression], _ span: SourceSpan)
    -> Typed
  {
    let colons = selector.filter { $0 == ":" }.count
    if colons != args.count {
      error(
        "map-selector-arity",
        "selector \(selector) takes \(colons) argument\(colons == 1 ? "" : "s") (one per colon), but \(args.count) \(args.count == 1 ? "is" : "are") given",
        span)
    }
    let t = check(target)
    switch t.type {
    case .manager:
      return managerCall(selector, args, span)
    case .entityPolicy:
      let types = args.map { check($0) }
      if let arity = KnownFunctions.entityPolicy[selector] {
        _ = arity
        return policyResult(selector, types, args, span)
      }
      if !hasPolicy {
        error(
          "map-unknown-selector",
          "no built-in policy function \(selector) and mapping \(mapping.name) names no policy that could implement it\(suggestion(selector, KnownFunctions.entityPolicy.keys))",
          span)
      }
      return .unknown
    default:
      for a in args { _ = check(a) }
      if t.type != .unknown && KnownFunctions.objectMethods[selector] == nil {
        error(
          "map-unknown-selector",
          "\(t.type) does not respond to \(selector)\(suggestion(selector, KnownFunctions.objectMethods.keys))", span)
      }
      if selector == "valueForKey:" || selector == "valueForKeyPath:",
        case .constant(.string(let key)) = args.first?.kind
      {
        var r = t
        for k in key.split(separator: ".") { r = member(r, String(k), .span(args[0].span)) }
        return r
      }
      switch selector {
      case "stringByAppendingString:", "uppercaseString", "lowercaseString", "capitalizedString", "description",
        "stringValue":
        return Typed(.string, mayBeNil: t.mayBeNil)
      case "length", "count", "intValue", "integerValue": return Typed(.integer, mayBeNil: t.mayBeNil)
      case "doubleValue": return Typed(.double, mayBeNil: t.mayBeNil)
      case "boolValue", "hasPrefix:", "hasSuffix:": return Typed(.bool, mayBeNil: t.mayBeNil)
      case "componentsSeparatedByString:": return Typed(.collection(.string, fromToMany: true), mayBeNil: t.mayBeNil)
      default: return .unknown
      }
    }
  }

  mutating func policyResult(_ selector: String, _ types: [Typed], _ args: [Expression], _ span: SourceSpan) -> Typed {
    func want(_ i: Int, _ type: StaticType, _ what: String) {
      guard i < types.count else { return }
      let t = types[i].type
      if t != type && t != .unknown && t != .null {
        error("map-type-mismatch", "argument \(i + 1) of \(selector) must be \(what), not \(t)", args[i].span)
      }
    }
    switch selector {
    case "dateFromString:format:", "dateFromString:format:timeZone:":
      want(0, .string, "a string")
      want(1, .string, "a date format string")
      if args.count > 1, case .constant(.string(let format)) = args[1].kind,
        case .failure(let e) = DatePattern.compile(format)
      {
        error("map-date-format", e.message, args[1].span)
      }
      return Typed(.date, mayBeNil: true)
    case "stringFromDate:format:", "stringFromDate:format:timeZone:":
      want(0, .date, "a date")
      if args.count > 1, case .constant(.string(let format)) = args[1].kind,
        case .failure(let e) = DatePattern.compile(format)
      {
        error("map-date-format", e.message, args[1].span)
      }
      return Typed(.string, mayBeNil: types.first?.mayBeNil ?? true)
    case "numberFromString:":
      want(0, .string, "a string")
      return Typed(.double, mayBeNil: true)
    case "stringFromNumber:": return Typed(.string, mayBeNil: types.first?.mayBeNil ?? true)
    case "uuid": return Typed(.string)
    case "split:by:": return Typed(.collection(.string, fromToMany: true), mayBeNil: types.first?.mayBeNil ?? true)
    case "join:with:", "trim:", "replace:with:in:": return Typed(.string, mayBeNil: types.contains { $0.mayBeNil })
    case "defaultValue:for:":
      guard types.count == 2 else { return .unknown }
      let (fallback, value) = (types[0], types[1])
      let type: StaticType =
        fallback.type == value.type
        ? value.type
        : (value.type == .null
          ? fallback.type
          : (fallback.type == .null
            ? value.type : (fallback.type.isNumeric && value.type.isNumeric ? value.type : .unknown)))
      return Typed(type, mayBeNil: fallback.mayBeNil && value.mayBeNil)
    default: return .unknown
    }
  }

  mutating func managerCall(_ selector: String, _ args: [Expression], _ span: SourceSpan) -> Typed {
    guard KnownFunctions.manager[selector] != nil else {
      for a in args { _ = check(a) }
      error(
        "map-unknown-selector",
        "$manager does not respond to \(selector)\(suggestion(selector, KnownFunctions.manager.keys))", span)
      return .unknown
    }
    switch selector {
    case "destinationInstancesForEntityMappingNamed:sourceInstances:":
      let instances = args.count > 1 ? check(args[1]) : .unknown
      guard let first = args.first else { return .unknown }
      guard case .constant(.string(let name)) = first.kind else {
        // A computed mapping name: nothing is known about the result.
        _ = check(first)
        return .unknown
      }
      guard let target = mappings[name] else {
        error("map-unknown-mapping", "no entity mapping named \(name)\(suggestion(name, mappings.keys))", first.span)
        return .unknown
      }
      if case .object(let side, let entity) = instances.type.elementType, side == .source,
        let s = target.source, !source.isKind(entity, of: s) && !source.isKind(s, of: entity)
      {
        warning(
          "map-source-instances-entity",
          "mapping \(name) maps \(s) objects, but the source instances are \(entity) objects, so it finds none",
          args[1].span)
      } else if case .object(.destination, _) = instances.type.elementType {
        error("map-type-mismatch", "sourceInstances must be source objects, not \(instances.type)", args[1].span)
      }
      guard let d = target.destination else {
        error(
          "map-unknown-mapping", "mapping \(name) has no destination entity, so it has no destination instances",
          first.span)
        return .unknown
      }
      let many: Bool
      if case .collection(_, let m) = instances.type { many = m || target.fansOut } else { many = target.fansOut }
      if let relationship, !destination.isKind(d, of: relationship.destinationEntity) {
        error(
          "map-mapping-destination-mismatch",
          "mapping \(name) creates \(d) objects, but relationship \(relationship.name) holds \(relationship.destinationEntity) objects",
          first.span)
        // Reported here, at the mapping's name; the relationship check need not repeat it.
        return Typed(.collection(.unknown, fromToMany: many))
      }
      return Typed(.collection(.object(.destination, d), fromToMany: many))
    case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
      let instances = args.count > 1 ? check(args[1]) : .unknown
      if case .constant(.string(let name)) = args.first?.kind, let s = mapping.source,
        let properties = index.properties(.source, s)
      {
        if properties.relationship(name) == nil {
          error("map-unknown-key", "source entity \(s) has no relationship \(name)", args[0].span)
        }
      }
      let element: StaticType = relationship.map { .object(.destination, $0.destinationEntity) } ?? .unknown
      let many: Bool
      if case .collection(_, let m) = instances.type { many = m } else { many = false }
      return Typed(.collection(element, fromToMany: many))
    case "sourceInstancesForEntityMappingNamed:destinationInstances:":
      for a in args.dropFirst() { _ = check(a) }
      if case .constant(.string(let name)) = args.first?.kind {
        guard let target = mappings[name] else {
          error(
            "map-unknown-mapping", "no entity mapping named \(name)\(suggestion(name, mappings.keys))", args[0].span)
          return Typed(.collection(.unknown, fromToMany: true))
        }
        return Typed(.collection(target.source.map { .object(.source, $0) } ?? .unknown, fromToMany: true))
      }
      return Typed(.collection(.unknown, fromToMany: true))
    case "fetchRequestForSourceEntityNamed:predicateString:", "fetchRequestForDestinationEntityNamed:predicateString:":
      let side: StaticType.Side = selector.hasPrefix("fetchRequestForSource") ? .source : .destination
      let m = model(side)
      guard args.count == 2, case .constant(.string(let entity)) = args[0].kind else {
        if let a = args.first {
          error("map-fetch-literal", "the entity name of \(selector) must be a string literal", a.span)
        }
        return .unknown
      }
      guard m.entity(named: entity) != nil else {
        error(
          "map-unknown-entity",
          "the \(side == .source ? "source" : "destination") model has no entity \(entity)\(suggestion(entity, m.entities.map(\.name)))",
          args[0].span)
        return .unknown
      }
      guard case .constant(.string(let predicateText)) = args[1].kind else {
        error(
          "map-fetch-literal",
          "the predicate of \(selector) must be a string literal, so that mapc can check and compile it", args[1].span)
        return Typed(.fetchRequest(side, entity))
      }
      checkPredicateString(predicateText, on: .object(side, entity), literal: args[1])
      return Typed(.fetchRequest(side, entity))
    default:
      for a in args { _ = check(a) }
      return .unknown
    }
  }
}
