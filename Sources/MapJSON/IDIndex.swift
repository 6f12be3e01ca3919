#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import MapRuntime

/// Object ids of a store, by their bytes: an open-addressing hash table whose slots hold
/// object references; the id bytes themselves stay in the input.
///
/// A slot keeps 16 bits of its id's hash beside the reference (entity in 16 bits, row in 32),
/// so a probe compares id bytes, which lie scattered over the input, only when those bits
/// match: almost only for the id looked for.
struct IDIndex {
  private var slots: [UInt64]
  private var mask: Int
  private(set) var count = 0

  init(expected: Int = 1024) {
    var size = 16
    while size < expected * 2 { size <<= 1 }
    slots = Array(repeating: 0, count: size)
    mask = size - 1
  }

  /// The hash of an id's bytes (after decoding escapes).
  @inline(__always) static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h ^ (h >> 29)
  }

  @inline(__always) private static func slot(_ ref: ObjectRef, _ hash: UInt64) -> UInt64 {
    precondition(ref.entity < ObjectModel.maximumEntityCount, "entity index beyond the id index's 16 bits")
    return (hash & 0xFFFF_0000_0000_0000) | ((UInt64(ref.entity) << 32 | UInt64(ref.row)) &+ 1)
  }

  @inline(__always) private static func ref(_ slot: UInt64) -> ObjectRef {
    ObjectRef(packed: slot & 0x0000_FFFF_FFFF_FFFF)
  }

  @inline(__always) private static func tagMatches(_ slot: UInt64, _ hash: UInt64) -> Bool {
    (slot ^ hash) >> 48 == 0
  }

  /// Inserts `ref`, whose id (already in `graph`) hashes to `hash`; returns the reference
  /// already there when the id is taken.
  mutating func insert(hash: UInt64, _ ref: ObjectRef, in graph: ObjectGraph) -> ObjectRef? {
    if (count + 1) * 2 > slots.count { grow(graph) }
    var i = Int(truncatingIfNeeded: hash) & mask
    while slots[i] != 0 {
      if IDIndex.tagMatches(slots[i], hash) {
        let existing = IDIndex.ref(slots[i])
        if graph.withIDBytes(ref, { graph.idEquals(existing, $0) }) { return existing }
      }
      i = (i + 1) & mask
    }
    slots[i] = IDIndex.slot(ref, hash)
    count += 1
    return nil
  }

  func find(_ key: UnsafeRawBufferPointer, in graph: ObjectGraph) -> ObjectRef? {
    let hash = IDIndex.hash(key)
    var i = Int(truncatingIfNeeded: hash) & mask
    while slots[i] != 0 {
      if IDIndex.tagMatches(slots[i], hash) {
        let existing = IDIndex.ref(slots[i])
        if graph.idEquals(existing, key) { return existing }
      }
      i = (i + 1) & mask
    }
    return nil
  }

  private mutating func grow(_ graph: ObjectGraph) {
    let old = slots
    slots = Array(repeating: 0, count: old.count * 2)
    mask = slots.count - 1
    for s in old where s != 0 {
      let hash = graph.idHash(IDIndex.ref(s))
      var i = Int(truncatingIfNeeded: hash) & mask
      while slots[i] != 0 { i = (i + 1) & mask }
      slots[i] = s
    }
  }
}

extension ObjectGraph {
  /// Calls `body` with the decoded bytes of an object's id (no copy for slices without
  /// escapes).
  func withIDBytes<R>(_ ref: ObjectRef, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    let t = tables[Int(ref.entity)]
    if let ids = t.ids, let input {
      let packed = ids.packed(Int(ref.row))
      if packed & 3 == 1 {
        let text = ids.text(packed)
        if case .slice(let s) = text { return body(input.buffer(s)) }
      }
    }
    var bytes = Array(idText(ref).utf8)
    return bytes.withUnsafeMutableBytes { body(UnsafeRawBufferPointer($0)) }
  }

  func idEquals(_ ref: ObjectRef, _ key: UnsafeRawBufferPointer) -> Bool {
    withIDBytes(ref) {
      $0.count == key.count && ($0.count == 0 || memcmp($0.baseAddress!, key.baseAddress!, $0.count) == 0)
    }
  }

  func idHash(_ ref: ObjectRef) -> UInt64 { withIDBytes(ref) { IDIndex.hash($0) } }
}
