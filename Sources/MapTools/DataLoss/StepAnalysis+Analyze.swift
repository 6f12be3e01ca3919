import MapRuntime

extension StepAnalysis {
  static let relationshipCopy = "destinationInstancesForSourceRelationshipNamed:sourceInstances:"

  /// What `plan` does to every source entity and property (`Specs/migrate.md` §6): an entity is
  /// migrated when an entity mapping (not `remove`) takes it or an ancestor as its source; a
  /// property of it is read when one of those mappings mentions its name in an expression, has
  /// a custom policy, or any mapping reaches it by a `$source` key path.
  public static func analyze(_ plan: MigrationPlan) -> StepAnalysis {
    let model = plan.sourceModel
    var predicates: [String: Predicate] = [:]
    for p in plan.predicates { predicates[p.text] = p.predicate }
    let reads = plan.entityMappings.map { ExpressionReads(expressions(of: $0), predicates: predicates) }
    // Lookups built once, so that the analysis is linear in the models and the plan (a scan of
    // every mapping per entity, or of every property per property, was quadratic: 44 s for
    // 10,000 entities).
    let sourceLookup = PropertyLookup(model)
    let destinationLookup = PropertyLookup(plan.destinationModel)
    let copies = plan.entityMappings.map(copyIndex)
    var readersBySource: [String: [Int]] = [:]
    var removalBySource: [String: EntityMapping] = [:]
    var madeByDestination: [String: [(String, String?)]] = [:]
    for (i, m) in plan.entityMappings.enumerated() {
      if m.type == .remove, let s = m.sourceEntity, removalBySource[s] == nil { removalBySource[s] = m }
      guard m.type != .remove else { continue }
      if let s = m.sourceEntity { readersBySource[s, default: []].append(i) }
      if let d = m.destinationEntity { madeByDestination[d, default: []].append((m.name, m.sourceEntity)) }
    }
    var reached: Set<String> = []
    for (m, r) in zip(plan.entityMappings, reads) {
      guard let s = m.sourceEntity else { continue }
      for path in r.sourcePaths { reached.formUnion(follow(path, from: s, in: sourceLookup)) }
    }
    let sources = model.entities.map { e -> SourceEntity in
      let lineage = [e] + model.ancestors(of: e)
      let readers = Set(lineage.flatMap { readersBySource[$0.name] ?? [] }).sorted()
      let removal = removalBySource[e.name]
      let fate: EntityFate =
        !readers.isEmpty
        ? .migrated(readers.map { plan.entityMappings[$0].name }) : removal.map { .removed($0.name) } ?? .dropped
      let kinds = Set(lineage.map(\.name))
      // Each reader's mapping, reads and copies once per entity, not once per property.
      let readerParts = readers.map { (plan.entityMappings[$0], reads[$0], copies[$0]) }
      let readerCopies = readerParts.map { ($0.0, $0.2) }
      let properties =
        model.allAttributes(of: e).filter { !$0.isTransient }.map { ($0.name, false) }
        + model.allRelationships(of: e).filter { !$0.isTransient }.map { ($0.name, true) }
      return SourceEntity(
        name: e.name, isAbstract: e.isAbstract, fate: fate,
        properties: properties.map { name, isRelationship in
          let fate = propertyFate(
            name, isRelationship: isRelationship,
            readers: readerParts,
            reached: kinds.contains { reached.contains($0 + "." + name) }, source: sourceLookup,
            destination: destinationLookup)
          var property = SourceProperty(name: name, isRelationship: isRelationship, fate: fate)
          if !isRelationship {
            property.droppedElements = elementDrops(
              name, of: e.name, readers: readerCopies, source: sourceLookup,
              destination: destinationLookup)
          }
          return property
        })
    }
    let destinations = plan.destinationModel.entities.map { d in
      DestinationEntity(name: d.name, madeBy: madeByDestination[d.name] ?? [])
    }
    return StepAnalysis(sourceEntities: sources, destinationEntities: destinations)
  }

  private static func propertyFate(
    _ name: String, isRelationship: Bool, readers: [(EntityMapping, ExpressionReads, [String: Int])], reached: Bool,
    source: PropertyLookup, destination: PropertyLookup
  ) -> PropertyFate {
    for (m, _, copies) in readers {
      guard let d = m.destinationEntity, destination.model.entity(named: d) != nil, let k = copies[name] else {
        continue
      }
      let p =
        k < m.attributeMappings.count
        ? m.attributeMappings[k] : m.relationshipMappings[k - m.attributeMappings.count]
      guard let e = p.valueExpression?.expression, let fate = copyFate(e, of: name, into: p.name) else { continue }
      if case .kept = fate, !isRelationship, let a = source.attribute(name, of: m.sourceEntity ?? ""),
        let b = destination.attribute(p.name, of: d), a.type != b.type
      {
        return .converted(b.type.rawValue)
      }
      return fate
    }
    if reached || readers.contains(where: { $0.0.policyName != nil || $0.1.names.contains(name) }) { return .read }
    return .dropped
  }

  /// The elements of composite attribute `name` of source entity `entity` that the destination
  /// composites it is copied into (by the first mapping of each reader that copies it) lack.
  private static func elementDrops(
    _ name: String, of entity: String, readers: [(EntityMapping, [String: Int])], source: PropertyLookup,
    destination: PropertyLookup
  ) -> [ElementDrop] {
    guard let a = source.attribute(name, of: entity), a.type == .composite else { return [] }
    var drops: [ElementDrop] = []
    for (m, copies) in readers {
      guard let d = m.destinationEntity, let k = copies[name], k < m.attributeMappings.count else { continue }
      let target = m.attributeMappings[k].name
      guard let b = destination.attribute(target, of: d), b.type == .composite else { continue }
      for path in missingElements(a, b, prefix: []) {
        drops.append(ElementDrop(path: path, destinationEntity: d, destinationAttribute: target))
      }
    }
    return drops
  }

