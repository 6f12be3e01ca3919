/// Elements of composite attribute values (`NSCompositeAttributeDescription`): a dictionary of
/// the elements' values, or a payload the graph's reader kept unread (`.transformable`), read
/// with the graph's codec.
package enum CompositeValue {
  /// The value at `path` (`location`, `longitude`) inside `value`; nil when any step is missing.
  package static func element(_ value: Value, _ path: some Collection<String>, in graph: ObjectGraph) -> Value {
    var v = value
    for key in path {
      guard case .dictionary(let pairs) = read(v, in: graph) else { return .null }
      v = pairs.first { $0.0 == key }?.1 ?? .null
    }
    return v
  }

  /// `value` without the element at `path` (unchanged when it has none), read as a dictionary
  /// when it must change.
  package static func removing(_ path: ArraySlice<String>, from value: Value, in graph: ObjectGraph) -> Value {
    guard let key = path.first, case .dictionary(var pairs) = read(value, in: graph),
      let i = pairs.firstIndex(where: { $0.0 == key })
    else { return value }
    if path.count == 1 {
      pairs.remove(at: i)
    } else {
      pairs[i].1 = removing(path.dropFirst(), from: pairs[i].1, in: graph)
    }
    return .dictionary(pairs)
  }

  /// A payload kept unread, read; any other value as it is.
  static func read(_ value: Value, in graph: ObjectGraph) -> Value {
    guard case .transformable(let s) = value, let input = graph.input, let codec = graph.transformableCodec else {
      return value
    }
    return (try? codec.value(input, s)) ?? .null
  }
}

extension ObjectGraph {
  /// Removes the element at `path` from every value of composite attribute `attribute` of
  /// `entity` and of the entities inheriting it (a step whose destination composite lacks the
  /// element, the loss accepted). Values still unread are read with `source`'s codec, which
  /// holds the bytes they point into.
  package func removeElement(_ path: [String], of attribute: String, entity: String, source: ObjectGraph) {
    guard let e = layout.entityIndex(entity) else { return }
    for k in layout.entities[e].kindIndexes {
      let table = tables[k]
      guard let p = table.layout.propertyIndex(attribute) else { continue }
      for row in 0..<table.count {
        let before = table.value(row, p)
        guard !before.isNull else { continue }
        let after = CompositeValue.removing(path[...], from: before, in: source)
        if case .dictionary = after { table.columns[p].set(row, after) }
      }
    }
  }
}

/// A composite element a step removes from every value of a destination attribute.
package struct ElementRemoval: Sendable, Hashable {
  package var path: [String]
  package var attribute: String
  package var entity: String

  package init(path: [String], attribute: String, entity: String) {
    self.path = path
    self.attribute = attribute
    self.entity = entity
  }
}
