/// For every relationship of a graph's layout: its inverse's column in each entity that can be
/// at the other end (the destination entity and the entities inheriting from it).
struct InverseTable: Sendable {
  final class Entry: Sendable {
    let isToMany: Bool
    /// Indexed by target entity; -1 where there is no inverse.
    let inverseColumn: [Int]
    let inverseIsToMany: Bool
    let destinationKinds: Set<Int>
    init(isToMany: Bool, inverseColumn: [Int], inverseIsToMany: Bool, destinationKinds: Set<Int>) {
      self.isToMany = isToMany
      self.inverseColumn = inverseColumn
      self.inverseIsToMany = inverseIsToMany
      self.destinationKinds = destinationKinds
    }
  }
  /// Indexed by entity, then property; nil for attributes.
  let entries: [[Entry?]]

  init(layout: StoreLayout) {
    let count = layout.entities.count
    entries = layout.entities.map { e in
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
          destinationKinds: kinds)
      }
    }
  }
}

extension ObjectGraph {
  /// Sets a to-one relationship and keeps the inverse in step, as a managed object context does.
  func setToOne(_ owner: ObjectRef, _ column: Int, _ target: ObjectRef?, _ inverses: InverseTable) {
    let col = tables[Int(owner.entity)].columns[column] as! ToOneColumn
    let row = Int(owner.row)
    let old = col.target(row)
    if old == target { return }
    col.setTarget(row, target)
    guard let entry = inverses.entries[Int(owner.entity)][column] else { return }
    if let old {
      let ic = entry.inverseColumn[Int(old.entity)]
      if ic >= 0 {
        let c = tables[Int(old.entity)].columns[ic]
        if let many = c as? ToManyColumn {
          many.remove(Int(old.row), owner)
        } else if let one = c as? ToOneColumn, one.target(Int(old.row)) == owner {
          one.setTarget(Int(old.row), nil)
        }
      }
    }
    if let target {
      let ic = entry.inverseColumn[Int(target.entity)]
      if ic >= 0 {
        let c = tables[Int(target.entity)].columns[ic]
        if let many = c as? ToManyColumn {
          many.add(Int(target.row), owner)
        } else if let one = c as? ToOneColumn {
          if let previous = one.target(Int(target.row)), previous != owner {
            // One-to-one: the target's previous partner loses it.
            (sameProperty(column, of: owner, in: previous) as? ToOneColumn)?.setTarget(Int(previous.row), nil)
          }
          one.setTarget(Int(target.row), owner)
        }
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
  func addToMany(_ owner: ObjectRef, _ column: Int, _ target: ObjectRef, _ inverses: InverseTable) {
    let col = tables[Int(owner.entity)].columns[column] as! ToManyColumn
    guard col.add(Int(owner.row), target) else { return }
    guard let entry = inverses.entries[Int(owner.entity)][column] else { return }
    let ic = entry.inverseColumn[Int(target.entity)]
    guard ic >= 0 else { return }
    let c = tables[Int(target.entity)].columns[ic]
    if let many = c as? ToManyColumn {
      many.add(Int(target.row), owner)
    } else if let one = c as? ToOneColumn {
      let previous = one.target(Int(target.row))
      if previous == owner { return }
      if let previous {
        (sameProperty(column, of: owner, in: previous) as? ToManyColumn)?.remove(Int(previous.row), target)
      }
      one.setTarget(Int(target.row), owner)
    }
  }
}
