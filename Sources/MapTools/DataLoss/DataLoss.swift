import MapRuntime

/// Data a step would lose from a store: the objects of an entity no entity mapping reads, or
/// the non-nil values (links) of a property nothing reads.
public struct DataLoss: Sendable, Hashable, Codable {
  public var entity: String
  /// Nil for the entity's objects; `composite.element` for an element of a composite attribute.
  public var property: String?
  public var isRelationship: Bool
  /// Objects, values or links.
  public var count: Int
  /// For values kept but converted to a type that cannot hold them as they are: that type
  /// (`StepAnalysis.unfitValues`); nil for what is dropped.
  public var unfit: String? = nil

  /// `Entity`, `Entity.property` or `Entity.composite.element`, as `--allow-drop` names it.
  public var name: String { property.map { "\(entity).\($0)" } ?? entity }

  /// `3 objects`, `1 value`, `2 links`.
  public var countText: String {
    let unit = property == nil ? "object" : (isRelationship ? "link" : "value")
    let fit = unfit.map { " that \(count == 1 ? "does" : "do") not fit \($0)" } ?? ""
    return "\(count) \(unit)\(count == 1 ? "" : "s")\(fit)"
  }
}

extension StepAnalysis {
  /// Everything the step can drop, named as `--allow-drop` accepts it, without a store: each
  /// concrete source entity it drops (its objects and every property), and for the others each
  /// dropped property (`Entity.property`) and composite element (`Entity.property.element`).
  /// What a lock records for a shipped step (`Specs/model-lock.md` §4).
  public var droppable: [String] {
    var result: [String] = []
    for e in sourceEntities where !e.isAbstract {
      if case .removed = e.fate { continue }
      if case .dropped = e.fate {
        result.append(e.name)
        continue
      }
      for p in e.properties {
        if p.fate == .dropped {
          result.append(e.name + "." + p.name)
        } else {
          result += Self.uniquePaths(p.droppedElements).map { e.name + "." + p.name + "." + $0 }
        }
      }
    }
    return result.sorted()
  }

  /// The properties whose values decide what is lost: every property of a dropped entity, and
  /// the dropped properties of migrated ones.
  /// Elements of copied composites count as `composite.element` (`place.location.longitude`).
  public var propertiesToCount: [(entity: String, property: String)] {
    sourceEntities.flatMap { e in
      e.properties.filter { p in
        if case .dropped = e.fate { return true }
        if case .dropped = p.fate, case .migrated = e.fate { return true }
        return false
      }.map { (e.name, $0.name) }
        + e.properties.flatMap { p -> [(String, String)] in
          guard case .migrated = e.fate, p.fate != .dropped else { return [] }
          return Self.uniquePaths(p.droppedElements).map { (e.name, p.name + "." + $0) }
        }
    }
  }

  /// The entities whose objects the step's consent lets go: those a `remove` entity mapping
  /// names, and dropped ones that `consent` accepts as a whole (`--allow-drop Entity`,
  /// `--allow-data-loss`). Links to their objects are consented too (`StoreCounts`).
  public func removedEntities(consent: DropConsent) -> Set<String> {
    Set(
      sourceEntities.filter { e in
        switch e.fate {
        case .removed: true
        case .dropped: consent.all || consent.names.contains(e.name)
        case .migrated: false
        }
      }.map(\.name))
  }

  /// What `graph` (the step's source store) holds of what the step drops: `propertiesToCount`,
  /// with the links to objects whose removal was consented counted apart.
  package func counts(_ graph: ObjectGraph, consent: DropConsent) -> StoreCounts {
    StoreCounts.count(graph, properties: propertiesToCount, removed: removedEntities(consent: consent))
  }

  /// The element paths of `drops`, each once, in order.
  static func uniquePaths(_ drops: [ElementDrop]) -> [String] {
    var seen: Set<String> = []
    return drops.map { $0.path.joined(separator: ".") }.filter { seen.insert($0).inserted }
  }

  /// What this step loses of a store with `counts`: entities first, each followed by its
  /// properties; nothing that the store holds none of.
  public func losses(_ counts: StoreCounts) -> [DataLoss] {
    var result: [DataLoss] = []
    for e in sourceEntities where !e.isAbstract {
      let objects = counts.objects[e.name] ?? 0
      guard objects > 0 else { continue }
      let lostEntity: Bool
      switch e.fate {
      case .removed: continue
      case .dropped: lostEntity = true
      case .migrated: lostEntity = false
      }
      if lostEntity {
        result.append(DataLoss(entity: e.name, property: nil, isRelationship: false, count: objects))
      }
      for p in e.properties {
        if !lostEntity && p.fate != .dropped {
          for path in Self.uniquePaths(p.droppedElements) {
            let name = p.name + "." + path
            guard let n = counts.values[e.name + "." + name], n > 0 else { continue }
            result.append(DataLoss(entity: e.name, property: name, isRelationship: false, count: n))
          }
        }
        guard lostEntity || p.fate == .dropped, let n = counts.values[e.name + "." + p.name], n > 0 else { continue }
        result.append(DataLoss(entity: e.name, property: p.name, isRelationship: p.isRelationship, count: n))
      }
    }
    return result
  }
}

extension StepAnalysis {
  /// The composite elements the step's destination lacks, to remove from the migrated values
  /// once the loss is accepted (`MigrationRun.Options.elementDrops`), each once.
  package var elementRemovals: [ElementRemoval] {
    var seen: Set<ElementRemoval> = []
    return sourceEntities.flatMap { e -> [ElementRemoval] in
      guard case .migrated = e.fate else { return [] }
      return e.properties.flatMap { p in
        p.droppedElements.map {
          ElementRemoval(path: $0.path, attribute: $0.destinationAttribute, entity: $0.destinationEntity)
        }
      }
    }.filter { seen.insert($0).inserted }
  }
}
