/// A step's result handed to the next step of a fused chain in memory: what the store format's
/// `read` would return from the store its `write` would write (`StoreFormat.readBack`).
package struct HandedStore: Sendable {
  package var graph: ObjectGraph
  package var metadata: StoreMetadata
}
