/// What a store is expected to take in memory read whole: its file's bytes and, where its
/// format can tell at little cost, at most how many objects it holds (`StoreFormat
/// .objectCountBound`). Each object takes memory beyond its bytes (its row in every column, its
/// id, the destination object a run makes of it): a Core Data SQLite store of 2,000,000 small
/// objects in 116 MB took 648 MB to migrate in memory, three times what its bytes say.
package struct StoreFootprint: Sendable {
  package var bytes: Int
  package var objects: Int
  /// What each object counts (`StoreFormat.memoryPerObject`).
  package var perObject: Int

  package init(bytes: Int, objects: Int = 0, perObject: Int = defaultMemoryPerObject) {
    self.bytes = bytes
    self.objects = objects
    self.perObject = perObject
  }

  /// What a run over the whole store in memory is expected to take at most: the baseline,
  /// twice the bytes (1.8x measured for the JSON diary, 1.3x for its SQLite store) and
  /// `perObject` per object.
  package var expectedPeak: Int {
    // Saturating: a hostile count or size gives the largest estimate, not an overflow.
    let (perObject, o1) = objects.multipliedReportingOverflow(by: self.perObject)
    let (twice, o2) = bytes.multipliedReportingOverflow(by: 2)
    let (sum, o3) = perObject.addingReportingOverflow(twice)
    let (total, o4) = sum.addingReportingOverflow(StreamingRun.baseline)
    return o1 || o2 || o3 || o4 ? Int.max : total
  }

  /// The footprint of the store at `path` of `format`, as far as it matters against `limit`:
  /// objects are counted only while the estimate is within it (a store whose bytes alone pass
  /// it is not counted, and a count may stop once it passes it); nil when there is no file.
  package static func of(_ path: String, format: (any StoreFormat)?, limit: Int) -> StoreFootprint? {
    guard let bytes = MigrationRun.fileSize(path) else { return nil }
    let perObject = format?.memoryPerObject ?? defaultMemoryPerObject
    let alone = StoreFootprint(bytes: bytes, perObject: perObject)
    guard let format, alone.expectedPeak <= limit else { return alone }
    let cap = (limit - alone.expectedPeak) / max(perObject, 1) + 1
    return StoreFootprint(bytes: bytes, objects: format.objectCountBound(path, cap: cap) ?? 0, perObject: perObject)
  }
}
