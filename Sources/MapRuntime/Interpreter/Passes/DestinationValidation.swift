import Foundation

/// Pass 3: the destination graph checked against its model, as Core Data validates before its
/// final save; failures become the run's errors. Owns no state.
struct DestinationValidation {
  let run: MigrationContext

  @inline(__always) init(_ run: MigrationContext) { self.run = run }

  /// One failed check: which object, which property (column), and what.
  struct ValidationFailure {
    var ref: ObjectRef
    var column: Int
    var code: String
    var message: String
  }

  /// Validates every destination object but stubs (`EntityTable.stubsFrom`) against the
  /// destination model, as Core Data does before its final save: mandatory values, numeric and date bounds, string lengths and patterns,
  /// relationship counts. Checks run column by column; failures are reported by mapping and
  /// object, naming the source each object came from.
  func validate(progress: (@Sendable (MigrationPass, Int, Int) -> Void)?) {
    var failures: [ValidationFailure] = []
    let limit = run.options.maxErrors - run.log.errors.count
    let total = run.destination.objectCount
    var done = 0
    progress?(.validate, 0, total)
    outer: for table in run.destination.tables {
      let columns = table.layout.properties.count
      for (c, p) in table.layout.properties.enumerated() {
        switch p.kind {
        case .attribute(let a): checkColumn(a, table, c, &failures, limit)
        case .relationship(let r): checkColumn(r, table, c, &failures, limit)
        }
        if failures.count >= limit { break outer }
        // Checks run column by column: a table's objects count as done in step with its columns.
        progress?(.validate, done + table.count * (c + 1) / columns, total)
      }
      done += table.count
      progress?(.validate, done, total)
    }
    progress?(.validate, total, total)
    guard !failures.isEmpty else { return }
    report(failures)
  }

  /// Turns failures into errors ordered by mapping, then creation order, then property.
  private func report(_ failures: [ValidationFailure]) {
    var origin: [UInt64: (mapping: Int, instance: Int)] = [:]
    let wanted = Set(failures.map { $0.ref.packed })
    for (i, a) in run.associations.enumerated() {
      for k in 0..<a.instanceCount {
        let d = a.destination(at: k).packed
        if wanted.contains(d) && origin[d] == nil { origin[d] = (i, k) }
      }
    }
    let sorted = failures.sorted { x, y in
      let ox = origin[x.ref.packed].map { ($0.mapping, $0.instance) } ?? (Int.max, Int(x.ref.row))
      let oy = origin[y.ref.packed].map { ($0.mapping, $0.instance) } ?? (Int.max, Int(y.ref.row))
      if ox != oy { return ox < oy }
      if x.ref.entity != y.ref.entity { return x.ref.entity < y.ref.entity }
      return x.column < y.column
    }
    for f in sorted {
      let table = run.destination.table(f.ref)
      let name = table.layout.properties[f.column].name
      var who = run.destinationID(f.ref)
      var location: SourceLocation? = nil
      if let o = origin[f.ref.packed] {
        let lm = run.linked[o.mapping]
        who = run.objectDescription(
          f.ref, origin: run.associations[o.mapping].source(at: o.instance), mapping: lm.mapping)
        location = lm.location(ofProperty: name)
      }
      run.appendError(
        MigrationError(
          f.code, "\(who): \(table.layout.name).\(name) \(f.message)", at: location, file: run.plan.mappingPath))
    }
  }

