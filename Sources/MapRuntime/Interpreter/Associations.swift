/// Which destination instances an entity mapping made from which source instances
/// (Core Data's `associateSourceInstance:withDestinationInstance:forEntityMapping:`).
///
/// Instances are kept in creation order. Sizes matter (a fan-out mapping makes millions):
/// - destinations usually are consecutive rows of one entity (the mapping created them one
///   after another), kept as the first one and a count until an instance breaks the run;
/// - sources are kept as 4-byte source keys (the source object's global number);
/// - the instances made from one source object in one call are contiguous, so the
///   source-to-destination direction is a start and a count per source key of the mapping's
///   source entity (a key range); a source met again later, or outside the range, spills into
///   `extra`.
final class Associations {
  /// Packed destinations, once they are not a run of consecutive rows (else empty).
  @exclusivity(unchecked) private var destinations: [UInt64] = []
  /// The run of consecutive rows all destinations form while `destinations` is empty.
  @exclusivity(unchecked) private var runFirst: ObjectRef?
  @exclusivity(unchecked) private(set) var instanceCount = 0
  /// Source key of each instance, `noSource` for none.
  @exclusivity(unchecked) private var sourceKeys: [UInt32] = []
  @exclusivity(unchecked) private var wideSourceKeys: [Int: Int] = [:]
  @exclusivity(unchecked) private var start: [Int32]
  @exclusivity(unchecked) private var count: [UInt32]
  @exclusivity(unchecked) private var extra: [Int: [Int32]] = [:]
  /// Source keys `keyBase..<keyBase + start.count` have a start and count.
  private let keyBase: Int
  /// First source key of each source entity (to turn keys back into objects).
  private let sourceBase: [Int]

  private static let noSource = UInt32.max
  private static let wide = UInt32.max - 1

  /// `keys` is the range of source keys the mapping's source objects have (empty for none).
  init(keys: Range<Int>, sourceBase: [Int]) {
    keyBase = keys.lowerBound
    self.sourceBase = sourceBase
    start = Array(repeating: -1, count: keys.count)
    count = Array(repeating: 0, count: keys.count)
  }

  /// `sourceKey` is the source object's global number (nil for none).
  func add(source sourceRef: ObjectRef?, sourceKey: Int?, destination: ObjectRef) {
    let k = instanceCount
    addDestination(destination, at: k)
    instanceCount += 1
    guard let key = sourceKey else {
      sourceKeys.append(Self.noSource)
      return
    }
    addKey(key, first: k, count: 1)
  }

  /// What `count` calls of `add` do for consecutive destination rows from `first`, all made
  /// from one source object.
  func addRun(sourceKey key: Int, first: ObjectRef, count n: Int) {
    guard n > 0 else { return }
    let k = instanceCount
    if destinations.isEmpty,
      runFirst == nil || (first.entity == runFirst!.entity && Int(first.row) == Int(runFirst!.row) + k)
    {
      if runFirst == nil { runFirst = first }
    } else {
      for i in 0..<n { addDestination(ObjectRef(entity: Int(first.entity), row: Int(first.row) + i), at: k + i) }
    }
    instanceCount += n
    addKey(key, first: k, count: n)
  }

  /// Records that instances `first..<first + n` were made from source key `key`.
  @inline(__always) private func addKey(_ key: Int, first k: Int, count n: Int) {
    if key < Int(Self.wide) {
      if n == 1 {
        sourceKeys.append(UInt32(key))
      } else {
        sourceKeys.append(contentsOf: repeatElement(UInt32(key), count: n))
      }
    } else {
      for i in k..<(k + n) {
        sourceKeys.append(Self.wide)
        wideSourceKeys[i] = key
      }
    }
    let slot = key - keyBase
    guard slot >= 0, slot < start.count else {
      extra[key, default: []].append(contentsOf: (k..<(k + n)).map { Int32($0) })
      return
    }
    if start[slot] < 0 {
      start[slot] = Int32(k)
      count[slot] = UInt32(n)
    } else if Int(start[slot]) + Int(count[slot]) == k && extra[key] == nil {
      count[slot] += UInt32(n)
    } else {
      extra[key, default: []].append(contentsOf: (k..<(k + n)).map { Int32($0) })
    }
  }

  @inline(__always) private func addDestination(_ d: ObjectRef, at k: Int) {
    if destinations.isEmpty {
      guard let first = runFirst else {
        runFirst = d
        return
      }
      if d.entity == first.entity && Int(d.row) == Int(first.row) + k { return }
      // The run ends: write it out.
      destinations.reserveCapacity(k * 2)
      for i in 0..<k { destinations.append(ObjectRef(entity: Int(first.entity), row: Int(first.row) + i).packed) }
    }
    destinations.append(d.packed)
  }

  func destination(at k: Int) -> ObjectRef {
    if destinations.isEmpty, let first = runFirst {
      return ObjectRef(entity: Int(first.entity), row: Int(first.row) + k)
    }
    return ObjectRef(packed: destinations[k])
  }

  /// The source key instance `k` was made from (nil for none).
  @inline(__always) func sourceKey(at k: Int) -> Int? {
    let raw = sourceKeys[k]
    if raw == Self.noSource { return nil }
    return raw == Self.wide ? wideSourceKeys[k]! : Int(raw)
  }

  func source(at k: Int) -> ObjectRef? {
    guard let key = sourceKey(at: k) else { return nil }
    var e = sourceBase.count - 1
    while e > 0 && sourceBase[e] > key { e -= 1 }
    // Entities without objects share their base with the next one: take the last such.
    return ObjectRef(entity: e, row: key - sourceBase[e])
  }

  /// The instances made from a source key, in creation order.
  func destinations(forSourceKey key: Int) -> [ObjectRef] {
    var result: [ObjectRef] = []
    forEachDestination(forSourceKey: key) { result.append($0) }
    return result
  }

  /// Calls `body` for each instance made from a source key, without building an array.
  func forEachDestination(forSourceKey key: Int, _ body: (ObjectRef) -> Void) {
    let slot = key - keyBase
    if slot >= 0, slot < start.count, start[slot] >= 0 {
      let s = Int(start[slot])
      for k in s..<(s + Int(count[slot])) { body(destination(at: k)) }
    }
    if let more = extra[key] {
      for k in more { body(destination(at: Int(k))) }
    }
  }

  /// The instances made from a source key as one run of instance numbers (first, count), or
  /// nil when some are elsewhere (`extra`).
  @inline(__always) func run(forSourceKey key: Int) -> (Int, Int)? {
    if !extra.isEmpty, extra[key] != nil { return nil }
    let slot = key - keyBase
    guard slot >= 0, slot < start.count, start[slot] >= 0 else { return (0, 0) }
    return (Int(start[slot]), Int(count[slot]))
  }

  /// How many instances were made from a source key.
  func destinationCount(forSourceKey key: Int) -> Int {
    let slot = key - keyBase
    var n = 0
    if slot >= 0, slot < start.count, start[slot] >= 0 { n = Int(count[slot]) }
    if let more = extra[key] { n += more.count }
    return n
  }
}
