#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Object ids of a store, by their bytes: an open-addressing hash table whose slots hold
/// object references; the id bytes themselves stay in the input.
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

  @inline(__always) static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return Int(truncatingIfNeeded: h ^ (h >> 29))
  }

  /// Inserts `ref` under `key`; returns the reference already there when the id is taken.
  /// `equals` compares a stored reference's id with a key; `hashOf` hashes a stored id.
  mutating func insert(_ key: UnsafeRawBufferPointer, _ ref: ObjectRef, in graph: ObjectGraph) -> ObjectRef? {
    if (count + 1) * 2 > slots.count { grow(graph) }
    var i = IDIndex.hash(key) & mask
    while slots[i] != 0 {
      let existing = ObjectRef(packed: slots[i])
      if graph.idEquals(existing, key) { return existing }
      i = (i + 1) & mask
    }
    slots[i] = ref.packed
    count += 1
    return nil
  }

  func find(_ key: UnsafeRawBufferPointer, in graph: ObjectGraph) -> ObjectRef? {
    var i = IDIndex.hash(key) & mask
    while slots[i] != 0 {
      let existing = ObjectRef(packed: slots[i])
      if graph.idEquals(existing, key) { return existing }
      i = (i + 1) & mask
    }
    return nil
  }

  private mutating func grow(_ graph: ObjectGraph) {
    let old = slots
    slots = Array(repeating: 0, count: old.count * 2)
    mask = slots.count - 1
    for s in old where s != 0 {
      var i = graph.idHash(ObjectRef(packed: s)) & mask
      while slots[i] != 0 { i = (i + 1) & mask }
      slots[i] = s
    }
  }
}

extension ObjectGraph {
  /// Calls `body` with the decoded bytes of an object's id (no copy for plain slices).
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
    withIDBytes(ref) { $0.count == key.count && ($0.count == 0 || memcmp($0.baseAddress!, key.baseAddress!, $0.count) == 0) }
  }

  func idHash(_ ref: ObjectRef) -> Int { withIDBytes(ref) { IDIndex.hash($0) } }
}
