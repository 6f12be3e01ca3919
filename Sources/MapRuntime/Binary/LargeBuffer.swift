#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Memory for the large byte buffers of a run (the input, the compacted strings): mapped
/// directly and, on Linux, marked for transparent huge pages, so that filling 100 MB takes
/// about fifty page faults instead of twenty-five thousand. Small buffers come from `malloc`.
package enum LargeBuffer {
  /// Buffers from this size on are mapped.
  package static let mappedMinimum = 4 << 20
  package static let hugePage = 2 << 20

  package static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
    // `deallocate` unmaps every buffer of this size, so there is no fallback to `malloc`:
    // out of memory ends the process, as `allocate` would.
    guard let p = allocateIfPossible(byteCount: byteCount) else {
      fatalError("out of memory: cannot map \(mappedSize(byteCount)) bytes")
    }
    return p
  }

  /// `allocate`, or nil when the system refuses the mapping (a reserve larger than it allows).
  package static func allocateIfPossible(byteCount: Int) -> UnsafeMutableRawPointer? {
    guard byteCount >= mappedMinimum else {
      return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
    }
    let size = mappedSize(byteCount)
    guard let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED else {
      return nil
    }
    #if os(Linux)
      _ = madvise(p, size, MADV_HUGEPAGE)
    #endif
    return p
  }

  /// Frees what `allocate(byteCount:)` gave for the same `byteCount`.
  package static func deallocate(_ p: UnsafeMutableRawPointer, byteCount: Int) {
    guard byteCount >= mappedMinimum else { return p.deallocate() }
    _ = munmap(p, mappedSize(byteCount))
  }

  private static func mappedSize(_ n: Int) -> Int { (n + hugePage - 1) / hugePage * hugePage }
}
