#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// The ids of a store read a chunk at a time (`ChunkReader`), as 64-bit hash and file offset:
/// in memory up to `capacity` of them, beyond that in sorted runs of `capacity` in files of
/// the run's scratch folder, merged at the end. Memory stays within `capacity` entries and a
/// read buffer per run; at most `maxRuns` runs (`Specs/limits.md` "Memory").
///
/// Besides the objects' ids, the spill takes the ids that links out of a chunk name
/// (`ChunkLinks.outside`), their offsets marked with `referenceFlag`, so that one merge finds
/// both the ids used twice and the ids named that no object has.
final class IDSpill {
  typealias Entry = (hash: UInt64, offset: Int)
  static let maxRuns = 4096
  /// Marks an entry as an id a link names (at that offset), not an object's.
  static let referenceFlag = 1 << 62

  private let capacity: Int
  private let folder: String
  private var current: [Entry] = []
  private var runs: [(fd: Int32, count: Int)] = []
  private(set) var count = 0

  init(capacity: Int, folder: String, expected: Int) {
    self.capacity = max(capacity, 256)
    self.folder = folder
    current.reserveCapacity(min(self.capacity, expected))
  }

  deinit { for r in runs { _ = close(r.fd) } }

  /// Adds an id; false when the ids would need more runs than `maxRuns`.
  func append(_ e: Entry) throws(StoreIOError) -> Bool {
    current.append(e)
    count += 1
    if current.count >= capacity {
      guard runs.count < Self.maxRuns else { return false }
      try spill()
    }
    return true
  }

  private func spill() throws(StoreIOError) {
    current.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.offset < $1.offset }
    let path = "\(folder)/ids-\(runs.count)"
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StoreIOError.system(errno, path: path, operation: "write") }
    runs.append((fd, current.count))
    let bytes = current.count * MemoryLayout<UInt64>.size * 2
    let buffer = UnsafeMutablePointer<UInt64>.allocate(capacity: current.count * 2)
    defer { buffer.deallocate() }
    for (k, e) in current.enumerated() {
      buffer[2 * k] = e.hash
      buffer[2 * k + 1] = UInt64(e.offset)
    }
    guard WriteCalls.write(fd, buffer, bytes) == bytes else {
      throw StoreIOError.system(errno, path: path, operation: "write")
    }
    current.removeAll(keepingCapacity: true)
  }

  /// Calls `group` with each set of two or more ids of equal hash (with `singles`, of one or
  /// more), in hash order, each set in offset order, until it returns false.
  func equalHashes(singles: Bool = false, _ group: ([Entry]) -> Bool) throws(StoreIOError) {
    let least = singles ? 1 : 2
    current.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.offset < $1.offset }
    if runs.isEmpty {
      var k = 0
      while k < current.count {
        var j = k + 1
        while j < current.count && current[j].hash == current[k].hash { j += 1 }
        if j - k >= least && !group(Array(current[k..<j])) { return }
        k = j
      }
      return
    }
    let cursors = runs.map { RunCursor(fd: $0.fd, count: $0.count, entries: max(64, capacity / (runs.count + 1))) }
    // A binary min-heap of the runs by their next entry: the merge costs log(runs) an entry.
    var heap: [(entry: Entry, run: Int)] = []
    func less(_ a: (entry: Entry, run: Int), _ b: (entry: Entry, run: Int)) -> Bool {
      (a.entry.hash, a.entry.offset) < (b.entry.hash, b.entry.offset)
    }
    func push(_ x: (entry: Entry, run: Int)) {
      heap.append(x)
      var i = heap.count - 1
      while i > 0 {
        let parent = (i - 1) / 2
        guard less(heap[i], heap[parent]) else { break }
        heap.swapAt(i, parent)
        i = parent
      }
    }
    func pop() -> (entry: Entry, run: Int)? {
      guard let top = heap.first else { return nil }
      let last = heap.removeLast()
      if !heap.isEmpty {
        heap[0] = last
        var i = 0
        while true {
          let l = 2 * i + 1
          let r = l + 1
          var m = i
          if l < heap.count && less(heap[l], heap[m]) { m = l }
          if r < heap.count && less(heap[r], heap[m]) { m = r }
          if m == i { break }
          heap.swapAt(i, m)
          i = m
        }
      }
      return top
    }
    for (i, c) in cursors.enumerated() {
      if let e = try c.peek() { push((e, i)) }
    }
    // The list still in memory is one more run (index -1).
    if !current.isEmpty { push((current[0], -1)) }
    var memory = 0
    var same: [Entry] = []
    while let (e, from) = pop() {
      if from >= 0 {
        cursors[from].advance()
        if let next = try cursors[from].peek() { push((next, from)) }
      } else {
        memory += 1
        if memory < current.count { push((current[memory], -1)) }
      }
      if let first = same.first, first.hash != e.hash {
        if same.count >= least && !group(same) { return }
        same.removeAll(keepingCapacity: true)
      }
      same.append(e)
    }
    if same.count >= least { _ = group(same) }
  }

  /// Reads one run back in order, a buffer at a time.
  private final class RunCursor {
    let fd: Int32
    let count: Int
    let size: Int
    var buffer: [UInt64]
    var loaded = 0
    var at = 0
    var read = 0

    init(fd: Int32, count: Int, entries: Int) {
      self.fd = fd
      self.count = count
      size = min(entries, count)
      buffer = [UInt64](repeating: 0, count: 2 * size)
    }

    func peek() throws(StoreIOError) -> Entry? {
      if at == loaded {
        guard read < count else { return nil }
        let n = min(size, count - read)
        let bytes = n * 16
        let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, bytes, off_t(read * 16)) }
        guard got == bytes else { throw StoreIOError.system(got < 0 ? errno : EIO, path: "ids", operation: "read") }
        read += n
        loaded = n
        at = 0
      }
      return (buffer[2 * at], Int(buffer[2 * at + 1]))
    }

    func advance() { at += 1 }
  }
}
