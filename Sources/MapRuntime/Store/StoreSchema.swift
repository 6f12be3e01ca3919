/// The schema of a store beyond its entity version hashes, one line per element (Core Data
/// SQLite: `type name ON table: SQL` for each table, index and trigger), sorted.
public struct StoreSchema: Sendable, Hashable {
  public var lines: [String]

  public init(lines: [String]) { self.lines = lines }

  /// The lines only in `expected` (`- line`), then those only in this schema (`+ line`).
  public func differences(from expected: StoreSchema) -> [String] {
    let (e, g) = (Set(expected.lines), Set(lines))
    let missing = expected.lines.filter { !g.contains($0) }.map { "- " + $0 }
    return missing + lines.filter { !e.contains($0) }.map { "+ " + $0 }
  }
}
