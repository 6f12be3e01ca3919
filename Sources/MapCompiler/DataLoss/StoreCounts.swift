import MapRuntime

/// What a store holds, counted from the graph `mapc` read: objects per entity (its own
/// instances, not its subentities'), and for the properties asked about the non-nil values
/// (attributes) or links (relationships; a to-many counts each object it holds).
public struct StoreCounts: Sendable, Hashable {
  public var objects: [String: Int] = [:]
  /// `Entity.property` → non-nil values or links.
  public var values: [String: Int] = [:]

  public init(objects: [String: Int] = [:], values: [String: Int] = [:]) {
    self.objects = objects
    self.values = values
  }

  /// Counts every entity's objects and the values of `properties` (entity, property). A
  /// property `composite.element…` counts the objects whose composite holds a non-nil value
  /// for that element.
  package static func count(_ graph: ObjectGraph, properties: [(entity: String, property: String)]) -> StoreCounts {
    var counts = StoreCounts()
    for t in graph.tables { counts.objects[t.layout.name] = t.count }
    for (entity, property) in properties {
      let path = property.split(separator: ".").map(String.init)
      guard let e = graph.layout.entityIndex(entity), let first = path.first,
        let p = graph.tables[e].layout.propertyIndex(first)
      else {
        continue
      }
      let table = graph.tables[e]
      var n = 0
      for row in 0..<table.count {
        var value = table.value(row, p)
        if path.count > 1 { value = CompositeValue.element(value, path.dropFirst(), in: graph) }
        switch value {
        case .null: break
        case .array(let links) where table.layout.properties[p].relationship != nil: n += links.count
        default: n += 1
        }
      }
      counts.values[entity + "." + property] = n
    }
    return counts
  }
}
