/// Two stores of one model compared by meaning, not bytes (`mapc test`, Specs/test-fixtures.md
/// §3): objects are matched by id (a JSON store's `id`, a SQLite store's `Entity/Z_PK`), entity
/// by entity; attributes are compared as values (doubles and dates exactly, strings by their
/// characters, Transformable values by what they hold); unordered to-many relationships as sets of
/// ids, ordered ones in order.
package enum GraphComparison {
  /// One way the store differs from the expected one.
  package struct Difference: Sendable, Equatable, CustomStringConvertible {
    package var entity: String
    /// The object's id; nil when the difference is about the whole entity.
    package var object: String?
    /// The property; nil when the object itself is missing or unexpected.
    package var property: String?
    package var expected: String
    package var got: String

    package var description: String {
      var place = entity
      if let object { place = object }
      if let property { place += "." + property }
      return "\(place): expected \(expected), got \(got)"
    }

    /// Object `id` of `entity` is in the expected store only.
    package static func missing(_ entity: String, _ id: String) -> Difference {
      Difference(entity: entity, object: id, property: nil, expected: "the object", got: "no such object")
    }

    /// Object `id` of `entity` is in the store only.
    package static func unexpected(_ entity: String, _ id: String) -> Difference {
      Difference(entity: entity, object: id, property: nil, expected: "no such object", got: "the object")
    }
  }

  /// The differences of `got` from `expected`, at most `limit` of them, in entity order (the
  /// model's), then in the expected store's object order; and whether there were more.
  /// (`StreamingComparison` finds the same ones for stores larger than memory.)
  package static func differences(expected: ObjectGraph, got: ObjectGraph, limit: Int = 20)
    -> (differences: [Difference], truncated: Bool)
  {
    var found = Collector(limit: limit)
    let expectedIDs = ObjectIDs(expected)
    let gotIDs = ObjectIDs(got)
    entities: for (e, table) in expected.tables.enumerated() {
      let name = table.layout.name
      guard let g = got.layout.entityIndex(name) else { continue }
      let other = got.tables[g]
      var rowsByID: [String: Int] = [:]
      for row in 0..<other.count { rowsByID[gotIDs.id(ObjectRef(entity: g, row: row))] = row }
      var matched = Set<Int>()
      for row in 0..<table.count {
        let id = expectedIDs.id(ObjectRef(entity: e, row: row))
        guard let otherRow = rowsByID[id] else {
          if !found.add(.missing(name, id)) { break entities }
          continue
        }
        matched.insert(otherRow)
        for (p, property) in table.layout.properties.enumerated() {
          guard let q = other.layout.propertyIndex(property.name) else { continue }
          let want = describe(table.value(row, p), in: expected, ids: expectedIDs, property)
          let have = describe(other.value(otherRow, q), in: got, ids: gotIDs, property)
          if want != have {
            if !found.add(Difference(entity: name, object: id, property: property.name, expected: want, got: have)) {
              break entities
            }
          }
        }
      }
      for row in 0..<other.count where !matched.contains(row) {
        if !found.add(.unexpected(name, gotIDs.id(ObjectRef(entity: g, row: row)))) { break entities }
      }
    }
    return (found.found, found.truncated)
  }

  /// The differences found so far, up to a limit.
  package struct Collector {
    package let limit: Int
    package private(set) var found: [Difference] = []
    /// Whether a difference came past the limit.
    package private(set) var truncated = false

    package init(limit: Int) { self.limit = limit }

    /// Adds `d`, or notes that there are more; false once the limit is reached (stop looking).
    package mutating func add(_ d: Difference) -> Bool {
      if found.count >= limit {
        truncated = true
        return false
      }
      found.append(d)
      return true
    }
  }

  /// The texts that stand for each property of the object at `row` of `table` (entity `e` of
  /// `graph`), in the layout's property order: what the comparison compares.
  package static func texts(of row: Int, _ e: Int, in graph: ObjectGraph, ids: ObjectIDs) -> [String] {
    let table = graph.tables[e]
    return table.layout.properties.enumerated().map { p, property in
      describe(table.value(row, p), in: graph, ids: ids, property)
    }
  }

  /// Every object's id, computed once per graph.
  package struct ObjectIDs {
    let graph: ObjectGraph

    package init(_ graph: ObjectGraph) { self.graph = graph }

    /// The id the store gave (JSON), else `Entity/number` with the store's number (SQLite's
    /// `Z_PK`), else `Entity/row+1`.
    package func id(_ ref: ObjectRef) -> String {
      let t = graph.tables[Int(ref.entity)]
      if let ids = t.ids, case .string(let text) = ids.get(Int(ref.row)) {
        return string(text, graph)
      }
      let key = t.objectKey(Int(ref.row))
      return "\(t.layout.name)/\(key > 0 ? key : Int64(ref.row) + 1)"
    }
  }

  /// A value as one canonical text, so that equal meanings give equal texts: the comparison
  /// and the message are the same thing.
  static func describe(_ value: Value, in graph: ObjectGraph, ids: ObjectIDs, _ property: PropertyLayout) -> String {
    if let r = property.relationship, r.isToMany, case .array(let members) = value {
      var list = members.map { describe($0, in: graph, ids: ids, property) }
      if !r.isOrdered { list.sort() }
      return (r.isOrdered ? "[" : "{") + list.joined(separator: ", ") + (r.isOrdered ? "]" : "}")
    }
    return describe(value, in: graph, ids: ids)
  }

  static func describe(_ value: Value, in graph: ObjectGraph, ids: ObjectIDs) -> String {
    switch value {
    case .null: return "nil"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(format17: d) : "\(d)"
    case .decimal(let s): return "decimal " + normalizedDecimal(s)
    case .string(let t): return quoted(string(t, graph))
    case .date(let d): return "date " + ((try? ISO8601DateCodec.string(d)) ?? "\(d)")
    case .data(let bytes): return "\(bytes.count) bytes " + Base64Codec.encode(bytes)
    case .transformable(let slice):
      guard let input = graph.input, let codec = graph.transformableCodec,
        let inner = try? codec.value(input, slice)
      else { return "a Transformable value that cannot be read" }
      return describe(inner, in: graph, ids: ids)
    case .sourceObject(let ref), .destinationObject(let ref): return ids.id(ref)
    case .array(let items): return "[" + items.map { describe($0, in: graph, ids: ids) }.joined(separator: ", ") + "]"
    case .dictionary(let members):
      return "{"
        + members.sorted { $0.0 < $1.0 }.map { quoted($0.0) + ": " + describe($0.1, in: graph, ids: ids) }
        .joined(separator: ", ") + "}"
    case .special: return "a special value"
    }
  }

  static func string(_ text: Text, _ graph: ObjectGraph) -> String {
    switch text {
    case .native(let s): return s
    case .slice(let s): return graph.input?.decodeString(s) ?? ""
    }
  }

  /// `"…"` with `"`, `\` and control characters escaped.
  package static func quoted(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if u.value < 0x20 || u.value == 0x7F {
          let hex = String(u.value, radix: 16, uppercase: true)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out + "\""
  }

  /// `12.50` → `12.5`, `+3` → `3`, `-0` → `0`: decimal texts that name the same number compare equal.
  static func normalizedDecimal(_ s: String) -> String {
    var text = Substring(s)
    var negative = false
    if text.hasPrefix("+") {
      text = text.dropFirst()
    } else if text.hasPrefix("-") {
      negative = true
      text = text.dropFirst()
    }
    var whole = Substring(text.prefix { $0 != "." })
    var fraction = text.dropFirst(whole.count + 1)
    while whole.hasPrefix("0") && whole.count > 1 { whole = whole.dropFirst() }
    while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
    let body = fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    return negative && body != "0" ? "-" + body : body
  }
}

extension String {
  /// An integral double as `17.0`.
  fileprivate init(format17 d: Double) { self = "\(Int64(d)).0" }
}
