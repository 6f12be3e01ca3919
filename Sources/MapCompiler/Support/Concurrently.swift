import Dispatch

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

  private final class Slot<T>: @unchecked Sendable {
    var value: T?
  }
}
