import Dispatch
import Foundation
import MapRuntime

/// Runs independent pieces of work at the same time (on as many cores as there are).
enum Concurrently {
  /// Runs `a` and `b`, possibly on two threads, and returns both results.
  static func both<A: Sendable, B: Sendable>(_ a: @Sendable () -> A, _ b: @Sendable () -> B) -> (A, B) {
    let first = Slot<A>()
    let second = Slot<B>()
    // Each slot is written by one iteration only and read after both have finished.
    DispatchQueue.concurrentPerform(iterations: 2) { i in
      if i == 0 { first.value = a() } else { second.value = b() }
    }
    return (first.value!, second.value!)
  }

  /// Splits `0..<count` into contiguous ranges (a few per core, so that a core that is slowed
  /// down takes fewer; none shorter than `minimumChunk` unless there is only one), runs `body` on
  /// each, possibly at the same time, and returns the results in the order of the ranges.
  static func chunks<T: Sendable>(
    of count: Int, minimumChunk: Int, _ body: @Sendable (Range<Int>) -> T
  ) -> [T] {
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let parts = cores == 1 ? 1 : max(1, min(4 * cores, count / max(1, minimumChunk)))
    let ranges = (0..<parts).map { i in (count * i / parts)..<(count * (i + 1) / parts) }
    if parts == 1 { return [body(0..<count)] }
    return Cores.map(parts) { body(ranges[$0]) }
  }

  private final class Slot<T>: @unchecked Sendable {
    var value: T?
  }
}
