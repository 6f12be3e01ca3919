import MapRuntime
import MapSyntax

/// The checks Xcode's model compiler makes between the elements of a model: names that must
/// be unique, entities and inverses that must exist and agree, inheritance without cycles.
/// Every finding points at the XML attribute at fault.
struct ModelChecker {
  let model: ObjectModel
  let sources: [EntitySource]
  /// The `<model>` element's children (for `<fetchRequest>` and `<configuration>`).
  let modelChildren: [XML.Element]
  private(set) var diagnostics: [Diagnostic] = []
  /// Entities whose ancestry loops; inherited-property checks skip them.
  private var cyclic: Set<String> = []

  init(model: ObjectModel, sources: [EntitySource], root: XML.Element) {
    self.model = model
    self.sources = sources
    self.modelChildren = root.elements
  }

  static func check(_ model: ObjectModel, _ sources: [EntitySource], root: XML.Element)
    -> [Diagnostic]
  {
    var checker = ModelChecker(model: model, sources: sources, root: root)
    checker.run()
    return checker.diagnostics
  }

  private func valueLocation(_ element: XML.Element, _ attribute: String) -> SourceLocation {
    element.attribute(attribute)?.valueLocation ?? element.location
  }

  private mutating func run() {
    checkEntityNames()
    checkInheritance()
    // Every later check walks each entity's ancestors: not over a refused hierarchy.
    guard checkInheritanceDepth() else { return }
    for (index, entity) in model.entities.enumerated() {
      checkOwnPropertyNames(entity, sources[index])
      checkInheritedPropertyNames(entity, sources[index])
      for (r, relationship) in entity.relationships.enumerated() {
        checkRelationship(relationship, of: entity, element: sources[index].relationshipElements[r])
      }
      checkPropertyLists(entity, sources[index])
      for (f, fetched) in entity.fetchedProperties.enumerated()
      where model.entity(named: fetched.fetchRequest.entity) == nil {
        let element =
          sources[index].fetchedPropertyElements[f].firstElement(named: "fetchRequest")
          ?? sources[index].fetchedPropertyElements[f]
        unknownEntity(
          fetched.fetchRequest.entity, at: valueLocation(element, "entity"),
          what: "fetched property '\(entity.name).\(fetched.name)'")
      }
    }
    for template in model.fetchRequestTemplates where model.entity(named: template.entity) == nil {
      let element = fetchRequestElements.first { $0[attribute: "name"] == template.name }
      unknownEntity(
        template.entity, at: element.map { valueLocation($0, "entity") } ?? template.location,
        what: "fetch request '\(template.name)'")
    }
    for configuration in model.configurations {
      let element = configurationElements.first { $0[attribute: "name"] == configuration.name }
      for member in element?.elements(named: "memberEntity") ?? [] {
        if let name = member[attribute: "name"], model.entity(named: name) == nil {
          unknownEntity(
            name, at: valueLocation(member, "name"),
            what: "configuration '\(configuration.name)'")
        }
      }
    }
  }

  private var fetchRequestElements: [XML.Element] { modelChildren.filter { $0.name == "fetchRequest" } }
  private var configurationElements: [XML.Element] { modelChildren.filter { $0.name == "configuration" } }

  private mutating func unknownEntity(_ name: String, at location: SourceLocation?, what: String) {
    diagnostics.append(
      .error(
        "model-unknown-entity", "\(what) refers to entity '\(name)', which the model does not define",
        at: location))
  }

  private mutating func checkEntityNames() {
    // The runtime keeps an entity's number in 16 bits beside an object's row (its id index),
    // and plan readers refuse models with more entities.
    if model.entities.count > ObjectModel.maximumEntityCount {
      let first = ObjectModel.maximumEntityCount
      diagnostics.append(
        .error(
          "model-too-many-entities",
          "the model has \(model.entities.count) entities; mapc migrates models of at most \(first)",
          at: model.entities[first].location))
    }
    var first: [String: Int] = [:]
    for (index, entity) in model.entities.enumerated() {
      if let earlier = first[entity.name] {
        diagnostics.append(
          .error(
            "model-duplicate-entity", "entity '\(entity.name)' is defined twice",
            at: valueLocation(sources[index].element, "name"),
            notes: [.init("first defined here", at: model.entities[earlier].location)]))
      } else {
        first[entity.name] = index
      }
    }
  }

