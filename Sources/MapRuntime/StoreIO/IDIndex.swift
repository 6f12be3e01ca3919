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
  /// `bytesOf` gives the id bytes of a stored reference.
  mutating func insert(
    _ key: UnsafeRawBufferPointer, _ ref: ObjectRef, bytesOf: (ObjectRef) -> [UInt8]
  ) -> ObjectRef? {
    if (count + 1) * 2 > slots.count { grow(bytesOf: bytesOf) }
    var i = IDIndex.hash(key) & mask
    while slots[i] != 0 {
      let existing = ObjectRef(packed: slots[i])
      if bytesOf(existing).elementsEqual(key) { return existing }
      i = (i + 1) & mask
    }
    slots[i] = ref.packed
    count += 1
    return nil
  }

  func find(_ key: UnsafeRawBufferPointer, bytesOf: (ObjectRef) -> [UInt8]) -> ObjectRef? {
    var i = IDIndex.hash(key) & mask
    while slots[i] != 0 {
      let existing = ObjectRef(packed: slots[i])
      if bytesOf(existing).elementsEqual(key) { return existing }
      i = (i + 1) & mask
    }
    return nil
  }

  private mutating func grow(bytesOf: (ObjectRef) -> [UInt8]) {
    let old = slots
    slots = Array(repeating: 0, count: old.count * 2)
    mask = slots.count - 1
    for s in old where s != 0 {
      let bytes = bytesOf(ObjectRef(packed: s))
      var i = bytes.withUnsafeBytes { IDIndex.hash($0) } & mask
      while slots[i] != 0 { i = (i + 1) & mask }
      slots[i] = s
    }
  }
}
