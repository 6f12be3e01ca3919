import MapRuntime

/// Checks one expression of an entity mapping against the source and destination models and
/// works out its static type. Reports every problem it finds; never stops at the first.
struct TypeChecker {
  struct MappingInfo {
    var name: String
    var source: String?
    var destination: String?
    var fansOut: Bool
  }

  let source: ObjectModel
  let destination: ObjectModel
  /// Both models' properties by entity and name.
  let index: ModelIndex
  /// Entity mappings of the file by name.
  let mappings: [String: MappingInfo]
  /// The mapping the expression belongs to.
  let mapping: MappingInfo
  let hasPolicy: Bool
  /// `$item`'s type inside a forEach mapping; nil outside one.
  let itemType: Typed?
  /// The destination relationship being mapped, when checking a relationship expression.
  var relationship: RelationshipDescription?
  var text: ExpressionText
  /// Where precompiled predicate strings are collected.
  var predicates: [PrecompiledPredicate] = []
  var diagnostics: [Diagnostic] = []
  private var locals: [String: Typed] = [:]
  /// SELF inside predicates of FETCH requests and SUBQUERYs.
  private var selfType = Typed(.null, mayBeNil: true)

  init(
    source: ObjectModel, destination: ObjectModel, index: ModelIndex, mappings: [String: MappingInfo],
    mapping: MappingInfo, hasPolicy: Bool, itemType: Typed?, relationship: RelationshipDescription? = nil,
    text: ExpressionText
  ) {
    self.source = source
    self.destination = destination
    self.index = index
    self.mappings = mappings
    self.mapping = mapping
    self.hasPolicy = hasPolicy
    self.itemType = itemType
    self.relationship = relationship
    self.text = text
  }

  func location(_ span: SourceSpan) -> SourceLocation {
    span.isSynthesized ? text.location : text.location(ofOffset: span.start)
  }