  private func checkColumn(
    _ a: AttributeDescription, _ table: EntityTable, _ c: Int, _ failures: inout [ValidationFailure], _ limit: Int
  ) {
    let column = table.columns[c]
    let e = table.layout.index
    func fail(_ row: Int, _ code: String, _ message: String) {
      failures.append(ValidationFailure(ref: ObjectRef(entity: e, row: row), column: c, code: code, message: message))
    }
    if !a.isOptional {
      for row in column.nullRows(below: table.realCount, limit: limit - failures.count) {
        fail(row, "run-validation-mandatory", "is mandatory but nil (Core Data error 1570)")
      }
      if failures.count >= limit { return }
    }
    switch column {
    case let ints as IntColumn:
      let lo: Int64? = if case .integer(let v) = a.minValue { v } else { nil }
      let hi: Int64? = if case .integer(let v) = a.maxValue { v } else { nil }
      guard lo != nil || hi != nil else { return }
      for row in 0..<table.realCount where ints.present[row] {
        let n = ints.values[row]
        if let lo, n < lo {
          fail(row, "run-validation-range", "is \(n), less than the minimum \(lo) (Core Data error 1620)")
        } else if let hi, n > hi {
          fail(row, "run-validation-range", "is \(n), greater than the maximum \(hi) (Core Data error 1610)")
        }
        if failures.count >= limit { return }
      }
    case let doubles as DoubleColumn:
      let lo = a.minValue.flatMap(Self.boundValue)
      let hi = a.maxValue.flatMap(Self.boundValue)
      guard lo != nil || hi != nil else { return }
      for row in 0..<table.realCount where doubles.present[row] {
        let v = doubles.values[row]
        let shown = doubles.isDate ? ISO8601.format(v) : "\(v)"
        if let lo, v < lo {
          let bound = doubles.isDate ? ISO8601.format(lo) : "\(lo)"
          fail(
            row, "run-validation-range",
            "is \(shown), \(doubles.isDate ? "earlier" : "less") than the minimum \(bound) (Core Data error \(doubles.isDate ? 1630 : 1620))"
          )
        } else if let hi, v > hi {
          let bound = doubles.isDate ? ISO8601.format(hi) : "\(hi)"
          fail(
            row, "run-validation-range",
            "is \(shown), \(doubles.isDate ? "later" : "greater") than the maximum \(bound) (Core Data error \(doubles.isDate ? 1640 : 1610))"
          )
        }
        if failures.count >= limit { return }
      }
    case let texts as TextColumn:
      let lo: Int? = if case .integer(let v) = a.minValue { Int(v) } else { nil }
      let hi: Int? = if case .integer(let v) = a.maxValue { Int(v) } else { nil }
      let pattern = a.regularExpression.flatMap { $0.isEmpty ? nil : $0 }
      guard lo != nil || hi != nil || pattern != nil else { return }
      for row in 0..<table.realCount where texts.values[row] != 0 {
        let text = texts.text(texts.values[row])
        if lo != nil || hi != nil {
          let length = run.utf16Length(text, atLeast: lo, atMost: hi)
          if let lo, length < lo {
            fail(
              row, "run-validation-length",
              "is \(length) characters long, shorter than the minimum \(lo) (Core Data error 1670)")
          } else if let hi, length > hi {
            fail(
              row, "run-validation-length",
              "is \(length) characters long, longer than the maximum \(hi) (Core Data error 1660)")
          }
        }
        if let pattern {
          let s = run.string(text)
          do {
            if try !RegexCache.shared.match(pattern, s) {
              fail(
                row, "run-validation-pattern", "\"\(s)\" does not match the pattern \(pattern) (Core Data error 1680)")
            }
          } catch {
            // A pattern that runs out of time (or is invalid) is said so, not "does not match".
            fail(row, error.code, error.message)
          }
        }
        if failures.count >= limit { return }
      }
    default:
      break
    }
  }

  private static func boundValue(_ c: ModelConstant) -> Double? {
    switch c {
    case .integer(let i): Double(i)
    case .double(let d): d
    case .decimal(let s): Double(s)
    case .date(let t): t
    default: nil
    }
  }

  private func checkColumn(
    _ r: RelationshipDescription, _ table: EntityTable, _ c: Int, _ failures: inout [ValidationFailure], _ limit: Int
  ) {
    let e = table.layout.index
    func fail(_ row: Int, _ code: String, _ message: String) {
      failures.append(ValidationFailure(ref: ObjectRef(entity: e, row: row), column: c, code: code, message: message))
    }
    if let many = table.columns[c] as? ToManyColumn {
      // As Core Data: a mandatory to-many with a minimum count of 0 accepts an empty set; an
      // optional one accepts an empty set whatever its minimum.
      guard r.minCount > 0 || r.maxCount > 0 else { return }
      for row in 0..<table.realCount {
        let n = many.count(row)
        if n == 0 && !r.isOptional && r.minCount > 0 {
          fail(row, "run-validation-mandatory", "is a mandatory relationship but is empty (Core Data error 1570)")
        } else if n > 0 && r.minCount > 0 && n < r.minCount {
          fail(
            row, "run-validation-count", "has \(n) objects, fewer than the minimum \(r.minCount) (Core Data error 1580)"
          )
        } else if r.maxCount > 0 && n > r.maxCount {
          fail(
            row, "run-validation-count", "has \(n) objects, more than the maximum \(r.maxCount) (Core Data error 1590)")
        }
        if failures.count >= limit { return }
      }
    } else if !r.isOptional, let one = table.columns[c] as? ToOneColumn {
      for row in one.nullRows(below: table.realCount, limit: limit - failures.count) {
        fail(row, "run-validation-mandatory", "is a mandatory relationship but is nil (Core Data error 1570)")
      }
    }
  }
}
