import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// Moves the bytes a source graph still needs (ids, strings, Transformable values) out of the
/// input into a buffer of their own, so the input, which is mostly keys, ids of relationships,
/// punctuation and indentation, can be freed right after reading.
///
/// - Transformable values are copied without the whitespace between tokens (the writer
///   re-indents them anyway).
/// - Equal values are stored once, per column, while that pays: a column whose first
///   `probeCount` values repeat less than one time in four stops looking (ids, free text).
struct StringCompaction: @unchecked Sendable {
  static let probeCount = 4096

  private let heap: UnsafeMutableRawPointer
  /// Where this compaction writes next (it owns the bytes from its starting offset on, up to
  /// the slice bytes of its columns).
  private(set) var count: Int
  private let input: UnsafeRawPointer

  private init(input: UnsafeRawPointer, heap: UnsafeMutableRawPointer, start: Int) {
    self.input = input
    self.heap = heap
    self.count = start
  }

  /// Rewrites every slice of `graph`, and swaps the graph's input for the new buffer.
  ///
  /// The columns are shared out between threads, each moving its columns into its own region
  /// of the buffer, which is big enough for every slice (pages never written cost no memory,
  /// and no slice refers to the unused end of a region).
  static func compact(_ graph: ObjectGraph) {
    guard let input = graph.input else { return }
    var jobs: [(column: Column, bytes: Int)] = []
    for t in graph.tables {
      if let ids = t.ids { jobs.append((ids, ids.sliceBytes())) }
      for c in t.columns {
        if let text = c as? TextColumn {
          jobs.append((text, text.sliceBytes()))
        } else if let values = c as? ValueColumn {
          jobs.append((values, values.sliceBytes()))
        }
      }
    }
    // Largest first, each to the least loaded group.
    let groupCount = max(1, min(Cores.workers, jobs.count))
    var groups = Array(repeating: [Column](), count: groupCount)
    var load = Array(repeating: 0, count: groupCount)
    for job in jobs.sorted(by: { $0.bytes > $1.bytes }) {
      let g = load.indices.min { load[$0] < load[$1] }!
      groups[g].append(job.column)
      load[g] += job.bytes
    }
    var starts = [0]
    for l in load { starts.append(starts.last! + l) }
    let capacity = starts.last!
    let heap = LargeBuffer.allocate(byteCount: capacity + InputBytes.paddingCount)
    let base = input.unsafeBytes.baseAddress!
    let ends = UnsafeMutableBufferPointer<Int>.allocate(capacity: groupCount)
    defer { ends.deallocate() }
    // Each group writes only its own columns and its own region of `heap`.
    nonisolated(unsafe) let run = { (g: Int) in
      var part = StringCompaction(input: base, heap: heap, start: starts[g])
      var interner = Interner()
      for c in groups[g] {
        if let text = c as? TextColumn {
          part.move(text, &interner)
        } else if let values = c as? ValueColumn {
          part.move(values, &interner)
        }
      }
      ends[g] = part.count
    }
    if groupCount > 1 && starts.last! >= 1 << 20 {
      DispatchQueue.concurrentPerform(iterations: groupCount) { g in run(g) }
    } else {
      for g in 0..<groupCount { run(g) }
    }
    let last = StringCompaction(input: base, heap: heap, start: ends[groupCount - 1])
    (heap + last.count).initializeMemory(as: UInt8.self, repeating: 0, count: InputBytes.paddingCount)
    withExtendedLifetime(input) {
      graph.replaceInput(
        InputBytes(adopting: heap, allocated: capacity + InputBytes.paddingCount, count: last.count, path: input.path))
    }
  }

  // MARK: - Columns

  private mutating func move(_ column: TextColumn, _ interner: inout Interner) {
    interner.startColumn()
    column.values.withUnsafeMutableBufferPointer { values in
      for i in values.indices {
        let v = values[i]
        guard v & 1 == 1 else { continue }
        values[i] = TextColumn.packSlice(moveString(TextColumn.slice(v), &interner))
      }
    }
  }

  private mutating func move(_ column: ValueColumn, _ interner: inout Interner) {
    interner.startColumn()
    for i in column.values.indices {
      switch column.values[i] {
      case .transformable(let s):
        column.values[i] = .transformable(moveJSON(s, &interner))
      case .string(.slice(let s)):
        column.values[i] = .string(.slice(moveString(s, &interner)))
      default:
        break
      }
    }
  }

