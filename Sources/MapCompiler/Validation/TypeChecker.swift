import MapRuntime
import MapSyntax

/// Checks one expression of an entity mapping against the source and destination models and
/// works out its static type. Reports every problem it finds; never stops at the first.
package struct TypeChecker {
  package struct MappingInfo {
    var name: String
    var source: String?
    var destination: String?
    var fansOut: Bool

    package init(name: String, source: String?, destination: String?, fansOut: Bool) {
      self.name = name
      self.source = source
      self.destination = destination
      self.fansOut = fansOut
    }
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
  var locals: [String: Typed] = [:]
  /// SELF inside predicates of FETCH requests and SUBQUERYs.
  var selfType = Typed(.null, mayBeNil: true)

  package init(
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

  func model(_ side: StaticType.Side) -> ObjectModel { side == .source ? source : destination }

  // MARK: - Expressions

  package mutating func check(_ e: Expression) -> Typed {
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
        if key.hasPrefix("$") {
          // `$a.$b`: the key is the variable's value, known only when the expression runs.
          _ = variable(String(key.dropFirst()), e.span)
          t = .unknown
          i += 1
          continue
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
        error(
          "map-unknown-function", "unknown function \(name)\(suggestion(name, KnownFunctions.builtins.keys))", e.span)
        return .unknown
      }
      if arity != args.count {
        error(
          "map-function-arity", "\(name) takes \(arity) argument\(arity == 1 ? "" : "s"), given \(args.count)", e.span)
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
        error(
          "map-fetch-context",
          "FETCH of \(side == .source ? "source" : "destination") entity \(entity) must use $manager.\(side == .source ? "sourceContext" : "destinationContext")",
          context.span)
      } else if c.type != .unknown, case .context = c.type {
      } else if c.type != .unknown {
        error("map-type-mismatch", "FETCH needs a context ($manager.sourceContext), not \(c.type)", context.span)
      }
      return countOnly ? Typed(.integer) : Typed(.collection(.object(side, entity), fromToMany: true))
    case .cast(let value, let type):
      return castResult(check(value), to: type, e.span)
    case .ternary(let condition, let a, let b):
      checkPredicate(condition)
      var x = check(a)
      var y = check(b)
      // Core Data's nil fallback, `TERNARY(v != nil, v, fallback)` (or `v == nil, fallback, v`):
      // the branch that returns v runs only when v is not nil.
      if case .comparison(let c) = condition.kind, c.modifier == .direct {
        let tested = c.rhs.kind == .constant(.null) ? c.lhs : (c.lhs.kind == .constant(.null) ? c.rhs : nil)
        if let tested, c.op == .notEqual, tested == a { x.mayBeNil = false }
        if let tested, c.op == .equal, tested == b { y.mayBeNil = false }
      }
      return Typed(
        x.type == y.type ? x.type : (x.type == .null ? y.type : (y.type == .null ? x.type : .unknown)),
        mayBeNil: x.mayBeNil || y.mayBeNil)
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

  mutating func variable(_ name: String, _ span: SourceSpan) -> Typed {
    switch name {
    case "source":
      guard let s = mapping.source else {
        warning(
          "map-source-without-source", "$source is nil in mapping \(mapping.name), which has no source entity", span)
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
      error(
        "map-unknown-variable",
        "unknown variable $\(name); mapping expressions can use $source, $destination, $manager, $entityMapping, $propertyMapping, $entityPolicy, and $item/$index in forEach mappings",
        span)
      return .unknown
    }
  }

  /// `base.key`.
  mutating func member(_ base: Typed, _ key: String, _ site: KeySite) -> Typed {
    switch base.type {
    case .unknown: return .unknown
    case .null: return Typed(.null, mayBeNil: true)
    case .object(let side, let entityName):
      guard let properties = index.properties(side, entityName) else { return .unknown }
      if let a = properties.attribute(key) {
        return Typed(StaticType.of(a.type), mayBeNil: base.mayBeNil || a.isOptional || a.isTransient)
      }
      if let r = properties.relationship(key) {
        if r.isToMany {
          return Typed(.collection(.object(side, r.destinationEntity), fromToMany: true), mayBeNil: base.mayBeNil)
        }
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
      if case .collection(let e, let m2) = inner.type {
        return Typed(.collection(e, fromToMany: many || m2), mayBeNil: base.mayBeNil)
      }
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
      case "sourceEntityName", "destinationEntityName", "entityMigrationPolicyClassName":
        return Typed(.string, mayBeNil: true)
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
  mutating func collectionOperator(_ op: String, _ base: Typed, _ rest: [String], _ e: Expression, firstIndex: Int)
    -> Typed
  {
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
  mutating func functionResult(_ name: String, _ args: [Typed], _ span: SourceSpan) -> Typed {
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

  func accepts(_ operand: BuiltinFunction.Operand, _ t: StaticType) -> Bool {
    if t == .unknown || t == .null { return true }
    switch operand {
    case .number, .integer: return t.isNumeric
    case .numberOrDate: return t.isNumeric || t == .date
    case .string, .className: return t == .string
    case .stringOrCollection: return t == .string || t.elementType != t
    case .collection, .location, .any: return true
    }
  }

  func article(_ operand: BuiltinFunction.Operand) -> String {
    switch operand {
    case .integer: "an integer"
    case .any: "a value"
    default: "a \(operand.rawValue)"
    }
  }
}