  private mutating func checkInheritance() {
    // Each entity's parent chain is walked once in all (linear in the model): an entity whose
    // chain was finished before is not walked again. A walk that comes back to an entity of its
    // own path has found a cycle, reported once at the entity where the walk started, when that
    // entity is on the cycle.
    var state = [UInt8](repeating: 0, count: model.entities.count)  // 0 new, 1 on the path, 2 done
    for (index, entity) in model.entities.enumerated() {
      guard let parent = entity.parentName else { continue }
      guard model.entity(named: parent) != nil else {
        unknownEntity(
          parent, at: valueLocation(sources[index].element, "parentEntity"),
          what: "entity '\(entity.name)' (parentEntity)")
        continue
      }
      guard state[index] == 0 else { continue }
      var path: [Int] = []
      var current: Int? = index
      while let c = current, state[c] == 0 {
        state[c] = 1
        path.append(c)
        current = model.entities[c].parentName.flatMap { model.entityIndex(named: $0) }
      }
      if let c = current, state[c] == 1, let start = path.firstIndex(of: c) {
        let cycle = path[start...].map { model.entities[$0].name }
        cyclic.formUnion(cycle)
        let first = path[start]
        diagnostics.append(
          .error(
            "model-inheritance-cycle",
            "entity '\(model.entities[first].name)' inherits from itself: "
              + (cycle + [model.entities[first].name]).joined(separator: " → "),
            at: valueLocation(sources[first].element, "parentEntity")))
      }
      for p in path { state[p] = 2 }
    }
  }

  /// Refuses (`model-inheritance-too-deep`, once, at the first entity in model order) a
  /// hierarchy deeper than `Limits.inheritanceDepth`, in time linear in the model: each
  /// entity's depth is its parent's plus one, found once. False when refused.
  private mutating func checkInheritanceDepth() -> Bool {
    var depth = [Int](repeating: -1, count: model.entities.count)
    for index in model.entities.indices where depth[index] < 0 {
      var path: [Int] = []
      var current: Int? = index
      var base = 0
      while let c = current {
        if depth[c] >= 0 {
          base = depth[c] + 1
          break
        }
        if cyclic.contains(model.entities[c].name) || path.count > model.entities.count { break }
        depth[c] = 0  // on the path (a cycle is cut here)
        path.append(c)
        current = model.entities[c].parentName.flatMap { model.entityIndex(named: $0) }
      }
      for (k, p) in path.reversed().enumerated() { depth[p] = base + k }
    }
    guard let deep = depth.firstIndex(where: { $0 > Limits.inheritanceDepth }) else { return true }
    diagnostics.append(
      .error(
        "model-inheritance-too-deep",
        "entity '\(model.entities[deep].name)' has more than \(Limits.inheritanceDepth) levels of ancestors; mapc "
          + "reads hierarchies of at most \(Limits.inheritanceDepth) levels",
        at: valueLocation(sources[deep].element, "parentEntity")))
    return false
  }

