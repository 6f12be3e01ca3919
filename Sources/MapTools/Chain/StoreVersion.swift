import MapRuntime

/// Which version of a bundle a store is at, from the `entityVersionHashes` of its metadata, as
/// Core Data decides whether a store is compatible with a model: equal sets of entity hashes.
public enum StoreVersion: Sendable, Equatable {
  /// The latest version with exactly the store's hashes (consecutive versions may hash alike
  /// when only defaults, indexes or other unhashed details changed).
  case version(Int)
  /// No version has the store's hashes: the closest one (fewest differing entities, the later
  /// on a tie) and the entities that differ from it, sorted.
  case unknown(closest: Int, differing: [String])

  public static func identify(_ storeHashes: [String: String], in versions: ModelVersions) -> StoreVersion {
    var best: (index: Int, differing: [String])? = nil
    for (i, v) in versions.versions.enumerated() {
      let names = Set(storeHashes.keys).union(v.base64Hashes.keys)
      let differing = names.filter { storeHashes[$0] != v.base64Hashes[$0] }.sorted()
      if best == nil || differing.count <= best!.differing.count { best = (i, differing) }
    }
    guard let best else { return .unknown(closest: 0, differing: []) }
    return best.differing.isEmpty ? .version(best.index) : .unknown(closest: best.index, differing: best.differing)
  }
}
