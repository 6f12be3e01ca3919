#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs work on a new thread with a stack of a chosen size and waits for it: recursive work
/// whose depth is bounded but large then does not depend on the caller's stack (512 KiB on
/// secondary threads of Apple platforms).
///
/// The thread is joined before `run` returns, so it is gone and holds nothing by then: the
/// result is owned by the caller alone, and the work closure (with whatever it captured) has
/// been released. (A `Foundation.Thread` signalled through a semaphore kept both until its
/// own teardown, after the caller had returned; at process exit the address sanitizer then
/// reported the last result as leaked.)
package enum LargeStackThread {
  /// What the thread runs; its entry point is a C function, which cannot be generic.
  private final class Entry {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }

  private final class Slot<T>: @unchecked Sendable {
    var value: T?
  }

  package static func run<T: Sendable>(stackBytes: Int, _ work: @escaping @Sendable () -> T) -> T {
    let slot = Slot<T>()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackBytes)
    let entry = Unmanaged.passRetained(Entry { slot.value = work() })
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let status = pthread_create(
      &thread, &attributes,
      { context in
        // Takes the reference passed in: the entry and its closure are freed when this returns.
        Unmanaged<Entry>.fromOpaque(context!).takeRetainedValue().body()
        return nil
      }, entry.toOpaque())
    guard status == 0 else {
      // No thread (out of threads or memory): run here; the nesting limits still apply.
      entry.takeRetainedValue().body()
      return slot.value!
    }
    #if canImport(Darwin)
      pthread_join(thread!, nil)
    #else
      pthread_join(thread, nil)
    #endif
    return slot.value!
  }
}
