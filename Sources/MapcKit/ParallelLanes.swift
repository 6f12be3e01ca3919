import Foundation

/// Runs `count` pieces of work, `jobs` at a time on threads of their own (the work waits for
/// child processes, so as many threads as jobs, not as cores), handing each result on in the
/// order of the pieces: `mapc test --jobs`, `mapc migrate --stores --jobs`.
package enum ParallelLanes {
  /// `body(i)` for every `i` in `0..<count`; `inOrder(i, result)` is called for 0, 1, 2, … as
  /// soon as each and all before it are done, one call at a time. Returns the results in order.
  package static func run<T: Sendable>(
    count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T,
    inOrder: @escaping @Sendable (Int, T) -> Void
  ) -> [T] {
    let board = Board<T>(count: count, done: inOrder)
    let lanes = max(1, min(jobs, count))
    let group = DispatchGroup()
    for _ in 0..<lanes {
      group.enter()
      let thread = Thread {
        while let i = board.take() { board.finish(i, body(i)) }
        group.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    group.wait()
    return board.results()
  }

  /// The lanes' shared state: the next piece to take, and the results, handed on in order.
  private final class Board<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var handedOn = 0
    private var slots: [T?]
    private let done: @Sendable (Int, T) -> Void

    init(count: Int, done: @escaping @Sendable (Int, T) -> Void) {
      slots = Array(repeating: nil, count: count)
      self.done = done
    }

    func take() -> Int? {
      lock.withLock {
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
      }
    }

    func finish(_ i: Int, _ result: T) {
      lock.withLock {
        slots[i] = result
        while handedOn < slots.count, let ready = slots[handedOn] {
          done(handedOn, ready)
          handedOn += 1
        }
      }
    }

    func results() -> [T] { lock.withLock { slots.compactMap { $0 } } }
  }
}
