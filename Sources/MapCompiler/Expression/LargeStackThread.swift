import Foundation

/// Runs work on a new thread with a stack of a chosen size and waits for it: recursive work
/// whose depth is bounded but large then does not depend on the caller's stack (512 KiB on
/// secondary threads of Apple platforms).
enum LargeStackThread {
  private final class Outcome<T: Sendable>: @unchecked Sendable {
    var value: T?
    let done = DispatchSemaphore(value: 0)
  }

  static func run<T: Sendable>(stackBytes: Int, _ work: @escaping @Sendable () -> T) -> T {
    let outcome = Outcome<T>()
    let thread = Thread {
      outcome.value = work()
      outcome.done.signal()
    }
    thread.stackSize = stackBytes
    thread.start()
    outcome.done.wait()
    return outcome.value!
  }
}