  /// Paths of the elements of composite `a` that composite `b` has no element for (a nested
  /// composite `b` lacks is one path; one both have is compared element by element).
  static func missingElements(_ a: AttributeDescription, _ b: AttributeDescription, prefix: [String]) -> [[String]] {
    var result: [[String]] = []
    for e in a.compositeElements {
      guard let f = b.compositeElements.first(where: { $0.name == e.name }) else {
        result.append(prefix + [e.name])
        continue
      }
      if e.type == .composite && f.type == .composite { result += missingElements(e, f, prefix: prefix + [e.name]) }
    }
    return result
  }

  /// For each source property name an entity mapping copies (`copyFate`), the position of the
  /// first property mapping that copies it (attribute mappings, then relationship mappings).
  private static func copyIndex(_ m: EntityMapping) -> [String: Int] {
    var result: [String: Int] = [:]
    for (k, p) in (m.attributeMappings + m.relationshipMappings).enumerated() {
      guard let e = p.valueExpression?.expression, let name = copiedName(e), result[name] == nil else { continue }
      result[name] = k
    }
    return result
  }

  /// The source property `copyFate` would find `e` copying, if any.
  private static func copiedName(_ e: Expression) -> String? {
    switch e.kind {
    case .keyPath(let base, let components) where components.count == 1:
      if case .variable("source") = base.kind { return components[0] }
    case .selector(_, relationshipCopy, let arguments):
      if case .constant(.string(let name))? = arguments.first?.kind { return name }
    case .selector(_, "defaultValue:for:", let arguments):
      return arguments.last.flatMap(copiedName)
    case .ternary:
      return nilFallback(e).flatMap { copiedName($0.value) }
    default: break
    }
    return nil
  }

  /// Core Data's form of `defaultValue:for:`, as inference writes it: `TERNARY(v != nil, v,
  /// fallback)` (or `TERNARY(v == nil, fallback, v)`): the value v, or nil for any other form.
  static func nilFallback(_ e: Expression) -> (value: Expression, fallback: Expression)? {
    guard case .ternary(let condition, let a, let b) = e.kind, case .comparison(let c) = condition.kind,
      c.modifier == .direct
    else { return nil }
    let tested = c.rhs.kind == .constant(.null) ? c.lhs : (c.lhs.kind == .constant(.null) ? c.rhs : nil)
    guard let tested else { return nil }
    if c.op == .notEqual && tested == a { return (a, b) }
    if c.op == .equal && tested == b { return (b, a) }
    return nil
  }

  /// How `e` copies source property `name` into destination property `target`, when it is one
  /// of the plain copies inference and the compiler write.
  private static func copyFate(_ e: Expression, of name: String, into target: String) -> PropertyFate? {
    let moved: PropertyFate = target == name ? .kept : .renamed(target)
    switch e.kind {
    case .keyPath(let base, let components) where components == [name]:
      if case .variable("source") = base.kind { return moved }
    case .selector(_, relationshipCopy, let arguments):
      if case .constant(.string(name))? = arguments.first?.kind { return moved }
    case .selector(_, "defaultValue:for:", let arguments):
      if let last = arguments.last, copyFate(last, of: name, into: target) != nil { return .defaulted(target) }
    case .ternary:
      if let (value, _) = nilFallback(e), copyFate(value, of: name, into: target) != nil { return .defaulted(target) }
    default: break
    }
    return nil
  }

  /// Every expression of an entity mapping.
  static func expressions(of m: EntityMapping) -> [Expression] {
    [m.sourceExpression, m.forEach].compactMap { $0?.expression }
      + (m.attributeMappings + m.relationshipMappings).compactMap { $0.valueExpression?.expression }
  }

  /// `Entity.property` for each step of a `$source` key path from entity `start`.
  static func follow(_ path: [String], from start: String, in lookup: PropertyLookup) -> [String] {
    var result: [String] = []
    var entity = lookup.model.entity(named: start)
    for component in path {
      guard let e = entity else { break }
      if lookup.attribute(component, of: e.name) != nil {
        result.append(e.name + "." + component)
        break
      }
      guard let r = lookup.relationship(component, of: e.name) else { break }
      result.append(e.name + "." + component)
      entity = lookup.model.entity(named: r.destinationEntity)
    }
    return result
  }
}

/// A model's properties (own and inherited, as `ObjectModel.allAttributes(of:)`) by entity and
/// name, each entity's built the first time it is asked for.
final class PropertyLookup {
  let model: ObjectModel
  private var attributes: [String: [String: AttributeDescription]] = [:]
  private var relationships: [String: [String: RelationshipDescription]] = [:]

  init(_ model: ObjectModel) { self.model = model }

  func attribute(_ name: String, of entity: String) -> AttributeDescription? {
    if let known = attributes[entity] { return known[name] }
    guard let e = model.entity(named: entity) else { return nil }
    let all = Dictionary(model.allAttributes(of: e).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    attributes[entity] = all
    return all[name]
  }

  func relationship(_ name: String, of entity: String) -> RelationshipDescription? {
    if let known = relationships[entity] { return known[name] }
    guard let e = model.entity(named: entity) else { return nil }
    let all = Dictionary(model.allRelationships(of: e).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    relationships[entity] = all
    return all[name]
  }
}
