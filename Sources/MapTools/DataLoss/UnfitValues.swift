import MapRuntime

extension StepAnalysis {
  /// The values of converted attributes that the destination type cannot hold as they are, and
  /// that a run would change without a word: a number with a fraction into an integer type
  /// (truncated), a number other than 0 and 1 into a Boolean, a double a float does not hold
  /// exactly, an integer beyond 2^53 into a double. One loss per attribute that has any, named
  /// as `--allow-drop` accepts it (`Entity.attribute`), with the destination type. Checked for
  /// the steps back of `mapc migrate` (`Specs/migrate.md` §3a), whose conversions undo widening
  /// ones; integers out of a type's range stop any run (`run-integer-range`), so they are not
  /// counted here.
  package func unfitValues(_ graph: ObjectGraph) -> [DataLoss] {
    var result: [DataLoss] = []
    for e in sourceEntities where !e.isAbstract {
      guard case .migrated = e.fate, let t = graph.layout.entityIndex(e.name) else { continue }
      let table = graph.tables[t]
      for p in e.properties {
        guard case .converted(let typeName) = p.fate, let type = AttributeType(rawValue: typeName),
          let column = table.layout.propertyIndex(p.name)
        else { continue }
        let n = (0..<table.realCount).reduce(0) { $0 + (Self.fits(table.value($1, column), type) ? 0 : 1) }
        if n > 0 {
          result.append(DataLoss(entity: e.name, property: p.name, isRelationship: false, count: n, unfit: typeName))
        }
      }
    }
    return result
  }

  /// `a` and `b`, `unfitValues` of two parts of one store, as `unfitValues` gives them for the
  /// store: one loss per attribute, its counts added, in the order of the analysis's entities
  /// and properties.
  package func addingUnfitValues(_ a: [DataLoss], _ b: [DataLoss]) -> [DataLoss] {
    guard !a.isEmpty else { return b }
    guard !b.isEmpty else { return a }
    var merged: [String: DataLoss] = [:]
    for loss in a + b {
      merged[
        loss.name,
        default: DataLoss(
          entity: loss.entity, property: loss.property, isRelationship: false, count: 0, unfit: loss.unfit)
      ].count += loss.count
    }
    return sourceEntities.flatMap { e in e.properties.compactMap { merged["\(e.name).\($0.name)"] } }
  }

  /// Whether `value` converts to `type` and back unchanged (see `unfitValues`).
  static func fits(_ value: Value, _ type: AttributeType) -> Bool {
    switch (value, type) {
    case (.double(let d), .integer16), (.double(let d), .integer32), (.double(let d), .integer64):
      return !d.isFinite || d == d.rounded(.towardZero)
    case (.decimal(let s), .integer16), (.decimal(let s), .integer32), (.decimal(let s), .integer64):
      guard let dot = s.firstIndex(of: ".") else { return true }
      return s[s.index(after: dot)...].prefix { $0.isNumber }.allSatisfy { $0 == "0" }
    case (.int(let v), .boolean): return v == 0 || v == 1
    case (.double(let d), .boolean): return d == 0 || d == 1
    case (.double(let d), .float): return !d.isFinite || Double(Float(d)) == d
    case (.int(let v), .float): return Int64(exactly: Float(v)) == v
    case (.int(let v), .double): return Int64(exactly: Double(v)) == v
    default: return true
    }
  }
}
