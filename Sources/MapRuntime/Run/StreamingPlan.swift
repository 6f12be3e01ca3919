/// Which source entities of a plan can go through a run a chunk of objects at a time, with the
/// same result as reading them all at once (`Specs/limits.md`, "Memory").
///
/// An entity streams when nothing any mapping computes for one of its objects depends on
/// another object of the store:
/// - the entity stands alone in the source model: no parent, no sub-entities, not abstract, no
///   relationships, and no relationship of the model points at it;
/// - every mapping over it uses the default policy, fetches it whole (a constant predicate of
///   its own attributes at most), and its expressions read only the object itself (`$source`,
///   `$item`, `$index`, `$destination`, constants, built-ins other than the random ones, the
///   built-in policy functions) or ask for the destination objects of a mapping over the same
///   entity *for `$source`*;
/// - each destination entity those mappings fill stands alone in the destination model, has no
///   uniqueness constraint, and is filled by that one mapping only;
/// - no mapping over another entity fetches it or asks for the objects of a mapping over it.
///
/// Every destination object then depends on its own source object only, and numbering each
/// destination entity's objects on from the previous chunk's gives each the number the run
/// over the whole store gives it.
///
/// With `stubs` (the objects keep their numbers, and the format reads references out of a chunk
/// as stubs: `ChunkedStoreFormat.readsReferencesAsStubs`), an entity may also have
/// relationships (`refersOut`): to-one (a one-to-one's two sides must agree), one-to-many,
/// many-to-many (not one that is its own inverse) and to-many ones without an inverse, no
/// entity read whole referring to it (or holding its key for such a to-many); the same in the
/// destination model. It may be part of an inheritance tree
/// (one table): the tree's entities then stream together, a chunk of the table at a time, and
/// the entities of each destination tree they fill are filled from that source tree only
/// (`dropReferredFromWhole`). A chunk then holds stubs of the objects
/// its objects refer to (and its objects' to-many relationships whole), the mappings over their
/// entities (`stubbed`) run over the stubs too, and expressions may ask for the destination
/// objects of `$source.<relationship>`. A destination object's foreign key is its target's
/// number, which the stub carries, and its position in an ordered relationship comes from the
/// whole relationship: the chunk reads it whole, or counts the rows before each of its members
/// where the index carries over to the destination (`positions`; `Specs/limits.md`, "Memory").
package struct StreamingPlan: Sendable {
  /// Source entities (their names) that stream.
  package var streamed: Set<String> = []
  /// For each source entity that does not stream, why (for `run-memory-limit`'s message).
  package var reasons: [String: String] = [:]
  /// Source entities whose objects a streamed entity's objects refer to: a chunk holds stubs
  /// of them, and the mappings over them run in every chunk too.
  package var stubbed: Set<String> = []
  /// With stubs: per source entity, its ordered relationships whose members a chunk places by
  /// their index in the whole relationship, and the destination relationship each index
  /// carries over to (`StreamingPlan+Positions.swift`).
  package var positions: [String: [String: String]] = [:]

  /// Why no entity streams, per entity (for `run-memory-limit`'s message).
  var noneStreams: String {
    let reasons = reasons.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
    return "no entity can be read a chunk at a time (\(reasons.joined(separator: "; ")))"
  }

  /// Analyses `plan`; `usesDefaultPolicy` is per entity mapping, in plan order.
  /// `sourceCheck` and `destinationCheck`: why the store format cannot read (write) an entity of
  /// the source (destination) model in chunks, besides these rules (`ChunkedStoreFormat`).
  package init(
    _ plan: MigrationPlan, usesDefaultPolicy: [Bool], stubs: Bool = false, listsMembers: Bool = false,
    sourceCheck: (String) -> String? = { _ in nil },
    destinationCheck: @escaping (String) -> String? = { _ in nil }
  ) {
    let source = plan.sourceModel
    let mappingsByName = Dictionary(plan.entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    var mentions = Mentions()
    for m in plan.entityMappings { mentions.collect(m) }
    var destinationFillers: [String: Int] = [:]
    for m in plan.entityMappings {
      if let d = m.destinationEntity, m.type != .remove { destinationFillers[d, default: 0] += 1 }
    }
    let rules = MappingRules(
      plan: plan, usesDefaultPolicy: usesDefaultPolicy, stubs: stubs, fillers: destinationFillers,
      destinationCheck: destinationCheck)
    for entity in source.entities {
      let s = entity.name
      let alone = stubs ? Self.relationshipProblem(s, in: source) : Self.standsAlone(s, in: source)
      if let why = alone ?? sourceCheck(s) {
        reasons[s] = why
        continue
      }
      // (None without stubs: an entity that stands alone has no relationship.)
      let targets = Self.targets(of: s, in: source)
      var why: String?
      if mentions.dynamic {
        why = "a mapping names another mapping or entity by a computed value"
      }
      if why == nil { why = rules.reason(over: s) }
      // The mappings over the entities it refers to run over their stubs in its chunks.
      for d in targets where why == nil {
        if let r = rules.reason(over: d, asStub: true) { why = "it refers to \(d) objects, and \(r)" }
      }
      if why == nil {
        for m in plan.entityMappings where m.sourceEntity != s && !targets.contains(m.sourceEntity ?? "") {
          let named = mentions.mappings[m.name, default: []].filter { mappingsByName[$0]?.sourceEntity == s }
          if let first = named.sorted().first {
            why = "mapping \(m.name) asks for the objects of mapping \(first)"
          } else if mentions.fetched[m.name, default: []].contains(s) {
            why = "mapping \(m.name) fetches \(s) objects"
          }
          if why != nil { break }
        }
      }
      if let why { reasons[s] = why } else { streamed.insert(s) }
    }
    // A row read whole cannot refer to an object that streams (only a chunk holds stubs):
    // an entity that one refers to, in the source model or (through the mappings) in the
    // destination model, is read whole too, and so on.
    if stubs {
      dropReferredFromWhole(source, plan, listsMembers: listsMembers)
      positions = Self.carriedPositions(plan)
    }
    stubbed = Set(streamed.flatMap { Self.targets(of: $0, in: source) })
  }

  /// Which entities of `model` a store conversion (`StreamingConversion`: every object copied
  /// as it is, into a store of the same model) can read and write a chunk at a time: the
  /// model's rules above with each entity mapped to itself. No mapping runs, so those rules
  /// hold of every entity; what is left is the model's: an entity stands alone, or with `stubs`
  /// its relationships can be read with stubs and no entity read whole refers to it. An
  /// abstract entity of a tree that streams streams too (it has no objects). `listsMembers`:
  /// the destination format writes a to-many relationship's members with their owner (JSON),
  /// not only in the members' rows (Core Data SQLite's one-to-many), so an entity read whole
  /// must not have a to-many relationship to one that streams either (the part read whole
  /// holds none of the chunks' objects).
  package init(
    copying model: ObjectModel, stubs: Bool, listsMembers: Bool, sourceCheck: (String) -> String? = { _ in nil },
    destinationCheck: (String) -> String? = { _ in nil }
  ) {
    for entity in model.entities {
      let s = entity.name
      // (A transient relationship is neither read nor written: `StoreLayout` leaves it out.)
      let alone =
        stubs ? Self.relationshipProblem(s, in: model, storedOnly: true) : Self.standsAlone(s, in: model)
      if let why = alone ?? sourceCheck(s) ?? destinationCheck(s) {
        reasons[s] = why
      } else {
        streamed.insert(s)
      }
    }
    if stubs {
      dropReferredFromWhole(model, nil, listsMembers: listsMembers)
      positions = Self.copiedPositions(model)
    }
    stubbed = Set(streamed.flatMap { Self.targets(of: $0, in: model) })
  }

  /// Removes from `streamed`, until none is left, each entity some entity read whole refers to
  /// through a to-one or many-to-many relationship, in the source model or (its destination
  /// entities) in the destination model; and each entity of an inheritance tree (one table)
  /// another entity of which is read whole, or whose destination entities' tree is filled from
  /// another source tree too (their numbers then come from two tables).
  /// Without a plan (a conversion) each entity is its own destination, so the source model's
  /// rules are all there is.
  private mutating func dropReferredFromWhole(_ source: ObjectModel, _ plan: MigrationPlan?, listsMembers: Bool = false)
  {
    var changed = true
    while changed {
      changed = false
      for s in streamed.sorted() {
        var why: String?
        for (other, how) in Self.referrers(of: s, in: source, toMany: listsMembers) where !streamed.contains(other) {
          why = "\(how), and \(other) is read whole"
          break
        }
        if why == nil, let other = Self.tree(of: s, in: source).first(where: { !streamed.contains($0) }) {
          why = "\(other), of its inheritance tree (the same table), is read whole"
        }
        if why == nil, let plan { why = Self.destinationTreeProblem(s, plan) }
        if why == nil, let plan {
          let destinations = plan.entityMappings.filter { $0.sourceEntity == s }.compactMap(\.destinationEntity)
          for d in destinations where why == nil {
            for (other, how) in Self.referrers(of: d, in: plan.destinationModel, toMany: listsMembers) {
              let fillers = plan.entityMappings.filter { $0.destinationEntity == other }
              if fillers.contains(where: { !streamed.contains($0.sourceEntity ?? "") }) {
                why = "destination \(d): \(how), and \(other) is made from objects read whole"
                break
              }
            }
          }
        }
        if let why {
          streamed.remove(s)
          reasons[s] = why
          changed = true
        }
      }
    }
  }

  /// The entities of `name`'s inheritance tree (its root's and every entity that inherits from
  /// it: one table), `name` among them, in the model's order.
  static func tree(of name: String, in model: ObjectModel) -> [String] {
    guard let e = model.entity(named: name) else { return [name] }
    let root = model.ancestors(of: e).last?.name ?? name
    return model.entities.filter { model.isKind($0.name, of: root) }.map(\.name)
  }

  /// Why the destination entities of the mappings over streamed `name` cannot be written from
  /// its chunks when they are part of an inheritance tree: each entity of that tree must be
  /// filled from `name`'s source tree only (its objects' numbers, unique in one table, stay
  /// unique); nil when they can.
  private static func destinationTreeProblem(_ name: String, _ plan: MigrationPlan) -> String? {
    let sources = Set(tree(of: name, in: plan.sourceModel))
    let destination = plan.destinationModel
    let made = plan.entityMappings.filter { $0.sourceEntity == name && $0.type != .remove }
    for d in Set(made.compactMap(\.destinationEntity)).sorted() {
      for other in tree(of: d, in: destination) {
        let fillers = plan.entityMappings.filter { $0.destinationEntity == other && $0.type != .remove }
        if let m = fillers.first(where: { !sources.contains($0.sourceEntity ?? "") }) {
          return
            "destination \(d) shares its table with \(other), which mapping \(m.name) fills from outside \(name)'s inheritance tree"
        }
      }
    }
    return nil
  }

  /// The entities whose objects `name`'s relationships (its own and inherited) may point at,
  /// each once: each relationship's destination and the entities that inherit from it.
  static func targets(of name: String, in model: ObjectModel) -> [String] {
    guard let e = model.entity(named: name) else { return [] }
    var targets: [String] = []
    for r in model.allRelationships(of: e) {
      for d in [r.destinationEntity] + model.subentities(of: r.destinationEntity).map(\.name)
      where !targets.contains(d) {
        targets.append(d)
      }
    }
    return targets
  }

  /// Why `name` is not an entity alone in its table (abstract, a parent or sub-entities); nil
  /// when it is.
  private static func hierarchyProblem(_ name: String, in model: ObjectModel) -> String? {
    guard let e = model.entity(named: name) else { return "the model has no entity \(name)" }
    if e.isAbstract { return "it is abstract" }
    if e.parentName != nil { return "it has a parent entity" }
    if model.entities.contains(where: { $0.parentName == name }) { return "it has sub-entities" }
    return nil
  }

  /// Why `name`'s relationships, or those pointing at it, cannot be read or written with stubs
  /// (`outwardProblem`, `pointedAt`); nil when they can.
  /// `storedOnly`: transient relationships are left out (a conversion, which copies what is
  /// stored only).
  static func relationshipProblem(_ name: String, in model: ObjectModel, storedOnly: Bool = false) -> String? {
    guard let e = model.entity(named: name) else { return "the model has no entity \(name)" }
    for r in model.allRelationships(of: e) where !(storedOnly && r.isTransient) {
      if let why = outwardProblem(r, of: name, in: model) { return "its relationship \(r.name) \(why)" }
    }
    return pointedAt(name, in: model, storedOnly: storedOnly)
  }

  /// Why relationship `r` of entity `owner` (its own or inherited) cannot be read with stubs (a
  /// chunk's objects referring out), nil when it can: a to-one (its row holds the key, and the
  /// target's `Z_ENT` says its entity), a to-many whose inverse is a to-one (its members' rows
  /// hold the owner's key), one without an inverse (its members' rows hold the owner's key in a
  /// column of their table's own, `Z<ent><REL>`, which Core Data indexes too), or a
  /// many-to-many (a join table, named after the entity that declares each side; its other side
  /// must stream too: `dropReferredFromWhole`) that is not its own inverse.
  static func outwardProblem(_ r: RelationshipDescription, of owner: String, in model: ObjectModel) -> String? {
    if r.isTransient { return "is transient" }
    guard model.entity(named: r.destinationEntity) != nil else { return "has no destination entity" }
    guard r.isToMany else { return nil }
    guard let inverse = model.inverse(of: r) else {
      return r.inverseName == nil ? nil : "names an inverse, \(r.inverseName!), that its destination lacks"
    }
    guard inverse.isToMany else { return nil }
    if model.isSelfInverse(r, of: owner) {
      return "is many-to-many with itself as its inverse (a join table's REFLEXIVE column)"
    }
    return nil
  }

  /// Nil when every to-many relationship that points at `name` is the inverse of one of its
  /// own (its rows, or a join table's, hold the owners' keys) or has no inverse (its rows hold
  /// the owner's key in a column of their own, read with them: `referrers` keeps such an
  /// owner with them); else why not. (A to-one that points at it is held in the other
  /// entity's rows, a many-to-many in join rows: `dropReferredFromWhole`.)
  static func pointedAt(_ name: String, in model: ObjectModel, storedOnly: Bool = false) -> String? {
    guard let e = model.entity(named: name) else { return nil }
    let own = model.allRelationships(of: e)
    for other in model.entities {
      for q in other.relationships
      where q.isToMany && model.isKind(name, of: q.destinationEntity) && !(storedOnly && q.isTransient) {
        guard q.inverseName != nil else { continue }
        let inverseOfOwn = own.contains { $0.name == q.inverseName && $0.inverseName == q.name }
        if !inverseOfOwn { return "a to-many relationship of \(other.name) points at it (\(q.name))" }
      }
    }
    return nil
  }

  /// Entities of `model` whose rows, or join rows, hold keys of `name`'s objects, and how (for
  /// messages): through a to-one relationship (own or inherited) to it or an entity it inherits
  /// from, or a many-to-many one with it; the members of a to-many relationship of `name`'s
  /// without an inverse (their rows hold its key in a column of their own); with `toMany`,
  /// through any to-many relationship too (a format that lists the members with their owner).
  static func referrers(of name: String, in model: ObjectModel, toMany: Bool = false)
    -> [(entity: String, how: String)]
  {
    var found: [(entity: String, how: String)] = model.entities.flatMap { e in
      model.allRelationships(of: e).filter { r in
        model.isKind(name, of: r.destinationEntity) && !r.isTransient
          && (!r.isToMany || toMany || model.isManyToMany(r))
      }.map { (e.name, "\(e.name).\($0.name) refers to it") }
    }
    guard let entity = model.entity(named: name) else { return found }
    for r in model.allRelationships(of: entity) where r.isToMany && !r.isTransient && r.inverseName == nil {
      for d in [r.destinationEntity] + model.subentities(of: r.destinationEntity).map(\.name) {
        found.append((d, "the rows of \(d) hold its keys for \(name).\(r.name), which has no inverse"))
      }
    }
    return found
  }

  /// Nil when `name` has no parent, sub-entity or relationship and no relationship points at
  /// it; else why not.
  private static func standsAlone(_ name: String, in model: ObjectModel) -> String? {
    if let why = hierarchyProblem(name, in: model) { return why }
    if let r = model.entity(named: name)?.relationships.first { return "it has a relationship (\(r.name))" }
    if let other = model.entities.first(where: { o in o.relationships.contains { $0.destinationEntity == name } }) {
      return "a relationship of \(other.name) points at it"
    }
    return nil
  }

  /// Nil when destination entity `name` can be written from chunks; else why not. With
  /// `inTree`, it may be part of an inheritance tree (`destinationTreeProblem` holds its
  /// tree's sources to one source tree).
  static func standsAloneAsDestination(_ name: String, _ model: ObjectModel, inTree: Bool = false) -> String? {
    guard let e = model.entity(named: name) else { return "not in the destination model" }
    if !inTree && (e.parentName != nil || model.entities.contains(where: { $0.parentName == name })) {
      return "it is part of an inheritance tree"
    }
    if !e.uniquenessConstraints.isEmpty { return "it has uniqueness constraints" }
    return nil
  }

  /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", entity,
  /// predicate), $manager.sourceContext, NO)` with constant strings, the predicate one that
  /// names no variable, function, fetch or subquery.
  static func isWholeFetch(_ e: Expression, of entity: String) -> Bool {
    guard let predicate = fetchPredicate(e, of: entity) else { return false }
    let upper = predicate.uppercased()
    return !predicate.contains("$") && !["FUNCTION", "FETCH", "SUBQUERY"].contains { upper.contains($0) }
  }

  /// The predicate string of a fetch of `entity`'s objects (as `isWholeFetch` says), nil for
  /// any other expression.
  static func fetchPredicate(_ e: Expression, of entity: String) -> String? {
    guard case .fetch(let request, _, let countOnly) = e.kind, !countOnly,
      case .selector(let target, "fetchRequestForSourceEntityNamed:predicateString:", let args) = request.kind,
      case .variable("manager") = target.kind, args.count == 2,
      case .constant(.string(let name)) = args[0].kind, name == entity,
      case .constant(.string(let predicate)) = args[1].kind
    else { return nil }
    return predicate
  }
}

/// What each mapping's expressions name: mappings (in `$manager` calls) and fetched source
/// entities; `dynamic` when a name is computed.
private struct Mentions {
  var mappings: [String: Set<String>] = [:]
  var fetched: [String: Set<String>] = [:]
  var dynamic = false

  mutating func collect(_ m: EntityMapping) {
    var exprs = [m.sourceExpression, m.forEach].compactMap { $0?.expression }
    exprs += (m.attributeMappings + m.relationshipMappings).compactMap { $0.valueExpression?.expression }
    for e in exprs { walk(e, m.name) }
  }

  private mutating func walk(_ e: Expression, _ owner: String) {
    ExpressionWalk.each(e) { x in
      guard case .selector(let target, let selector, let args) = x.kind, case .variable("manager") = target.kind,
        let first = args.first
      else { return }
      let fetches = selector.hasPrefix("fetchRequestForSourceEntityNamed")
      guard fetches || selector.contains("EntityMappingNamed") else { return }
      if case .constant(.string(let name)) = first.kind {
        if fetches { fetched[owner, default: []].insert(name) } else { mappings[owner, default: []].insert(name) }
      } else {
        dynamic = true
      }
    }
  }
}
