extension MigrationManager {
  /// What one entity mapping did in a run: the objects of its source entity (subentities
  /// included) that the run read, how many of them it made objects from, and the objects made.
  public struct MappingCount: Sendable, Hashable, Codable {
    public var mapping: String
    public var sourceEntity: String?
    public var destinationEntity: String?
    public var read: Int
    public var used: Int
    public var made: Int
  }

  /// One count per entity mapping, in plan order (after `migrate()`).
  public var mappingCounts: [MappingCount] {
    var seen = [Bool](repeating: false, count: context.sourceObjectCount)
    return zip(plan.entityMappings, context.associations).map { m, a in
      var read = 0
      if let name = m.sourceEntity, let e = source.layout.entityIndex(name) {
        for k in source.layout.entities[e].kindIndexes { read += source.tables[k].realCount }
      }
      var used = 0
      var made = 0
      var keys: [Int] = []
      for k in 0..<a.instanceCount {
        // Stubs (a run in chunks: `EntityTable.stubsFrom`) are counted in the part they belong to.
        if let s = a.source(at: k), Int(s.row) >= source.table(s).realCount { continue }
        made += 1
        guard let key = a.sourceKey(at: k), key < seen.count, !seen[key] else { continue }
        seen[key] = true
        keys.append(key)
        used += 1
      }
      for key in keys { seen[key] = false }
      return MappingCount(
        mapping: m.name, sourceEntity: m.sourceEntity, destinationEntity: m.destinationEntity, read: read, used: used,
        made: made)
    }
  }
}
