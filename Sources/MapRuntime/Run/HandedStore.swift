import Foundation

/// A step's result handed to the next step of a fused chain in memory: what the store format's
/// `read` would return from the store its `write` would write (`StoreFormat.readBack`).
///
/// The graph is taken once (`take`): the step that reads it then holds the only reference, so
/// that it is let go of with that step's source objects, before the step writes or hands on
/// its own result (memory stays one step's: a source, a destination, and at the hand-off the
/// destination and the graph made from it).
// @unchecked: the graph is taken under `lock`; the metadata never changes.
package final class HandedStore: @unchecked Sendable {
  private let lock = NSLock()
  private var held: ObjectGraph?
  package let metadata: StoreMetadata

  package init(graph: ObjectGraph, metadata: StoreMetadata) {
    held = graph
    self.metadata = metadata
  }

  /// The graph, the first time; nil after that.
  package func take() -> ObjectGraph? {
    lock.withLock {
      defer { held = nil }
      return held
    }
  }
}
