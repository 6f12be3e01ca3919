/// The store's own number of each object (a Core Data SQLite store's `Z_PK`), kept so that a
/// store written again gives every object the number it had: Core Data's object URIs
/// (`x-coredata://<store UUID>/<Entity>/p<Z_PK>`) go on naming the same objects. A graph whose
/// reader has no such numbers (a JSON store) has none, and writers number objects as before.
extension EntityTable {
  /// The object's number, or 0 when it has none.
  @inline(__always) package func objectKey(_ row: Int) -> Int64 { row < objectKeys.count ? objectKeys[row] : 0 }

  package func setObjectKey(_ row: Int, _ key: Int64) {
    if objectKeys.count <= row { objectKeys.append(contentsOf: repeatElement(0, count: row + 1 - objectKeys.count)) }
    objectKeys[row] = key
  }
}

/// The store's optimistic-locking version of each object (a Core Data SQLite store's `Z_OPT`: 1
/// when inserted, one more per save that changed the row), kept so that a store written again
/// without a migration, or by a step Core Data migrates in place, gives every row the version
/// it had. 0 (or no entry) means none: writers write 1, as Core Data does for a new row.
extension EntityTable {
  @inline(__always) package func objectVersion(_ row: Int) -> Int64 {
    row < objectVersions.count ? objectVersions[row] : 0
  }

  package func setObjectVersion(_ row: Int, _ version: Int64) {
    if objectVersions.count <= row {
      objectVersions.append(contentsOf: repeatElement(0, count: row + 1 - objectVersions.count))
    }
    objectVersions[row] = version
  }
}

extension ObjectGraph {
  /// Reads the objects' numbers where they are still in their ids (a JSON store's); a graph
  /// whose reader set them, or that has none, is left as it is.
  package func resolveObjectKeys() {
    guard let read = pendingObjectKeys else { return }
    pendingObjectKeys = nil
    read(self)
  }

  /// Gives `d` the number and the version of `s`, an object of `source`, where it has them.
  @inline(__always) package func takeObjectKey(of s: ObjectRef, in source: ObjectGraph, for d: ObjectRef) {
    let from = source.tables[Int(s.entity)]
    let key = from.objectKey(Int(s.row))
    if key > 0 { tables[Int(d.entity)].setObjectKey(Int(d.row), key) }
    let version = from.objectVersion(Int(s.row))
    if version > 0 { tables[Int(d.entity)].setObjectVersion(Int(d.row), version) }
  }

  /// Takes over the source's highest numbers, for the root entities this graph has too.
  package func takeKeyHighWater(from source: ObjectGraph) {
    for (root, high) in source.keyHighWater where layout.entityIndex(root) != nil {
      keyHighWater[root] = max(keyHighWater[root] ?? 0, high)
    }
  }
}
