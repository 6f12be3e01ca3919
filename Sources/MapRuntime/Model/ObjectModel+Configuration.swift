extension ObjectModel {
  /// The model as a store of configuration `name` holds it: only the configuration's member
  /// entities, in the model's order, with the ancestors they inherit from (one table holds a
  /// hierarchy). Core Data numbers, hashes and lays out a store from its configuration's entities
  /// (reference §3, §8.1). Nil when the model has no such configuration, or when a member's
  /// relationship leads out of it (Core Data keeps no relationship between stores).
  public func restricted(toConfiguration name: String) -> ObjectModel? {
    guard let c = configurations.first(where: { $0.name == name }) else { return nil }
    var members = Set(c.memberEntities.filter { entity(named: $0) != nil })
    guard !members.isEmpty else { return nil }
    for m in Array(members) {
      if let e = entity(named: m) { members.formUnion(ancestors(of: e).map(\.name)) }
    }
    let kept = entities.filter { members.contains($0.name) }
    for e in kept {
      for r in allRelationships(of: e) where !members.contains(r.destinationEntity) { return nil }
    }
    return ObjectModel(
      entities: kept, versionIdentifiers: versionIdentifiers,
      fetchRequestTemplates: fetchRequestTemplates.filter { members.contains($0.entity) },
      configurations: configurations, versionName: versionName, path: path)
  }
}
