import Foundation

extension MigrationManager {
  /// Validates every destination object against the destination model, as Core Data does before
  /// its final save: mandatory values, numeric and date bounds, string lengths and patterns,
  /// relationship counts. Objects are reported by mapping, with the source they came from.
  func validateDestination() {
    let graph = destination
    var covered = graph.tables.map { Array(repeating: false, count: $0.count) }
    var done = 0
    let total = graph.objectCount
    for (i, m) in plan.entityMappings.enumerated() {
      currentMappingIndex = i
      let a = associations[i]
      for k in 0..<a.instanceCount {
        let d = a.destination(at: k)
        guard !covered[Int(d.entity)][Int(d.row)] else { continue }
        covered[Int(d.entity)][Int(d.row)] = true
        validate(d, origin: a.source(at: k), mapping: m)
        if truncated { return }
        done += 1
        if done & 0xFFFF == 0 { progress?(.validate, done, total) }
      }
    }
    for (e, t) in graph.tables.enumerated() {
      for row in 0..<t.count where !covered[e][row] {
        validate(ObjectRef(entity: e, row: row), origin: nil, mapping: nil)
        if truncated { return }
      }
    }
  }

  private func validate(_ ref: ObjectRef, origin: ObjectRef?, mapping: EntityMapping?) {
    let t = destination.table(ref)
    let row = Int(ref.row)
    let lm = mapping.flatMap { m in linked.first { $0.mapping.name == m.name } }
    for (c, p) in t.layout.properties.enumerated() {
      let problem: (String, String)?
      switch p.kind {
      case .attribute(let a):
        problem = check(a, t.columns[c], row)
      case .relationship(let r):
        problem = check(r, t.columns[c], row)
      }
      guard let (code, message) = problem else { continue }
      let who: String
      if let mapping {
        who = objectDescription(ref, origin: origin, mapping: mapping)
      } else {
        who = destinationID(ref)
      }
      let location =
        lm?.attributes.first { $0.name == p.name }?.location
        ?? lm?.relationships.first { $0.name == p.name }?.location
        ?? mapping?.location
      appendError(
        MigrationError(
          code, "\(t.layout.name).\(p.name) of \(who): \(message)", at: location,
          file: plan.mappingPath))
      if truncated { return }
    }
  }

  private func check(_ a: AttributeDescription, _ column: Column, _ row: Int) -> (String, String)? {
    let v = column.get(row)
    if case .null = v {
      if a.isOptional { return nil }
      return ("run-validation-mandatory", "\(a.name) is a mandatory attribute but is nil (Core Data error 1570)")
    }
    switch v {
    case .int(let n):
      if case .integer(let lo) = a.minValue, n < lo {
        return ("run-validation-range", "\(n) is less than the minimum \(lo) (Core Data error 1620)")
      }
      if case .integer(let hi) = a.maxValue, n > hi {
        return ("run-validation-range", "\(n) is greater than the maximum \(hi) (Core Data error 1610)")
      }
    case .double(let d):
      if let lo = a.minValue.flatMap(Self.number), d < lo {
        return ("run-validation-range", "\(d) is less than the minimum \(lo) (Core Data error 1620)")
      }
      if let hi = a.maxValue.flatMap(Self.number), d > hi {
        return ("run-validation-range", "\(d) is greater than the maximum \(hi) (Core Data error 1610)")
      }
    case .date(let t):
      if case .date(let lo) = a.minValue, t < lo {
        return ("run-validation-range", "\(ISO8601.format(t)) is earlier than the minimum \(ISO8601.format(lo)) (Core Data error 1630)")
      }
      if case .date(let hi) = a.maxValue, t > hi {
        return ("run-validation-range", "\(ISO8601.format(t)) is later than the maximum \(ISO8601.format(hi)) (Core Data error 1640)")
      }
    case .string(let text):
      let length = utf16Length(text)
      if case .integer(let lo) = a.minValue, length < lo {
        return ("run-validation-length", "the string is \(length) characters long, shorter than the minimum \(lo) (Core Data error 1670)")
      }
      if case .integer(let hi) = a.maxValue, length > hi {
        return ("run-validation-length", "the string is \(length) characters long, longer than the maximum \(hi) (Core Data error 1660)")
      }
      if let pattern = a.regularExpression, !pattern.isEmpty {
        let s = string(text)
        if !RegexCache.shared.matches(pattern, s) {
          return ("run-validation-pattern", "\"\(s)\" does not match the pattern \(pattern) (Core Data error 1680)")
        }
      }
    default:
      break
    }
    return nil
  }

  private static func number(_ c: ModelConstant) -> Double? {
    switch c {
    case .integer(let i): Double(i)
    case .double(let d): d
    case .decimal(let s): Double(s)
    default: nil
    }
  }

  private func check(_ r: RelationshipDescription, _ column: Column, _ row: Int) -> (String, String)? {
    if r.isToMany {
      let n = (column as! ToManyColumn).values[row].count
      if n == 0 && !r.isOptional {
        return ("run-validation-mandatory", "\(r.name) is a mandatory relationship but is empty (Core Data error 1570)")
      }
      if n > 0 && r.minCount > 0 && n < r.minCount {
        return ("run-validation-count", "\(r.name) has \(n) objects, fewer than the minimum \(r.minCount) (Core Data error 1580)")
      }
      if r.maxCount > 0 && n > r.maxCount {
        return ("run-validation-count", "\(r.name) has \(n) objects, more than the maximum \(r.maxCount) (Core Data error 1590)")
      }
    } else if column.isNull(row) && !r.isOptional {
      return ("run-validation-mandatory", "\(r.name) is a mandatory relationship but is nil (Core Data error 1570)")
    }
    return nil
  }

  /// UTF-16 length, as NSString's `length` counts.
  func utf16Length(_ t: Text) -> Int {
    switch t {
    case .native(let s): return s.utf16.count
    case .slice(let s):
      if s.hasEscapes { return string(t).utf16.count }
      guard let input = source.input else { return 0 }
      var n = 0
      for b in input.buffer(s) {
        if b & 0xC0 != 0x80 { n += 1 }
        if b >= 0xF0 { n += 1 }
      }
      return n
    }
  }
}

/// Compiled validation patterns (NSPredicate MATCHES semantics: the whole string must match).
final class RegexCache: @unchecked Sendable {
  static let shared = RegexCache()
  private let lock = NSLock()
  private var cache: [String: NSRegularExpression?] = [:]

  func matches(_ pattern: String, _ s: String) -> Bool {
    lock.lock()
    let regex: NSRegularExpression?
    if let r = cache[pattern] {
      regex = r
    } else {
      regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: [])
      cache[pattern] = regex
    }
    lock.unlock()
    guard let regex else { return false }
    let range = NSRange(s.startIndex..<s.endIndex, in: s)
    return regex.firstMatch(in: s, options: [], range: range) != nil
  }
}
