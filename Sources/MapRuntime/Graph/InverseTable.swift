/// For every relationship of a graph's layout: its inverse's column in each entity that can be
/// at the other end (the destination entity and the entities inheriting from it).
package struct InverseTable: Sendable {
  package final class Entry: @unchecked Sendable {
    package let isToMany: Bool
    /// Indexed by target entity; -1 where there is no inverse.
    package let inverseColumn: [Int]
    package let inverseIsToMany: Bool
    package let destinationKinds: Set<Int>
    /// Whether an entity can be at the other end, indexed by entity.
    package let accepts: [Bool]
    /// The inverse columns themselves, indexed by target entity (set by `ObjectGraph`).
    @exclusivity(unchecked) var inverseMany: [ToManyColumn?] = []
    @exclusivity(unchecked) var inverseOne: [ToOneColumn?] = []
    package init(
      isToMany: Bool, inverseColumn: [Int], inverseIsToMany: Bool, destinationKinds: Set<Int>, entityCount: Int
    ) {
      self.isToMany = isToMany
      self.inverseColumn = inverseColumn
      self.inverseIsToMany = inverseIsToMany
      self.destinationKinds = destinationKinds
      self.accepts = (0..<entityCount).map { destinationKinds.contains($0) }
    }
  }
  /// Indexed by entity, then property; nil for attributes.
  package let entries: [[Entry?]]
  /// The same entries in one array: entity `e`'s property `p` is at `e * stride + p`.
  package let flat: [Entry?]
  package let stride: Int

  @inline(__always) package func entry(_ entity: UInt32, _ column: Int) -> Entry? {
    flat[Int(entity) * stride + column]
  }

  package init(layout: StoreLayout) {
    let count = layout.entities.count
    let entries: [[Entry?]] = layout.entities.map { e in
      e.properties.map { p -> Entry? in
        guard let r = p.relationship else { return nil }
        var columns = Array(repeating: -1, count: count)
        var inverseToMany = false
        var kinds: Set<Int> = []
        if let d = p.destinationIndex {
          for k in layout.entities[d].kindIndexes {
            kinds.insert(k)
            if let inv = r.inverseName, let ci = layout.entities[k].propertyIndex(inv),
              let ir = layout.entities[k].properties[ci].relationship
            {
              columns[k] = ci
              inverseToMany = ir.isToMany
            }
          }
        }
        return Entry(
          isToMany: r.isToMany, inverseColumn: columns, inverseIsToMany: inverseToMany,
          destinationKinds: kinds, entityCount: count)
      }
    }
    self.entries = entries
    let stride = max(1, entries.map(\.count).max() ?? 1)
    var flat = [Entry?](repeating: nil, count: stride * max(1, count))
    for (e, list) in entries.enumerated() {
      for (p, entry) in list.enumerated() { flat[e * stride + p] = entry }
    }
    self.flat = flat
    self.stride = stride
  }
}

extension InverseTable {
  /// Points every entry at the inverse columns of `graph`, so updates need no casts.
  package func bind(to graph: ObjectGraph) {
    for e in entries {
      for case let entry? in e {
        entry.inverseMany = entry.inverseColumn.enumerated().map { k, c in
          c >= 0 ? graph.tables[k].columns[c] as? ToManyColumn : nil
        }
        entry.inverseOne = entry.inverseColumn.enumerated().map { k, c in
          c >= 0 ? graph.tables[k].columns[c] as? ToOneColumn : nil
        }
      }
    }
  }
}

extension ObjectGraph {
  /// Sets a to-one relationship and keeps the inverse in step, as a managed object context does.
  package func setToOne(_ owner: ObjectRef, _ column: Int, _ target: ObjectRef?, _ inverses: InverseTable) {
    let col = tables[Int(owner.entity)].columns[column] as! ToOneColumn
    let row = Int(owner.row)
    let old = col.target(row)
    if old == target { return }
    col.setTarget(row, target)
    guard let entry = inverses.entry(owner.entity, column) else { return }
    if let old {
      let e = Int(old.entity)
      if let many = entry.inverseMany[e] {
        many.remove(Int(old.row), owner)
      } else if let one = entry.inverseOne[e], one.target(Int(old.row)) == owner {
        one.setTarget(Int(old.row), nil)
      }
    }
    if let target {
      let e = Int(target.entity)
      if let many = entry.inverseMany[e] {
        many.add(Int(target.row), owner)
      } else if let one = entry.inverseOne[e] {
        if let previous = one.target(Int(target.row)), previous != owner {
          // One-to-one: the target's previous partner loses it.
          (sameProperty(column, of: owner, in: previous) as? ToOneColumn)?.setTarget(Int(previous.row), nil)
        }
        one.setTarget(Int(target.row), owner)
      }
    }
  }

  /// The column of `other`'s entity that holds the property at `column` of `owner`'s entity.
  private func sameProperty(_ column: Int, of owner: ObjectRef, in other: ObjectRef) -> Column? {
    if owner.entity == other.entity { return tables[Int(owner.entity)].columns[column] }
    let name = tables[Int(owner.entity)].layout.properties[column].name
    guard let i = tables[Int(other.entity)].layout.propertyIndex(name) else { return nil }
    return tables[Int(other.entity)].columns[i]
  }

  /// Adds to a to-many relationship (no-op when present) and keeps the inverse in step.
  package func addToMany(_ owner: ObjectRef, _ column: Int, _ target: ObjectRef, _ inverses: InverseTable) {
    let col = tables[Int(owner.entity)].columns[column] as! ToManyColumn
    guard col.add(Int(owner.row), target) else { return }
    guard let entry = inverses.entry(owner.entity, column) else { return }
    addInverse(owner, column, target, entry)
  }

  /// Sets the inverse of `owner`'s to-many relationship at `column` on a target just added.
  @inline(__always) package func addInverse(
    _ owner: ObjectRef, _ column: Int, _ target: ObjectRef, _ entry: InverseTable.Entry
  ) {
    let e = Int(target.entity)
    if let one = entry.inverseOne[e] {
      let previous = one.target(Int(target.row))
      if previous == owner { return }
      if let previous {
        (sameProperty(column, of: owner, in: previous) as? ToManyColumn)?.remove(Int(previous.row), target)
      }
      one.setTarget(Int(target.row), owner)
    } else if let many = entry.inverseMany[e] {
      many.add(Int(target.row), owner)
    }
  }
}