  // MARK: - Bytes

  private mutating func moveString(_ s: ByteSlice, _ interner: inout Interner) -> ByteSlice {
    let n = Int(s.count)
    if let found = interner.find(input + s.start, n, heap) {
      return ByteSlice(start: found, count: n, hasEscapes: s.hasEscapes)
    }
    let start = count
    (heap + start).copyMemory(from: input + s.start, byteCount: n)
    count += n
    interner.add(heap, start, n)
    return ByteSlice(start: start, count: n, hasEscapes: s.hasEscapes)
  }

  private mutating func moveJSON(_ s: ByteSlice, _ interner: inout Interner) -> ByteSlice {
    // The same text as a recent value, whitespace and all: its copy is that value's.
    if let copied = interner.recentCopy(of: s, in: input) {
      return ByteSlice(start: copied.start, count: copied.count, hasEscapes: s.hasEscapes)
    }
    let start = count
    let n = Self.copyWithoutSpace(from: input + s.start, count: Int(s.count), to: heap + start)
    if let found = interner.find(UnsafeRawPointer(heap + start), n, heap) {
      interner.remember(s, copiedTo: found, count: n)
      return ByteSlice(start: found, count: n, hasEscapes: s.hasEscapes)
    }
    count += n
    interner.add(heap, start, n)
    interner.remember(s, copiedTo: start, count: n)
    return ByteSlice(start: start, count: n, hasEscapes: s.hasEscapes)
  }

  /// Copies valid JSON text, leaving out whitespace outside strings; returns the bytes written.
  /// Strings are copied in runs up to the next quote or backslash, found eight bytes at a time.
  static func copyWithoutSpace(from p: UnsafeRawPointer, count n: Int, to out: UnsafeMutableRawPointer) -> Int {
    let src = p.assumingMemoryBound(to: UInt8.self)
    let dst = out.assumingMemoryBound(to: UInt8.self)
    var i = 0
    var o = 0
    while i < n {
      let c = src[i]
      if c == UInt8(ascii: "\"") {
        // Copy the string, quotes included.
        dst[o] = c
        o += 1
        i += 1
        while true {
          let run = stringRun(src + i, n - i)
          (dst + o).update(from: src + i, count: run)
          o += run
          i += run
          let q = src[i]
          dst[o] = q
          o += 1
          i += 1
          if q == UInt8(ascii: "\"") { break }
          // A backslash: copy the escaped byte too.
          dst[o] = src[i]
          o += 1
          i += 1
        }
      } else if c == 0x20 {
        // Indentation: runs of spaces, passed over eight at a time.
        i += 1
        while i + 8 <= n && UnsafeRawPointer(src + i).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020 { i += 8 }
      } else {
        if c != 0x0A && c != 0x0D && c != 0x09 {
          dst[o] = c
          o += 1
        }
        i += 1
      }
    }
    return o
  }

  /// Bytes before the first quote or backslash among the `limit` bytes at `p` (`limit` if none).
  @inline(__always) private static func stringRun(_ p: UnsafePointer<UInt8>, _ limit: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var k = 0
    while k + 8 <= limit {
      let w = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self)
      let q = w ^ (ones &* 0x22)
      let b = w ^ (ones &* 0x5C)
      let hit = ((q &- ones) & ~q | (b &- ones) & ~b) & highs
      if hit != 0 { return k + hit.trailingZeroBitCount / 8 }
      k += 8
    }
    while k < limit && p[k] != 0x22 && p[k] != 0x5C { k += 1 }
    return k
  }
}

/// Finds byte strings already copied into the compaction buffer: an open-addressing table of
/// (hash, start, length). Looking is switched off per column when it rarely finds anything.
private struct Interner {
  private var hashes: [UInt64] = Array(repeating: 0, count: 1024)
  private var starts: [Int] = Array(repeating: 0, count: 1024)
  private var lengths: [Int32] = Array(repeating: 0, count: 1024)
  private var used = 0
  private var seen = 0
  private var hits = 0
  private var active = true
  private var pendingHash: UInt64 = 0
  /// The last few Transformable values copied, by their text in the input (a list of lists
  /// repeats with the same indentation): a value found here is not copied again.
  private var recent: [(input: Int, inputCount: Int, start: Int, count: Int)] = []
  private var nextRecent = 0
  static let recentCount = 8

