import MapRuntime

/// What a store holds, counted from the graph `mapc` read: objects per entity (its own
/// instances, not its subentities'), and for the properties asked about the non-nil values
/// (attributes) or links (relationships; a to-many counts each object it holds). A link to an
/// object whose removal was consented (its entity is in `removed`) is not counted with the
/// relationship's links but apart, in `consentedLinks`: consent to remove objects is consent to
/// lose the links to them (`Specs/migrate.md` §6).
public struct StoreCounts: Sendable, Hashable {
  public var objects: [String: Int] = [:]
  /// `Entity.property` → non-nil values or links.
  public var values: [String: Int] = [:]
  /// `Entity.relationship` → links to objects whose removal was consented (not in `values`).
  public var consentedLinks: [String: Int] = [:]

  public init(objects: [String: Int] = [:], values: [String: Int] = [:], consentedLinks: [String: Int] = [:]) {
    self.objects = objects
    self.values = values
    self.consentedLinks = consentedLinks
  }

  /// Both counts added up (two parts of one store).
  package func adding(_ other: StoreCounts) -> StoreCounts {
    StoreCounts(
      objects: objects.merging(other.objects, uniquingKeysWith: +),
      values: values.merging(other.values, uniquingKeysWith: +),
      consentedLinks: consentedLinks.merging(other.consentedLinks, uniquingKeysWith: +))
  }

  /// Counts every entity's objects and the values of `properties` (entity, property). A
  /// property `composite.element…` counts the objects whose composite holds a non-nil value
  /// for that element. Links to objects of the entities in `removed` (by name) are counted in
  /// `consentedLinks` instead.
  package static func count(
    _ graph: ObjectGraph, properties: [(entity: String, property: String)], removed: Set<String> = []
  ) -> StoreCounts {
    var counts = StoreCounts()
    for t in graph.tables { counts.objects[t.layout.name] = t.realCount }
    let removedTables = Set(graph.tables.indices.filter { removed.contains(graph.tables[$0].layout.name) })
    func isRemoved(_ v: Value) -> Bool {
      switch v {
      case .sourceObject(let r), .destinationObject(let r): removedTables.contains(Int(r.entity))
      default: false
      }
    }
    for (entity, property) in properties {
      let path = property.split(separator: ".").map(String.init)
      guard let e = graph.layout.entityIndex(entity), let first = path.first,
        let p = graph.tables[e].layout.propertyIndex(first)
      else {
        continue
      }
      let table = graph.tables[e]
      let isRelationship = path.count == 1 && table.layout.properties[p].relationship != nil
      var (n, consented) = (0, 0)
      // A stub (a chunk of a run in chunks) of an entity read whole holds links to the chunk's
      // objects that the part read whole lacks: they are counted here, its values there.
      let stubLinks = isRelationship && table.countsStubLinks
      for row in 0..<(stubLinks ? table.count : table.realCount) {
        var value = table.value(row, p)
        if row >= table.realCount { value = Self.linksToRealObjects(value, in: graph) }
        if path.count > 1 { value = CompositeValue.element(value, path.dropFirst(), in: graph) }
        switch value {
        case .null: break
        case .array(let links) where isRelationship:
          let toRemoved = removedTables.isEmpty ? 0 : links.reduce(0) { $0 + (isRemoved($1) ? 1 : 0) }
          n += links.count - toRemoved
          consented += toRemoved
        case let link where isRelationship && isRemoved(link): consented += 1
        default: n += 1
        }
      }
      counts.values[entity + "." + property] = n
      if consented > 0 { counts.consentedLinks[entity + "." + property] = consented }
    }
    return counts
  }

  /// The links of `value` (a relationship's) to objects that are not stubs.
  private static func linksToRealObjects(_ value: Value, in graph: ObjectGraph) -> Value {
    func real(_ v: Value) -> Bool {
      switch v {
      case .sourceObject(let r), .destinationObject(let r): Int(r.row) < graph.table(r).realCount
      default: false
      }
    }
    switch value {
    case .array(let links): return .array(links.filter(real))
    default: return real(value) ? value : .null
    }
  }
}
