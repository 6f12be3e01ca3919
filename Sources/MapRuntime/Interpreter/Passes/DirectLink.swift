/// One relationship mapping that pass 2 sets straight from another mapping's association table
/// (`LinkedMapping.relationshipLinks`), with everything it touches looked up once: the
/// relationship's column, the association table, and the inverse column in the one entity the
/// targets belong to. References are unretained (the graph and the manager own them), so
/// linking a million objects does no reference counting.
///
/// `link` handles the usual cases (a to-one set once, a to-many filled once, inverses with
/// nothing to take back) and says false for anything else; the caller then takes
/// `RelationshipSetting.linkDirectly`, which handles every case.
struct DirectLink {
  let column: Int
  let toOne: Unmanaged<ToOneColumn>?
  let toMany: Unmanaged<ToManyColumn>?
  let associations: Unmanaged<Associations>
  let inverseOne: Unmanaged<ToOneColumn>?
  let inverseMany: Unmanaged<ToManyColumn>?

  /// Nil when a target could be of several entities.
  init?(
    column: Int, of entity: Int, linking a: Associations, madeBy mapping: LinkedMapping, in graph: ObjectGraph,
    _ inverses: InverseTable
  ) {
    guard let target = mapping.destinationEntity,
      graph.layout.entities[target].kindIndexes == [target]
    else { return nil }
    self.column = column
    let c = graph.tables[entity].columns[column]
    toOne = (c as? ToOneColumn).map { Unmanaged.passUnretained($0) }
    toMany = (c as? ToManyColumn).map { Unmanaged.passUnretained($0) }
    associations = Unmanaged.passUnretained(a)
    let entry = inverses.entry(UInt32(entity), column)
    let one = entry.flatMap { target < $0.inverseOne.count ? $0.inverseOne[target] : nil }
    let many = entry.flatMap { target < $0.inverseMany.count ? $0.inverseMany[target] : nil }
    inverseOne = one.map { Unmanaged.passUnretained($0) }
    inverseMany = many.map { Unmanaged.passUnretained($0) }
  }

  /// The links of every relationship mapping of `lm` with what they touch looked up, when
  /// every one can be; nil otherwise.
  static func links(of lm: LinkedMapping, in c: MigrationContext) -> [DirectLink]? {
    guard lm.allRelationshipsLinked, !lm.relationshipColumns.isEmpty, let e = lm.destinationEntity else { return nil }
    var links: [DirectLink] = []
    for (k, column) in lm.relationshipColumns.enumerated() {
      let i = lm.relationshipLinks[k]
      guard
        let link = DirectLink(
          column: column, of: e, linking: c.associations[i], madeBy: c.linked[i], in: c.destination,
          c.destinationInverses)
      else { return nil }
      links.append(link)
    }
    return links
  }

  /// Links instances `range` of `a` (made for entity `entity`) with every link of `links`, in
  /// order, up to the first instance that one of them cannot link; returns that instance's
  /// index (`range.upperBound` when all were linked).
  static func link(_ a: Associations, _ range: Range<Int>, entity: Int?, with links: [DirectLink]) -> Int {
    guard let entity else { return range.lowerBound }
    return links.withUnsafeBufferPointer { links in
      Unmanaged.passUnretained(a)._withUnsafeGuaranteedRef { a in
        for k in range {
          let d = a.destination(at: k)
          guard Int(d.entity) == entity, let key = a.sourceKey(at: k) else { return k }
          for link in links where !link.link(d, key) { return k }
        }
        return range.upperBound
      }
    }
  }

  /// Links `d` to the instances made from source key `key`; false (having changed nothing)
  /// when the case is not one of the usual ones.
  @inline(__always) func link(_ d: ObjectRef, _ key: Int) -> Bool {
    associations._withUnsafeGuaranteedRef { a in
      guard let (first, n) = a.run(forSourceKey: key) else { return false }
      let row = Int(d.row)
      if let toMany {
        if n == 0 { return true }
        return toMany._withUnsafeGuaranteedRef { col in
          guard n <= ToManyColumn.linearLimit, col.count(row) == 0, inversesAreFree(a, first, n, of: d) else {
            return false
          }
          col.reserve(row, extra: n)
          for k in first..<(first + n) {
            let t = a.destination(at: k)
            col.appendAbsent(row, t)
            setInverse(t, to: d)
          }
          return true
        }
      }
      guard let toOne, n == 1 else { return false }
      let t = a.destination(at: first)
      return toOne._withUnsafeGuaranteedRef { col in
        let old = col.target(row)
        if old == t { return true }
        guard old == nil, inversesAreFree(a, first, 1, of: d) else { return false }
        col.setTarget(row, t)
        setInverse(t, to: d)
        return true
      }
    }
  }

  /// Whether setting the inverse of each target to `d` takes nothing back: a to-one inverse
  /// that is nil or already `d`. (A to-many inverse only gains `d`.)
  @inline(__always) private func inversesAreFree(_ a: Associations, _ first: Int, _ n: Int, of d: ObjectRef) -> Bool {
    guard let inverseOne else { return true }
    return inverseOne._withUnsafeGuaranteedRef { one in
      for k in first..<(first + n) {
        let previous = one.target(Int(a.destination(at: k).row))
        if previous != nil && previous != d { return false }
      }
      return true
    }
  }

  @inline(__always) private func setInverse(_ t: ObjectRef, to d: ObjectRef) {
    if let inverseOne {
      inverseOne._withUnsafeGuaranteedRef { $0.setTarget(Int(t.row), d) }
    } else if let inverseMany {
      inverseMany._withUnsafeGuaranteedRef { _ = $0.add(Int(t.row), d) }
    }
  }
}
