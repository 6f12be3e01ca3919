import Dispatch
import Foundation

/// How many threads the runtime's parallel steps use (rendering the output, moving strings,
/// pass 1, reading): one per processor, at most eight.
package enum Cores {
  package static let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))

  /// `make(0)`, `make(1)`, … `make(count - 1)`, in that order, made on every core when there is
  /// more than one (each item on its own: `make` must not depend on the order it is called in).
  package static func map<T: Sendable>(_ count: Int, _ make: @Sendable (Int) -> T) -> [T] {
    guard count > 1, workers > 1 else { return (0..<count).map(make) }
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
      // Each index is initialized once, by one thread.
      nonisolated(unsafe) let base = buffer.baseAddress!
      DispatchQueue.concurrentPerform(iterations: count) { (base + $0).initialize(to: make($0)) }
      initialized = count
    }
  }
}