  private mutating func checkOwnPropertyNames(_ entity: EntityDescription, _ source: EntitySource) {
    // Nothing to report when no name repeats (the usual case): no need to sort the elements.
    var names: Set<String> = []
    names.reserveCapacity(entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
    let repeats =
      entity.attributes.contains { !names.insert($0.name).inserted }
      || entity.relationships.contains { !names.insert($0.name).inserted }
      || entity.fetchedProperties.contains { !names.insert($0.name).inserted }
    guard repeats else { return }
    var named: [(String, XML.Element)] = Array(zip(entity.attributes.map(\.name), source.attributeElements))
    named += zip(entity.relationships.map(\.name), source.relationshipElements)
    named += zip(entity.fetchedProperties.map(\.name), source.fetchedPropertyElements)
    // In document order, so the second declaration is the one reported.
    named.sort { ($0.1.location.line, $0.1.location.column) < ($1.1.location.line, $1.1.location.column) }
    var first: [String: XML.Element] = [:]
    for (name, element) in named {
      if let earlier = first[name] {
        diagnostics.append(
          .error(
            "model-duplicate-property", "entity '\(entity.name)' declares property '\(name)' twice",
            at: valueLocation(element, "name"),
            notes: [.init("first declared here", at: earlier.location)]))
      } else {
        first[name] = element
      }
    }
  }

  private mutating func checkInheritedPropertyNames(
    _ entity: EntityDescription, _ source: EntitySource
  ) {
    guard entity.parentName != nil, !cyclic.contains(entity.name) else { return }
    let ancestors = model.ancestors(of: entity)
    let own =
      entity.attributes.map(\.name) + entity.relationships.map(\.name)
      + entity.fetchedProperties.map(\.name)
    for name in Set(own).sorted() {
      guard
        let owner = ancestors.first(where: { a in
          a.attributes.contains { $0.name == name } || a.relationships.contains { $0.name == name }
            || a.fetchedProperties.contains { $0.name == name }
        })
      else { continue }
      let element = source.propertyElement(named: name, in: entity)!
      let ownerIndex = model.entityIndex(named: owner.name)!
      let earlier = sources[ownerIndex].propertyElement(named: name, in: owner)
      diagnostics.append(
        .error(
          "model-duplicate-property",
          "entity '\(entity.name)' redeclares property '\(name)', which it inherits from '\(owner.name)'",
          at: valueLocation(element, "name"),
          notes: [.init("declared in '\(owner.name)' here", at: earlier?.location)]))
    }
  }

  private mutating func checkRelationship(
    _ r: RelationshipDescription, of entity: EntityDescription, element: XML.Element
  ) {
    let label = "relationship '\(entity.name).\(r.name)'"
    guard let destination = model.entity(named: r.destinationEntity) else {
      unknownEntity(r.destinationEntity, at: valueLocation(element, "destinationEntity"), what: label)
      return
    }
    guard let inverseName = r.inverseName, let inverseEntityName = r.inverseEntity else {
      diagnostics.append(
        .warning(
          "model-missing-inverse",
          "\(label) has no inverse; Core Data cannot keep the other side consistent",
          at: element.location))
      return
    }
    guard let inverseEntity = model.entity(named: inverseEntityName) else {
      unknownEntity(inverseEntityName, at: valueLocation(element, "inverseEntity"), what: label)
      return
    }
    guard model.isKind(destination.name, of: inverseEntity.name) else {
      diagnostics.append(
        .error(
          "model-inverse-mismatch",
          "\(label) has destination '\(destination.name)' but its inverse is on '\(inverseEntity.name)'",
          at: valueLocation(element, "inverseEntity")))
      return
    }
    guard let inverse = model.allRelationships(of: inverseEntity).first(where: { $0.name == inverseName })
    else {
      diagnostics.append(
        .error(
          "model-unknown-inverse",
          "\(label) names '\(inverseEntity.name).\(inverseName)' as its inverse, but '\(inverseEntity.name)' has no relationship '\(inverseName)'",
          at: valueLocation(element, "inverseName")))
      return
    }
    let pointsBack =
      inverse.inverseName == r.name && model.isKind(entity.name, of: inverse.destinationEntity)
    if !pointsBack {
      let theirs =
        inverse.inverseName.map { "'\(inverse.inverseEntity ?? inverse.destinationEntity).\($0)'" }
        ?? "no inverse"
      let ownerIndex = model.entities.firstIndex { e in
        model.isKind(inverseEntity.name, of: e.name) && e.relationships.contains { $0 === inverse }
      }
      let inverseElement = ownerIndex.flatMap { i in
        sources[i].propertyElement(named: inverseName, in: model.entities[i])
      }
      diagnostics.append(
        .error(
          "model-inverse-mismatch",
          "\(label) names '\(inverseEntity.name).\(inverseName)' as its inverse, but that relationship has \(theirs)",
          at: valueLocation(element, "inverseName"),
          notes: [.init("'\(inverseEntity.name).\(inverseName)' is declared here", at: inverseElement?.location)]))
    }
  }

  /// Uniqueness constraints and compound indexes must name properties of the entity.
  private mutating func checkPropertyLists(_ entity: EntityDescription, _ source: EntitySource) {
    guard !cyclic.contains(entity.name) else { return }
    guard !entity.uniquenessConstraints.isEmpty || !entity.compoundIndexes.isEmpty else { return }
    let known = Set(
      model.allAttributes(of: entity).map(\.name) + model.allRelationships(of: entity).map(\.name))
    let lists: [(String, String, String, [[String]])] = [
      ("uniquenessConstraints", "uniquenessConstraint", "constraint", entity.uniquenessConstraints),
      ("compoundIndexes", "compoundIndex", "index", entity.compoundIndexes),
    ]
    for (container, item, leaf, values) in lists where !values.isEmpty {
      let leaves = source.element.elements(named: container).flatMap { $0.elements(named: item) }
        .flatMap { $0.elements(named: leaf) }
      for element in leaves {
        guard let name = element[attribute: "value"], !known.contains(name) else { continue }
        diagnostics.append(
          .error(
            "model-unknown-property",
            "\(container == "compoundIndexes" ? "compound index" : "uniqueness constraint") of entity '\(entity.name)' names '\(name)', which is not one of its properties",
            at: valueLocation(element, "value")))
      }
    }
  }
}

extension RelationshipDescription {
  /// Same declaration (name, destination and location), for finding where an inverse is.
  fileprivate static func === (a: RelationshipDescription, b: RelationshipDescription) -> Bool {
    a.name == b.name && a.location == b.location
  }
}