  mutating func error(_ id: String, _ message: String, _ span: SourceSpan, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.error(id, message, at: location(span), notes: notes))
  }

  mutating func warning(_ id: String, _ message: String, _ span: SourceSpan) {
    diagnostics.append(.warning(id, message, at: location(span)))
  }

  private func model(_ side: StaticType.Side) -> ObjectModel { side == .source ? source : destination }

  // MARK: - Expressions

  mutating func check(_ e: Expression) -> Typed {
    switch e.kind {
    case .constant(let c):
      switch c {
      case .null: return Typed(.null, mayBeNil: true)
      case .bool: return Typed(.bool)
      case .integer: return Typed(.integer)
      case .double: return Typed(.double)
      case .decimal: return Typed(.decimal)
      case .string: return Typed(.string)
      }
    case .evaluatedObject:
      return selfType
    case .variable(let name):
      return variable(name, e.span)
    case .keyPath(let base, let components):
      var t = check(base)
      var i = 0
      while i < components.count {
        let key = components[i]
        if key.hasPrefix("@") {
          return collectionOperator(key, t, Array(components[(i + 1)...]), e, firstIndex: i)
        }
        t = member(t, key, .component(e, i))
        i += 1
      }
      return t
    case .index(let base, let sub):
      let b = check(base)
      switch sub {
      case .size: return Typed(.integer, mayBeNil: b.mayBeNil)
      case .first, .last: return Typed(b.type.elementType, mayBeNil: true)
      case .expression(let ie):
        let it = check(ie)
        switch it.type {
        case .integer, .unknown, .null, .string: break
        default: error("map-type-mismatch", "an index must be an integer or a string key, not \(it.type)", ie.span)
        }
        if case .userInfo = b.type { return Typed(.string, mayBeNil: true) }
        return Typed(b.type.elementType == b.type ? .unknown : b.type.elementType, mayBeNil: true)
      }
    case .function(let name, let args):
      let types = args.map { check($0) }
      guard let arity = KnownFunctions.builtins[name] else {
        error("map-unknown-function", "unknown function \(name)\(suggestion(name, KnownFunctions.builtins.keys))", e.span)
        return .unknown
      }
      if arity != args.count {
        error("map-function-arity", "\(name) takes \(arity) argument\(arity == 1 ? "" : "s"), given \(args.count)", e.span)
      }
      if name == "castObject:toType:", args.count == 2 {
        return castObject(types[0], args[1], e.span)
      }
      return functionResult(name, types, e.span)
    case .selector(let target, let selector, let args):
      return selectorCall(target, selector, args, e.span)
    case .aggregate(let items):
      var element: StaticType?
      var nil_ = false
      for item in items {
        let t = check(item)
        nil_ = nil_ || t.mayBeNil
        if element == nil { element = t.type } else if element != t.type { element = .unknown }
      }
      return Typed(.collection(element ?? .unknown, fromToMany: items.count > 1))
    case .fetch(let request, let context, let countOnly):
      let r = check(request)
      let c = check(context)
      guard case .fetchRequest(let side, let entity) = r.type else {
        if r.type != .unknown { error("map-type-mismatch", "FETCH needs a fetch request, not \(r.type)", request.span) }
        return countOnly ? Typed(.integer) : Typed(.collection(.unknown, fromToMany: true))
      }
      if case .context(let cs) = c.type, cs != side {
        error("map-fetch-context", "FETCH of \(side == .source ? "source" : "destination") entity \(entity) must use $manager.\(side == .source ? "sourceContext" : "destinationContext")", context.span)
      } else if c.type != .unknown, case .context = c.type {} else if c.type != .unknown {
        error("map-type-mismatch", "FETCH needs a context ($manager.sourceContext), not \(c.type)", context.span)
      }
      return countOnly ? Typed(.integer) : Typed(.collection(.object(side, entity), fromToMany: true))
    case .cast(let value, let type):
      return castResult(check(value), to: type, e.span)
    case .ternary(let condition, let a, let b):
      checkPredicate(condition)
      let x = check(a)
      let y = check(b)
      return Typed(x.type == y.type ? x.type : (x.type == .null ? y.type : (y.type == .null ? x.type : .unknown)), mayBeNil: x.mayBeNil || y.mayBeNil)
    case .subquery(let collection, let variable, let predicate):
      let c = check(collection)
      let saved = locals[variable]
      locals[variable] = Typed(c.type.elementType)
      checkPredicate(predicate)
      locals[variable] = saved
      return Typed(.collection(c.type.elementType, fromToMany: true))
    case .assignment(let variable, let value):
      let v = check(value)
      locals[variable] = v
      return v
    case .setOperation(let op, let a, let b):
      let x = check(a)
      let y = check(b)
      for (t, operand) in [(x, a), (y, b)] where !t.type.mayBeCollection {
        error("map-type-mismatch", "\(op.rawValue) combines collections, not \(t.type)", operand.span)
      }
      return Typed(.collection(x.type.elementType, fromToMany: true))
    }
  }

  private mutating func variable(_ name: String, _ span: SourceSpan) -> Typed {
    switch name {
    case "source":
      guard let s = mapping.source else {
        warning("map-source-without-source", "$source is nil in mapping \(mapping.name), which has no source entity", span)
        return Typed(.null, mayBeNil: true)
      }
      return Typed(.object(.source, s))
    case "destination":
      guard let d = mapping.destination else { return Typed(.null, mayBeNil: true) }
      return Typed(.object(.destination, d))
    case "item", "index":
      guard let itemType else {
        error("map-item-outside-foreach", "$\(name) is only defined inside a mapping with <forEach>", span)
        return .unknown
      }
      return name == "index" ? Typed(.integer) : itemType
    case "manager": return Typed(.manager)
    case "entityPolicy": return Typed(.entityPolicy)
    case "entityMapping": return Typed(.entityMapping)
    case "propertyMapping": return Typed(.propertyMapping)
    default:
      if let t = locals[name] { return t }
      error("map-unknown-variable", "unknown variable $\(name); mapping expressions can use $source, $destination, $manager, $entityMapping, $propertyMapping, $entityPolicy, and $item/$index in forEach mappings", span)
      return .unknown
    }
  }

  /// `base.key`.
  private mutating func member(_ base: Typed, _ key: String, _ site: KeySite) -> Typed {
    switch base.type {
    case .unknown: return .unknown
    case .null: return Typed(.null, mayBeNil: true)
    case .object(let side, let entityName):
      guard let properties = index.properties(side, entityName) else { return .unknown }
      if let a = properties.attribute(key) {
        return Typed(StaticType.of(a.type), mayBeNil: base.mayBeNil || a.isOptional || a.isTransient)
      }
      if let r = properties.relationship(key) {
        if r.isToMany { return Typed(.collection(.object(side, r.destinationEntity), fromToMany: true), mayBeNil: base.mayBeNil) }
        return Typed(.object(side, r.destinationEntity), mayBeNil: base.mayBeNil || r.isOptional)
      }
      let names = properties.names
      error(
        "map-unknown-key",
        "\(side == .source ? "source" : "destination") entity \(entityName) has no property \(key)\(suggestion(key, names))",
        span(of: site))
      return .unknown
    case .collection(let element, let many):
      let inner = member(Typed(element), key, site)
      if case .collection(let e, let m2) = inner.type { return Typed(.collection(e, fromToMany: many || m2), mayBeNil: base.mayBeNil) }
      return Typed(.collection(inner.type, fromToMany: many), mayBeNil: base.mayBeNil)
    case .string:
      switch key {
      case "length", "intValue", "integerValue", "longLongValue": return Typed(.integer, mayBeNil: base.mayBeNil)
      case "doubleValue", "floatValue": return Typed(.double, mayBeNil: base.mayBeNil)
      case "boolValue": return Typed(.bool, mayBeNil: base.mayBeNil)
      case "uppercaseString", "lowercaseString", "capitalizedString", "description", "self", "stringValue":
        return Typed(.string, mayBeNil: base.mayBeNil)
      default: break
      }
    case .integer, .double, .bool, .decimal:
      switch key {
      case "stringValue", "description": return Typed(.string, mayBeNil: base.mayBeNil)
      case "intValue", "integerValue", "longLongValue": return Typed(.integer, mayBeNil: base.mayBeNil)
      case "doubleValue", "floatValue": return Typed(.double, mayBeNil: base.mayBeNil)
      case "boolValue": return Typed(.bool, mayBeNil: base.mayBeNil)
      case "self": return base
      default: break
      }
    case .date:
      switch key {
      case "timeIntervalSinceReferenceDate", "timeIntervalSince1970": return Typed(.double, mayBeNil: base.mayBeNil)
      case "description": return Typed(.string, mayBeNil: base.mayBeNil)
      case "self": return base
      default: break
      }
    case .data:
      if key == "length" { return Typed(.integer, mayBeNil: base.mayBeNil) }
    case .manager:
      switch key {
      case "sourceContext": return Typed(.context(.source))
      case "destinationContext": return Typed(.context(.destination))
      case "currentEntityMapping": return Typed(.entityMapping)
      case "userInfo", "mappingModel": return Typed(.userInfo)
      case "migrationProgress": return Typed(.double)
      default: break
      }
    case .entityMapping:
      switch key {
      case "name": return Typed(.string)
      case "userInfo": return Typed(.userInfo)
      case "sourceEntityName", "destinationEntityName", "entityMigrationPolicyClassName": return Typed(.string, mayBeNil: true)
      case "mappingType": return Typed(.integer)
      case "sourceEntityVersionHash", "destinationEntityVersionHash": return Typed(.data, mayBeNil: true)
      default: break
      }
    case .propertyMapping:
      if key == "name" { return Typed(.string) }
    case .userInfo:
      return Typed(.string, mayBeNil: true)
    case .fetchRequest:
      if key == "entityName" { return Typed(.string) }
    case .context, .entityPolicy:
      break
    }
    error("map-unknown-key", "\(base.type) has no key \(key)", span(of: site))
    return .unknown
  }

  /// `base.@op.rest…`; `firstIndex` is the operator's index among the key path's components.
  private mutating func collectionOperator(_ op: String, _ base: Typed, _ rest: [String], _ e: Expression, firstIndex: Int) -> Typed {
    let span = componentSpan(e, firstIndex)
    var element = Typed(base.type.elementType)
    for (n, key) in rest.enumerated() { element = member(element, key, .component(e, firstIndex + 1 + n)) }
    switch op {
    case "@count": return Typed(.integer, mayBeNil: base.mayBeNil)
    case "@sum", "@avg":
      if !(element.type.isNumeric || element.type == .unknown) {
        error("map-type-mismatch", "\(op) needs numbers, not \(element.type)", span)
      }
      return Typed(op == "@sum" && element.type == .integer ? .integer : .double, mayBeNil: base.mayBeNil)
    case "@min", "@max": return Typed(element.type.elementType, mayBeNil: true)
    case "@unionOfObjects", "@distinctUnionOfObjects", "@unionOfArrays", "@unionOfSets",
      "@distinctUnionOfArrays", "@distinctUnionOfSets":
      return Typed(.collection(element.type.elementType, fromToMany: true), mayBeNil: base.mayBeNil)
    default:
      error("map-unknown-key", "unknown collection operator \(op)", span)
      return .unknown
    }
  }

  /// A built-in function's result type, from its row in `BuiltinFunction.all`; arguments are
  /// checked against the row's operand kinds.
  private mutating func functionResult(_ name: String, _ args: [Typed], _ span: SourceSpan) -> Typed {
    guard let f = BuiltinFunction.named(name) else { return .unknown }
    let anyNil = args.contains { $0.mayBeNil }
    for (i, (operand, arg)) in zip(f.arguments, args).enumerated() where !accepts(operand, arg.type) {
      error("map-type-mismatch", "\(name) needs \(article(operand)) as argument \(i + 1), not \(arg.type)", span)
    }
    let first = args.first?.type ?? .unknown
    switch f.result {
    case .arithmetic:
      if name == "sum:" {
        return Typed(first.elementType == .integer ? .integer : .double, mayBeNil: true)
      }
      if args.contains(where: { $0.type == .date }) {
        let both = args.count == 2 && args.allSatisfy { $0.type == .date }
        return Typed(both ? .double : .date, mayBeNil: anyNil)
      }
      return Typed(args.allSatisfy { $0.type == .integer } ? .integer : .double, mayBeNil: anyNil)
    case .integer:
      return Typed(.integer, mayBeNil: anyNil || name.hasPrefix("random"))
    case .double: return Typed(.double, mayBeNil: anyNil || f.arguments.first == .collection)
    case .string: return Typed(.string, mayBeNil: anyNil)
    case .date: return Typed(.date)
    case .collection: return Typed(.collection(first.elementType, fromToMany: true))
    case .element: return Typed(first.elementType, mayBeNil: true)
    case .argument: return args.first ?? .unknown
    case .cast: return .unknown
    }
  }

  private func accepts(_ operand: BuiltinFunction.Operand, _ t: StaticType) -> Bool {
    if t == .unknown || t == .null { return true }
    switch operand {
    case .number, .integer: return t.isNumeric
    case .numberOrDate: return t.isNumeric || t == .date
    case .string, .className: return t == .string
    case .stringOrCollection: return t == .string || t.elementType != t
    case .collection, .location, .any: return true
    }
  }

  private func article(_ operand: BuiltinFunction.Operand) -> String {
    switch operand {
    case .integer: "an integer"
    case .any: "a value"
    default: "a \(operand.rawValue)"
    }
  }

  // MARK: - FUNCTION

  private mutating func selectorCall(_ target: Expression, _ selector: String, _ args: [Expression], _ span: SourceSpan) -> Typed {
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
        error("map-unknown-selector", "\(t.type) does not respond to \(selector)\(suggestion(selector, KnownFunctions.objectMethods.keys))", span)
      }
      if selector == "valueForKey:" || selector == "valueForKeyPath:", case .constant(.string(let key)) = args.first?.kind {
        var r = t
        for k in key.split(separator: ".") { r = member(r, String(k), .span(args[0].span)) }
        return r
      }
      switch selector {
      case "stringByAppendingString:", "uppercaseString", "lowercaseString", "capitalizedString", "description", "stringValue":
        return Typed(.string, mayBeNil: t.mayBeNil)
      case "length", "count", "intValue", "integerValue": return Typed(.integer, mayBeNil: t.mayBeNil)
      case "doubleValue": return Typed(.double, mayBeNil: t.mayBeNil)
      case "boolValue", "hasPrefix:", "hasSuffix:": return Typed(.bool, mayBeNil: t.mayBeNil)
      case "componentsSeparatedByString:": return Typed(.collection(.string, fromToMany: true), mayBeNil: t.mayBeNil)
      default: return .unknown
      }
    }
  }

  private mutating func policyResult(_ selector: String, _ types: [Typed], _ args: [Expression], _ span: SourceSpan) -> Typed {
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
        fallback.type == value.type ? value.type
        : (value.type == .null ? fallback.type : (fallback.type == .null ? value.type : (fallback.type.isNumeric && value.type.isNumeric ? value.type : .unknown)))
      return Typed(type, mayBeNil: fallback.mayBeNil && value.mayBeNil)
    default: return .unknown
    }
  }

  private mutating func managerCall(_ selector: String, _ args: [Expression], _ span: SourceSpan) -> Typed {
    guard KnownFunctions.manager[selector] != nil else {
      for a in args { _ = check(a) }
      error("map-unknown-selector", "$manager does not respond to \(selector)\(suggestion(selector, KnownFunctions.manager.keys))", span)
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
        warning("map-source-instances-entity", "mapping \(name) maps \(s) objects, but the source instances are \(entity) objects, so it finds none", args[1].span)
      } else if case .object(.destination, _) = instances.type.elementType {
        error("map-type-mismatch", "sourceInstances must be source objects, not \(instances.type)", args[1].span)
      }
      guard let d = target.destination else {
        error("map-unknown-mapping", "mapping \(name) has no destination entity, so it has no destination instances", first.span)
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
          error("map-unknown-mapping", "no entity mapping named \(name)\(suggestion(name, mappings.keys))", args[0].span)
          return Typed(.collection(.unknown, fromToMany: true))
        }
        return Typed(.collection(target.source.map { .object(.source, $0) } ?? .unknown, fromToMany: true))
      }
      return Typed(.collection(.unknown, fromToMany: true))
    case "fetchRequestForSourceEntityNamed:predicateString:", "fetchRequestForDestinationEntityNamed:predicateString:":
      let side: StaticType.Side = selector.hasPrefix("fetchRequestForSource") ? .source : .destination
      let m = model(side)
      guard args.count == 2, case .constant(.string(let entity)) = args[0].kind else {
        if let a = args.first { error("map-fetch-literal", "the entity name of \(selector) must be a string literal", a.span) }
        return .unknown
      }
      guard m.entity(named: entity) != nil else {
        error("map-unknown-entity", "the \(side == .source ? "source" : "destination") model has no entity \(entity)\(suggestion(entity, m.entities.map(\.name)))", args[0].span)
        return .unknown
      }
      guard case .constant(.string(let predicateText)) = args[1].kind else {
        error("map-fetch-literal", "the predicate of \(selector) must be a string literal, so that mapc can check and compile it", args[1].span)
        return Typed(.fetchRequest(side, entity))
      }
      checkPredicateString(predicateText, on: .object(side, entity), literal: args[1])
      return Typed(.fetchRequest(side, entity))
    default:
      for a in args { _ = check(a) }
      return .unknown
    }
  }

  // MARK: - Predicates

  mutating func withSelf(_ t: Typed, _ body: (inout TypeChecker) -> Void) {
    let saved = selfType
    selfType = t
    body(&self)
    selfType = saved
  }

  mutating func checkPredicate(_ p: Predicate) {
    switch p.kind {
    case .constant: break
    case .not(let inner): checkPredicate(inner)
    case .and(let parts), .or(let parts): for x in parts { checkPredicate(x) }
    case .comparison(let c):
      let l = check(c.lhs)
      let r = check(c.rhs)
      if c.modifier != .direct, case .collection = l.type {} else if c.modifier != .direct, l.type != .unknown {
        error("map-type-mismatch", "\(c.modifier.rawValue) needs a collection on its left, not \(l.type)", p.span)
      }
      let lt = c.modifier == .direct ? l.type : l.type.elementType
      switch c.op {
      case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
        if !comparable(lt, r.type) {
          error("map-type-mismatch", "cannot order \(lt) and \(r.type)", p.span)
        }
      case .beginsWith, .endsWith, .like, .matches:
        for (t, x) in [(lt, c.lhs), (r.type, c.rhs)] where t != .string && t != .unknown && t != .null {
          error("map-type-mismatch", "\(c.op.rawValue) compares strings, not \(t)", x.span)
        }
        if c.op == .matches, case .constant(.string(let pattern)) = c.rhs.kind, !Self.validRegex(pattern) {
          error("map-regex", "invalid regular expression \"\(pattern)\"", c.rhs.span)
        }
      case .equal, .notEqual:
        if !comparable(lt, r.type) && !(lt == r.type) {
          error("map-type-mismatch", "comparing \(lt) with \(r.type) is never true", p.span)
        }
      case .between: checkBetween(lt, c.rhs, r, p.span)
      case .in: checkContainer(r, c.rhs, "IN")
      case .contains: checkContainer(Typed(lt), c.lhs, "CONTAINS")
      }
    }
  }

  func comparable(_ a: StaticType, _ b: StaticType) -> Bool {
    if a == .unknown || b == .unknown || a == .null || b == .null { return true }
    if a.isNumeric && b.isNumeric { return true }
    return a == b
  }

  static func validRegex(_ pattern: String) -> Bool { RegexSyntax.isValid(pattern) }

  /// A predicate written as a string literal (fetch requests, `<filter>`): parsed now, checked
  /// against the entity, and recorded so the runtime never parses text.
  mutating func checkPredicateString(_ predicateText: String, on selfType: StaticType, literal: Expression) {
    let inner = self.predicateText(predicateText, inLiteral: literal)
    switch ExpressionParsing.parsePredicate(predicateText) {
    case .failure(let e):
      diagnostics.append(.error(e.id, "in predicate \"\(predicateText)\": \(e.message)", at: inner.location(ofOffset: e.offset)))
    case .success(let p):
      let savedSelf = self.selfType
      let savedText = self.text
      self.selfType = Typed(selfType)
      self.text = inner
      checkPredicate(p)
      self.selfType = savedSelf
      self.text = savedText
      if !predicates.contains(where: { $0.text == predicateText }) {
        predicates.append(PrecompiledPredicate(text: predicateText, predicate: p))
      }
    }
  }
}

/// " (did you mean X?)" for the closest name, when one is close.
func suggestion<S: Sequence>(_ name: String, _ candidates: S) -> String where S.Element == String {
  var best: (String, Int)?
  let limit = max(2, name.count / 3)
  for c in candidates {
    let d = editDistance(name.lowercased(), c.lowercased())
    if d <= limit && (best == nil || d < best!.1 || (d == best!.1 && c < best!.0)) { best = (c, d) }
  }
  return best.map { "; did you mean \($0.0)?" } ?? ""
}

func editDistance(_ a: String, _ b: String) -> Int {
  let x = Array(a.unicodeScalars)
  let y = Array(b.unicodeScalars)
  if x.isEmpty { return y.count }
  if y.isEmpty { return x.count }
  var previous = Array(0...y.count)
  var current = previous
  for i in 1...x.count {
    current[0] = i
    for j in 1...y.count {
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
    }
    swap(&previous, &current)
  }
  return previous[y.count]
}
