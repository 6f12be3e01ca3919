import MapRuntime

extension StepAnalysis {
  /// What `plan` does to a store written in `format` (`analyze`): into a format that computes
  /// derived attributes, those are `recomputingDerived`.
  public static func analyze(_ plan: MigrationPlan, into format: (any StoreFormat)?) -> StepAnalysis {
    let analysis = analyze(plan)
    return format?.computesDerivedAttributes == true ? analysis.recomputingDerived(plan) : analysis
  }

  /// The analysis for a destination store that computes derived attributes itself (Core Data's
  /// SQLite store: its triggers and fill statements, `Specs/sqlite-store.md` §9): a source
  /// attribute nothing copies that is derived, of an entity migrated into an entity with a
  /// derived attribute of its name (or whose renaming identifier is its name), is computed again
  /// there (`recomputed`), not lost, as Core Data's migration leaves it.
  public func recomputingDerived(_ plan: MigrationPlan) -> StepAnalysis {
    var result = self
    for (i, e) in sourceEntities.enumerated() {
      guard case .migrated(let readers) = e.fate, let source = plan.sourceModel.entity(named: e.name) else { continue }
      let attributes = plan.sourceModel.allAttributes(of: source)
      let destinations = readers.compactMap { name in
        plan.entityMappings.first { $0.name == name }?.destinationEntity.flatMap(plan.destinationModel.entity(named:))
      }
      for (k, p) in e.properties.enumerated() where p.fate == .dropped && !p.isRelationship {
        guard attributes.first(where: { $0.name == p.name })?.isDerived == true else { continue }
        let target = destinations.lazy.compactMap { d in
          plan.destinationModel.allAttributes(of: d).first {
            $0.isDerived && !$0.isTransient && ($0.renamingIdentifier ?? $0.name) == p.name
          }
        }.first
        if let target { result.sourceEntities[i].properties[k].fate = .recomputed(target.name) }
      }
    }
    return result
  }
}
