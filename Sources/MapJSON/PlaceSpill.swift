import MapRuntime

/// The places `MemberPlaces` keeps, on disk, for a store with more of them than its capacity
/// in memory. The first pass keeps two lists, each in sorted runs (`SortedRuns`):
/// - **entries**: what an owner's list says of a member out of the owner's chunk (its index,
///   and for a relationship without an inverse its owner), by key;
/// - **requests**: the keys each chunk will look up in the second pass (the members of its
///   stubs' ordered lists, and every object that may be the member of a to-many without an
///   inverse), with the chunk (its window's first byte, the same in both passes).
///
/// `join` merges the two by key into **places** sorted by chunk, so the second pass reads
/// them in order, each chunk's before it places its members (`take`). Every list is read in
/// order, never searched: memory is a third of the capacity per list, with its read buffers.
final class PlaceSpill {
  /// One entry, request or place: the key (two keyed hashes), the chunk (requests and places),
  /// the order in which entries were kept, and what an entry says: an index (`entity` -1), or
  /// an owner's entity, number and the member's index.
  struct Record {
    var a: UInt64
    var b: UInt64
    var window: Int64
    var sequence: Int64
    var number: Int64
    var entity: Int32
    var index: Int32
  }

  static let bytesPerRecord = MemoryLayout<Record>.stride

  /// By key, then the order in which entries were kept.
  enum ByKey: RunOrder {
    static func precedes(_ x: Record, _ y: Record) -> Bool {
      (x.a, x.b, x.sequence) < (y.a, y.b, y.sequence)
    }
  }

  /// By chunk, then key and order.
  enum ByWindow: RunOrder {
    static func precedes(_ x: Record, _ y: Record) -> Bool {
      (x.window, x.a, x.b, x.sequence) < (y.window, y.a, y.b, y.sequence)
    }
  }

  static let maxRuns = 4096
  private var entries: SortedRuns<ByKey>?
  private var requests: SortedRuns<ByKey>?
  private let places: SortedRuns<ByWindow>
  private var cursor: SortedRuns<ByWindow>.Cursor?
  /// The next place the second pass has not taken.
  private var pending: Record?
  /// Entries kept so far, the next one's `sequence`.
  private var sequence: Int64 = 0

  /// `capacity` bytes in all, a third per list.
  init(capacity: Int, folder: String) {
    let each = capacity / 3 / Self.bytesPerRecord
    entries = SortedRuns(capacity: each, maxRuns: Self.maxRuns, folder: folder, name: "places-entries")
    requests = SortedRuns(capacity: each, maxRuns: Self.maxRuns, folder: folder, name: "places-requests")
    places = SortedRuns(capacity: each, maxRuns: Self.maxRuns, folder: folder, name: "places")
  }

  /// The records the lists may hold before they need more than `maxRuns` runs.
  var most: Int { places.capacity * Self.maxRuns }

  /// The entries kept (known after `join`): an index once per key, an owner once per owner of a
  /// key, two at most. Those of a key no chunk looks up are never placed, so that the reader's
  /// check refuses the run, as it does in memory.
  private(set) var kept = 0

  /// Keeps an entry: an index (`owner` nil) or an owner. False when the list is full.
  func keep(_ a: UInt64, _ b: UInt64, index: Int32, owner: (entity: Int32, number: Int64)?) throws(StoreIOError)
    -> Bool
  {
    sequence += 1
    let r = Record(
      a: a, b: b, window: 0, sequence: sequence, number: owner?.number ?? 0, entity: owner?.entity ?? -1, index: index)
    return try entries!.append(r)
  }

  /// Keeps a key that the chunk at `window` will look up. False when the list is full.
  func request(_ a: UInt64, _ b: UInt64, window: Int) throws(StoreIOError) -> Bool {
    try requests!.append(Record(a: a, b: b, window: Int64(window), sequence: 0, number: 0, entity: 0, index: 0))
  }

  /// Joins the entries and the requests by key into the places, by chunk (every entry of a key
  /// for each request of it); the two lists are then let go. False when the places are full.
  func join() throws(StoreIOError) -> Bool {
    guard let entries, let requests else { return true }
    defer {
      self.entries = nil
      self.requests = nil
    }
    let e = entries.sorted()
    let r = requests.sorted()
    var entry = try e.next()
    var request = try r.next()
    var same: [Record] = []
    while let first = entry {
      // A key's entries, as many as the second pass needs: of an index, the last kept (as in
      // memory, where a later one replaces it); of an owner, each owner once (its last, as in
      // memory: the same owner again adds no link, its index replaces the one before) and two
      // at most (a member with two owners is refused by the writer). So a store that lists one
      // member over and over takes no more memory here; `kept` counts what is kept, as the
      // second pass will count what it places.
      same.removeAll(keepingCapacity: true)
      while let n = entry, (n.a, n.b) == (first.a, first.b) {
        if n.entity < 0 {
          same = [n]
        } else if let i = same.firstIndex(where: { $0.entity == n.entity && $0.number == n.number }) {
          same[i] = n  // (its later index, as in memory)
        } else if same.count < 2 {
          same.append(n)
        }
        entry = try e.next()
      }
      kept += same.count
      // Every request of the key gets them: a key no chunk asks for is kept and never placed.
      while let q = request, (q.a, q.b) < (first.a, first.b) { request = try r.next() }
      while let q = request, (q.a, q.b) == (first.a, first.b) {
        for var place in same {
          place.window = q.window
          guard try places.append(place) else { return false }
        }
        request = try r.next()
      }
    }
    cursor = places.sorted()
    pending = try cursor!.next()
    return true
  }

  /// The places of the chunk at `window`, in key order (a key's entries in the order kept);
  /// the chunks come in order.
  func take(window: Int) throws(StoreIOError) -> [Record] {
    var result: [Record] = []
    while let p = pending, p.window <= Int64(window) {
      if p.window == Int64(window) { result.append(p) }
      pending = try cursor!.next()
    }
    return result
  }
}
