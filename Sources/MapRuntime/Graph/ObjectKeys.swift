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

extension ObjectGraph {
  /// Reads the objects' numbers where they are still in their ids (a JSON store's); a graph
  /// whose reader set them, or that has none, is left as it is.
  package func resolveObjectKeys() {
    guard let read = pendingObjectKeys else { return }
    pendingObjectKeys = nil
    read(self)
  }

  /// Gives `d` the number of `s`, an object of `source`, if it has one.
  @inline(__always) package func takeObjectKey(of s: ObjectRef, in source: ObjectGraph, for d: ObjectRef) {
    let key = source.tables[Int(s.entity)].objectKey(Int(s.row))
    if key > 0 { tables[Int(d.entity)].setObjectKey(Int(d.row), key) }
  }

  /// Takes over the source's highest numbers, for the root entities this graph has too.
  package func takeKeyHighWater(from source: ObjectGraph) {
    for (root, high) in source.keyHighWater where layout.entityIndex(root) != nil {
      keyHighWater[root] = max(keyHighWater[root] ?? 0, high)
    }
  }
}
