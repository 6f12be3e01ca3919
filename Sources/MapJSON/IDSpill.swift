import MapRuntime

/// The ids of a store read a chunk at a time (`ChunkReader`), as 64-bit hash and file offset:
/// in memory up to `capacity` of them, beyond that in sorted runs on disk (`SortedRuns`),
/// merged at the end. Memory stays within `capacity` entries and a read buffer per run; at most
/// `maxRuns` runs (`Specs/limits.md` "Memory").
///
/// Besides the objects' ids, the spill takes the ids that links out of a chunk name
/// (`ChunkLinks.outside`), their offsets marked with `referenceFlag`, so that one merge finds
/// both the ids used twice and the ids named that no object has.
final class IDSpill {
  typealias Entry = (hash: UInt64, offset: Int)
  static let maxRuns = 4096
  /// Marks an entry as an id a link names (at that offset), not an object's.
  static let referenceFlag = 1 << 62

  private struct Record {
    var hash: UInt64
    var offset: Int
  }

  /// By hash, then offset.
  private enum ByHash: RunOrder {
    static func precedes(_ a: Record, _ b: Record) -> Bool {
      a.hash != b.hash ? a.hash < b.hash : a.offset < b.offset
    }
  }

  private let runs: SortedRuns<ByHash>
  var count: Int { runs.count }

  init(capacity: Int, folder: String, expected: Int) {
    runs = SortedRuns(capacity: capacity, maxRuns: Self.maxRuns, folder: folder, name: "ids", expected: expected)
  }

  /// Adds an id; false when the ids would need more runs than `maxRuns`.
  func append(_ e: Entry) throws(StoreIOError) -> Bool {
    try runs.append(Record(hash: e.hash, offset: e.offset))
  }

  /// Calls `group` with each set of two or more ids of equal hash (with `singles`, of one or
  /// more), in hash order, each set in offset order, until it returns false.
  func equalHashes(singles: Bool = false, _ group: ([Entry]) -> Bool) throws(StoreIOError) {
    let least = singles ? 1 : 2
    let cursor = runs.sorted()
    var same: [Entry] = []
    while let r = try cursor.next() {
      if let first = same.first, first.hash != r.hash {
        if same.count >= least && !group(same) { return }
        same.removeAll(keepingCapacity: true)
      }
      same.append((r.hash, r.offset))
    }
    if same.count >= least { _ = group(same) }
  }
}