  mutating func startColumn() {
    seen = 0
    hits = 0
    active = true
    recent.removeAll(keepingCapacity: true)
    nextRecent = 0
  }

  /// Where the copy of a value with the same input text as `s` is, if one was copied recently
  /// (while looking is on).
  mutating func recentCopy(of s: ByteSlice, in input: UnsafeRawPointer) -> (start: Int, count: Int)? {
    guard active else { return nil }
    let n = Int(s.count)
    for r in recent where r.inputCount == n && memcmp(input + r.input, input + s.start, n) == 0 {
      counted(hit: true)
      return (r.start, r.count)
    }
    return nil
  }

  /// Remembers that the value at `s` in the input was copied to `start..<start+count`.
  mutating func remember(_ s: ByteSlice, copiedTo start: Int, count: Int) {
    guard active else { return }
    let entry = (input: s.start, inputCount: Int(s.count), start: start, count: count)
    if recent.count < Self.recentCount {
      recent.append(entry)
    } else {
      recent[nextRecent] = entry
      nextRecent = (nextRecent + 1) % Self.recentCount
    }
  }

  /// The start of an equal string already in `heap`, if any. Remembers the hash for `add`.
  mutating func find(_ p: UnsafeRawPointer, _ n: Int, _ heap: UnsafeMutableRawPointer) -> Int? {
    guard active else { return nil }
    let h = Self.hash(p, n)
    pendingHash = h
    let mask = hashes.count - 1
    var i = Int(truncatingIfNeeded: h) & mask
    while hashes[i] != 0 {
      if hashes[i] == h && Int(lengths[i]) == n && memcmp(heap + starts[i], p, n) == 0 {
        counted(hit: true)
        return starts[i]
      }
      i = (i + 1) & mask
    }
    counted(hit: false)
    return nil
  }

  /// Counts a value looked for; after `probeCount` of them, looking stops for the rest of the
  /// column unless at least one in four was found.
  private mutating func counted(hit: Bool) {
    seen += 1
    if hit { hits += 1 }
    if seen == StringCompaction.probeCount && hits * 4 < seen { active = false }
  }

  /// Records the string just copied to `heap[start..<start+n]` (after a failed `find`).
  mutating func add(_ heap: UnsafeMutableRawPointer, _ start: Int, _ n: Int) {
    guard active, n < Int(Int32.max) else { return }
    if (used + 1) * 2 > hashes.count { grow() }
    let mask = hashes.count - 1
    var i = Int(truncatingIfNeeded: pendingHash) & mask
    while hashes[i] != 0 { i = (i + 1) & mask }
    hashes[i] = pendingHash
    starts[i] = start
    lengths[i] = Int32(n)
    used += 1
  }

  private mutating func grow() {
    let (h, s, l) = (hashes, starts, lengths)
    let size = h.count * 2
    hashes = Array(repeating: 0, count: size)
    starts = Array(repeating: 0, count: size)
    lengths = Array(repeating: 0, count: size)
    let mask = size - 1
    for k in h.indices where h[k] != 0 {
      var i = Int(truncatingIfNeeded: h[k]) & mask
      while hashes[i] != 0 { i = (i + 1) & mask }
      hashes[i] = h[k]
      starts[i] = s[k]
      lengths[i] = l[k]
    }
  }

  /// A 64-bit hash of the bytes, never 0 (0 marks an empty slot).
  static func hash(_ p: UnsafeRawPointer, _ n: Int) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(n)
    var i = 0
    while i + 8 <= n {
      h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
      h ^= h >> 32
      i += 8
    }
    while i < n {
      h = (h ^ UInt64(p.load(fromByteOffset: i, as: UInt8.self))) &* 0x1000_0000_01B3
      i += 1
    }
    h ^= h >> 29
    return h == 0 ? 1 : h
  }
}

extension TextColumn {
  /// Bytes of the slices this column holds (native strings not counted).
  func sliceBytes() -> Int {
    var n = 0
    for v in values where v & 1 == 1 { n += Int((v >> 2) & 0xFF_FFFF) }
    return n
  }
}

extension ValueColumn {
  /// Bytes of the slices this column holds.
  func sliceBytes() -> Int {
    var n = 0
    for v in values {
      switch v {
      case .transformable(let s), .string(.slice(let s)): n += Int(s.count)
      default: break
      }
    }
    return n
  }
}
