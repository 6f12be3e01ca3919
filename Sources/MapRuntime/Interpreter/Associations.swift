/// Which destination instances an entity mapping made from which source instances
/// (Core Data's `associateSourceInstance:withDestinationInstance:forEntityMapping:`).
///
/// Instances are kept in creation order. The instances made from one source object in one
/// call are contiguous, so the source-to-destination direction is a start and a count per
/// source object; a source met again later spills into `extra`.
final class Associations: @unchecked Sendable {
  @exclusivity(unchecked) private(set) var destinations: [UInt64] = []
  @exclusivity(unchecked) private(set) var sources: [UInt64] = []
  @exclusivity(unchecked) private var start: [Int32]
  @exclusivity(unchecked) private var count: [UInt32]
  @exclusivity(unchecked) private var extra: [Int: [Int32]] = [:]

  init(sourceObjectCount: Int) {
    start = []
    count = []
    if sourceObjectCount > 0 {
      start = Array(repeating: -1, count: sourceObjectCount)
      count = Array(repeating: 0, count: sourceObjectCount)
    }
  }

  var instanceCount: Int { destinations.count }

  /// `sourceKey` is the source object's global number (nil for none).
  func add(source sourceRef: ObjectRef?, sourceKey: Int?, destination: ObjectRef) {
    let k = Int32(destinations.count)
    destinations.append(destination.packed)
    sources.append(sourceRef?.packed ?? 0)
    guard let key = sourceKey, key < start.count else { return }
    if start[key] < 0 {
      start[key] = k
      count[key] = 1
    } else if Int(start[key]) + Int(count[key]) == Int(k) && extra[key] == nil {
      count[key] += 1
    } else {
      extra[key, default: []].append(k)
    }
  }

  func destinations(forSourceKey key: Int) -> [ObjectRef] {
    guard key < start.count, start[key] >= 0 else { return [] }
    var result: [ObjectRef] = []
    let s = Int(start[key])
    for k in s..<(s + Int(count[key])) { result.append(ObjectRef(packed: destinations[k])) }
    if let more = extra[key] {
      for k in more { result.append(ObjectRef(packed: destinations[Int(k)])) }
    }
    return result
  }

  /// Appends without building an array when there is exactly one destination (the common case).
  func forEachDestination(forSourceKey key: Int, _ body: (ObjectRef) -> Void) {
    guard key < start.count, start[key] >= 0 else { return }
    let s = Int(start[key])
    for k in s..<(s + Int(count[key])) { body(ObjectRef(packed: destinations[k])) }
    if let more = extra[key] {
      for k in more { body(ObjectRef(packed: destinations[Int(k)])) }
    }
  }

  /// How many instances were made from a source object.
  func destinationCount(forSourceKey key: Int) -> Int {
    guard key < start.count, start[key] >= 0 else { return 0 }
    return Int(count[key]) + (extra[key]?.count ?? 0)
  }

  func destination(at k: Int) -> ObjectRef { ObjectRef(packed: destinations[k]) }

  func source(at k: Int) -> ObjectRef? {
    let p = sources[k]
    return p == 0 ? nil : ObjectRef(packed: p)
  }
}
