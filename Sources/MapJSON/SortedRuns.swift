#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// How the records of a `SortedRuns` are ordered.
protocol RunOrder {
  associatedtype Record: BitwiseCopyable
  static func precedes(_ a: Record, _ b: Record) -> Bool
}

/// Records of a fixed size, more than memory may hold: up to `capacity` in memory, beyond that
/// sorted in runs of `capacity`, one after the other in one file of the run's scratch folder
/// (made at the first run, removed with this object), and read back in order by one merge.
/// Memory stays within `capacity` records, with the merge's read buffers; at most `maxRuns`
/// runs (`Specs/limits.md` "Memory").
final class SortedRuns<Order: RunOrder> {
  typealias Record = Order.Record
  let capacity: Int
  let maxRuns: Int
  private let folder: String
  private let name: String
  private var path = ""
  private var fd: Int32 = -1
  private var current: [Record] = []
  /// Each run's first record in the file, and its records.
  private var runs: [(start: Int, count: Int)] = []
  private(set) var count = 0

  /// `name` names the file (`name-N`, the first N free); `expected` records are reserved in
  /// memory up front (at most `capacity`).
  init(capacity: Int, maxRuns: Int, folder: String, name: String, expected: Int = 0) {
    self.capacity = max(capacity, 256)
    self.maxRuns = maxRuns
    self.folder = folder
    self.name = name
    current.reserveCapacity(min(self.capacity, expected))
  }

  deinit {
    if fd >= 0 {
      _ = close(fd)
      unlink(path)
    }
  }

  /// Adds a record; false when the records would need more runs than `maxRuns`.
  func append(_ r: Record) throws(StoreIOError) -> Bool {
    current.append(r)
    count += 1
    if current.count >= capacity {
      guard runs.count < maxRuns else { return false }
      try spill()
    }
    return true
  }

  private func spill() throws(StoreIOError) {
    current.sort(by: Order.precedes)
    if fd < 0 { try makeFile() }
    // Runs follow one another in the file: each is written at its end.
    let bytes = current.count * MemoryLayout<Record>.stride
    let failure = current.withUnsafeBytes { WriteCalls.writeAll(fd, $0.baseAddress!, bytes).error }
    guard failure == 0 else { throw StoreIOError.system(failure, path: path, operation: "write") }
    runs.append((runs.last.map { $0.start + $0.count } ?? 0, current.count))
    current.removeAll(keepingCapacity: true)
  }

  private func makeFile() throws(StoreIOError) {
    var n = 0
    while true {
      let candidate = "\(folder)/\(name)-\(n)"
      fd = open(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if fd >= 0 {
        path = candidate
        return
      }
      guard errno == EEXIST, n < 1000 else { throw StoreIOError.system(errno, path: candidate, operation: "write") }
      n += 1
    }
  }

  /// Every record, in order (records that neither precedes come in no set order): the records
  /// in memory are sorted and merged with the runs. Adding records afterwards is not allowed.
  func sorted() -> Cursor {
    current.sort(by: Order.precedes)
    return Cursor(self)
  }

  /// Reads the records back in order, a buffer per run.
  final class Cursor {
    private let owner: SortedRuns
    private var sources: [RunReader]
    /// A binary min-heap of the sources (by index) by their next record: log(runs) a record.
    private var heap: [Int] = []

    fileprivate init(_ owner: SortedRuns) {
      self.owner = owner
      let each = max(64, owner.capacity / (owner.runs.count + 1))
      sources = owner.runs.map { RunReader(start: $0.start, count: $0.count, buffer: each) }
      sources.append(RunReader(memory: owner.current))
      heap.reserveCapacity(sources.count)
    }

    private var primed = false

    /// The next record in order, nil after the last.
    func next() throws(StoreIOError) -> Record? {
      if sources.count == 1 {
        // Nothing on disk: the records in memory, in their order.
        guard sources[0].at < sources[0].count else { return nil }
        defer { sources[0].at += 1 }
        return sources[0].buffer[sources[0].at]
      }
      if !primed {
        primed = true
        for i in sources.indices where try sources[i].peek(owner) != nil { push(i) }
      }
      guard let top = heap.first else { return nil }
      let record = try sources[top].peek(owner)!
      sources[top].advance()
      if try sources[top].peek(owner) != nil { siftDown() } else { removeTop() }
      return record
    }

    private func less(_ i: Int, _ j: Int) -> Bool {
      Order.precedes(sources[heap[i]].head!, sources[heap[j]].head!)
    }

    private func push(_ source: Int) {
      heap.append(source)
      var i = heap.count - 1
      while i > 0 {
        let parent = (i - 1) / 2
        guard less(i, parent) else { break }
        heap.swapAt(i, parent)
        i = parent
      }
    }

    private func removeTop() {
      let last = heap.removeLast()
      guard !heap.isEmpty else { return }
      heap[0] = last
      siftDown()
    }

    private func siftDown() {
      var i = 0
      while true {
        let l = 2 * i + 1
        let r = l + 1
        var m = i
        if l < heap.count && less(l, m) { m = l }
        if r < heap.count && less(r, m) { m = r }
        if m == i { return }
        heap.swapAt(i, m)
        i = m
      }
    }
  }

  /// One run read back a buffer at a time (or the records left in memory).
  private struct RunReader {
    var start: Int
    var count: Int
    var buffer: [Record]
    var size: Int
    var loaded = 0
    var at = 0
    var read = 0
    /// The record `peek` last gave, for the heap's comparisons.
    var head: Record?

    init(start: Int, count: Int, buffer size: Int) {
      self.start = start
      self.count = count
      self.size = min(size, count)
      buffer = []
    }

    init(memory: [Record]) {
      start = -1
      count = memory.count
      buffer = memory
      size = memory.count
      loaded = memory.count
      read = memory.count
    }

    mutating func peek(_ owner: SortedRuns) throws(StoreIOError) -> Record? {
      if at == loaded {
        guard read < count else {
          head = nil
          return nil
        }
        try load(owner)
      }
      head = buffer[at]
      return head
    }

    mutating func advance() { at += 1 }

    private mutating func load(_ owner: SortedRuns) throws(StoreIOError) {
      let n = min(size, count - read)
      let stride = MemoryLayout<Record>.stride
      let offset = (start + read) * stride
      var failure: Int32 = 0
      let fd = owner.fd
      let got = [Record](unsafeUninitializedCapacity: n) { items, initialized in
        let raw = UnsafeMutableRawBufferPointer(items)
        var done = 0
        while done < n * stride {
          let r = pread(fd, raw.baseAddress! + done, n * stride - done, off_t(offset + done))
          if r < 0 && errno == EINTR { continue }
          guard r > 0 else {
            failure = r < 0 ? errno : EIO
            break
          }
          done += r
        }
        initialized = failure == 0 ? n : 0
      }
      guard failure == 0 else { throw StoreIOError.system(failure, path: owner.path, operation: "read") }
      buffer = got
      read += n
      loaded = n
      at = 0
    }
  }
}
