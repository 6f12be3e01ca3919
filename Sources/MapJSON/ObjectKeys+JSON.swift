import MapRuntime

/// Object numbers (`ObjectKeys.swift`) in a JSON store: an object's id is `<Entity>/<number>`,
/// and the metadata key `mapcObjectKeyMax` holds each root entity's highest number ever given
/// (a Core Data store's `Z_MAX`). A store read from Core Data SQLite and exported therefore
/// names every object by its `Z_PK`, and importing it gives every row its `Z_PK` back.
enum ObjectKeysJSON {
  static let metadataKey = "mapcObjectKeyMax"

  /// Each table's numbers for its ids, or nil where the table's objects are numbered by row:
  /// a table whose objects all have distinct numbers uses them.
  static func idNumbers(_ graph: ObjectGraph) -> [[Int64]?] {
    graph.resolveObjectKeys()
    return graph.tables.map { t in
      guard t.count > 0, t.objectKeys.count >= t.count else { return nil }
      var seen = Set<Int64>(minimumCapacity: t.count)
      for row in 0..<t.count {
        let k = t.objectKeys[row]
        guard k > 0, seen.insert(k).inserted else { return nil }
      }
      return Array(t.objectKeys[0..<t.count])
    }
  }

  /// Reads the numbers back from ids of the form `<Entity>/<digits>` (no sign, no leading zero,
  /// below 2^63), where every id of a table has that form; other tables keep none.
  static func readNumbers(_ graph: ObjectGraph) {
    for t in graph.tables where t.count > 0 {
      guard let ids = t.ids else { continue }
      let prefix = Array((t.layout.name + "/").utf8)
      var keys: [Int64] = []
      keys.reserveCapacity(t.count)
      for row in 0..<t.count {
        guard case .string(let text) = ids.get(row) else { break }
        let number: Int64? =
          switch text {
          case .native(let s): parse(Array(s.utf8), prefix)
          case .slice(let s):
            s.hasEscapes
              ? parse(Array((graph.input?.decodeString(s) ?? "").utf8), prefix)
              : graph.input.flatMap { input in parse(input.buffer(s), prefix) }
          }
        guard let number else { break }
        keys.append(number)
      }
      if keys.count == t.count { t.objectKeys = keys }
    }
  }

  /// The number in `id` when it is `<entity>/<digits>` (as `readNumbers` takes it), else nil.
  static func number(_ id: [UInt8], entity: String) -> Int64? { parse(id, Array((entity + "/").utf8)) }

  private static func parse<C: Collection>(_ bytes: C, _ prefix: [UInt8]) -> Int64? where C.Element == UInt8 {
    guard bytes.count > prefix.count, bytes.count <= prefix.count + 19, bytes.starts(with: prefix) else { return nil }
    let digits = bytes.dropFirst(prefix.count)
    guard digits.first != UInt8(ascii: "0") else { return nil }
    var n: Int64 = 0
    for d in digits {
      guard d >= 0x30, d <= 0x39 else { return nil }
      let (m, o1) = n.multipliedReportingOverflow(by: 10)
      let (a, o2) = m.addingReportingOverflow(Int64(d - 0x30))
      guard !o1, !o2 else { return nil }
      n = a
    }
    return n
  }

  /// The metadata value of the graph's highest numbers, or nil when it has none.
  static func metadataValue(_ keyHighWater: [String: Int64], _ layout: StoreLayout) -> MetadataValue? {
    let entries = keyHighWater.filter { layout.entityIndex($0.key) != nil && $0.value > 0 }
    guard !entries.isEmpty else { return nil }
    return .object(entries.sorted { $0.key < $1.key }.map { .init($0.key, .int($0.value)) })
  }
}

extension StoreReader {
  /// Takes the `mapcObjectKeyMax` metadata key out of the keys carried over, into the graph:
  /// entity name → highest number, positive integers only (anything else is ignored).
  mutating func takeKeyHighWater() {
    guard let k = metadata.extra.firstIndex(where: { $0.key == ObjectKeysJSON.metadataKey }) else { return }
    guard case .object(let fields) = metadata.extra.remove(at: k).value else { return }
    for f in fields {
      if case .int(let n) = f.value, n > 0 { graph.keyHighWater[f.key] = n }
    }
  }
}
