#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension TransformableArchive.Verifier {
  /// The strings the property list writer adds (keys, class names), at the start of every
  /// verifier's pool.
  struct Constants {
    static let shared = Constants()
    static let texts = [
      "$version", "$objects", "$archiver", "$top", "$null", "NSKeyedArchiver", "root", "$class", "NS.objects",
      "NS.keys", "NS.time", "$classname", "$classes",
    ]
    static let versionKey = 0
    static let objectsKey = 1
    static let archiverKey = 2
    static let topKey = 3
    static let nullText = 4
    static let archiverName = 5
    static let rootKey = 6
    static let classKey = 7
    static let objectsField = 8
    static let keysField = 9
    static let timeField = 10
    static let classnameKey = 11
    static let classesKey = 12
    /// The classes an archived value's objects have, in this order.
    static let classNames = ["NSArray", "NSDictionary", "NSDate", "NSNull"]
    static let arrayClass = 0
    static let dictionaryClass = 1
    static let dateClass = 2
    static let nullClass = 3

    let bytes: [UInt8]
    /// Pool range of each string of `texts`, then of the strings of each class's chain.
    let ranges: [(start: Int, count: Int, shared: Bool)]
    /// Per class of `classNames`: where its name is in `ranges`, then its chain's strings.
    let chains: [[Int]]

    init() {
      var bytes: [UInt8] = []
      var ranges: [(start: Int, count: Int, shared: Bool)] = []
      // Keys are always shared, class names as `PlistWriter.isShared` says.
      func add(_ s: String, shared: Bool) -> Int {
        ranges.append((bytes.count, s.utf8.count, shared))
        bytes.append(contentsOf: s.utf8)
        return ranges.count - 1
      }
      for t in Self.texts { _ = add(t, shared: true) }
      let isShared = TransformableArchive.PlistWriter.isShared
      chains = Self.classNames.map { name in
        [add(name, shared: isShared(name))]
          + KeyedArchiveBuilder.classes(of: name).map { add($0, shared: isShared($0)) }
      }
      self.bytes = bytes
      self.ranges = ranges
    }
  }

  /// Objects by value: a list while small, with a hash table of positions beyond. Lookups
  /// compare bytes in the verifier's pool (`find`); keys are hashed only once the table has
  /// more than `listed` of them (most archives never do).
  struct ScalarTable {
    var keys: [Item] = []
    var numbers: [Int] = []
    /// The keys' hashes, once there is a hash table (empty before).
    var hashes: [Int] = []
    /// Position in `keys` plus one, 0 for an empty slot; empty while `keys` is short.
    var slots: [Int] = []

    static let listed = 32

    mutating func reset() {
      keys.removeAll(keepingCapacity: true)
      numbers.removeAll(keepingCapacity: true)
      hashes.removeAll(keepingCapacity: true)
      slots.removeAll(keepingCapacity: true)
    }

    /// Adds `k` (not in the table) as object `number`; `hash` gives a key's hash.
    mutating func add(_ k: Item, _ number: Int, hash: (Item) -> Int) {
      keys.append(k)
      numbers.append(number)
      if keys.count <= Self.listed { return }
      for i in hashes.count..<keys.count { hashes.append(hash(keys[i])) }
      if slots.count < 2 * keys.count {
        slots.removeAll(keepingCapacity: true)
        // A power of two (probes wrap with a mask), at least twice the keys.
        var size = 128
        while size < 4 * keys.count { size *= 2 }
        slots.append(contentsOf: repeatElement(0, count: size))
        for i in keys.indices { place(i) }
      } else {
        place(keys.count - 1)
      }
    }

    private mutating func place(_ i: Int) {
      let mask = slots.count - 1
      var s = hashes[i] & mask
      while slots[s] != 0 { s = (s + 1) & mask }
      slots[s] = i + 1
    }
  }

  func hash(_ k: Item) -> Int { Self.hash(k, pool) }

  static func hash(_ k: Item, _ pool: [UInt8]) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(k.kind.rawValue)
    if k.kind == .string || k.kind == .data {
      pool.withUnsafeBufferPointer { p in
        for i in k.a..<k.a + k.b { h = (h ^ UInt64(p[i])) &* 0x100_0000_01b3 }
      }
    } else {
      h = (h ^ UInt64(bitPattern: Int64(k.a))) &* 0x9E37_79B9_7F4A_7C15
      h ^= h >> 29
    }
    return Int(truncatingIfNeeded: h)
  }

  func same(_ x: Item, _ y: Item) -> Bool {
    guard x.kind == y.kind else { return false }
    if x.kind == .string || x.kind == .data {
      return x.b == y.b
        && (x.b == 0 || pool.withUnsafeBufferPointer { memcmp($0.baseAddress! + x.a, $0.baseAddress! + y.a, x.b) == 0 })
    }
    return x.a == y.a
  }

  func find(_ t: ScalarTable, _ k: Item) -> Int? {
    if t.slots.isEmpty {
      for i in t.keys.indices where same(t.keys[i], k) { return t.numbers[i] }
      return nil
    }
    let mask = t.slots.count - 1
    var s = hash(k) & mask
    while t.slots[s] != 0 {
      if same(t.keys[t.slots[s] - 1], k) { return t.numbers[t.slots[s] - 1] }
      s = (s + 1) & mask
    }
    return nil
  }

  // MARK: - Property list writer (as `PlistWriter`), compared with `blob`

  mutating func write(root: Int) throws(Mismatch) {
    for b in "bplist00".utf8 { try expect(b) }
    let top = try container(0xD0, count: 4)
    for (i, k) in [Constants.versionKey, Constants.objectsKey, Constants.archiverKey, Constants.topKey].enumerated() {
      try patch(top.refs, i, try constant(k))
    }
    try patch(top.refs, 4, try scalar(Item(kind: .integer, a: 100_000), share: true))
    let list = try container(0xA0, count: items.count)
    try patch(top.refs, 5, list.number)
    for i in items.indices { try patch(list.refs, i, try entry(items[i])) }
    try patch(top.refs, 6, try constant(Constants.archiverName))
    let topDictionary = try container(0xD0, count: 1)
    try patch(top.refs, 7, topDictionary.number)
    try patch(topDictionary.refs, 0, try constant(Constants.rootKey))
    try patch(topDictionary.refs, 1, try uid(root))

    guard BinaryPropertyListWriter.byteCount(UInt64(offsets.count)) == refSize else { throw Mismatch() }
    let tableOffset = at
    let offsetSize = BinaryPropertyListWriter.byteCount(UInt64(tableOffset))
    for o in offsets { try expect(UInt64(o), size: offsetSize) }
    try expect(UInt64(offsetSize) << 8 | UInt64(refSize), size: 8)
    try expect(UInt64(offsets.count), size: 8)
    try expect(0, size: 8)
    try expect(UInt64(tableOffset), size: 8)
    guard at == blob.count, at <= TransformableArchive.maximumBytes else { throw Mismatch() }
  }

  /// The property list object of archived object `e`.
  mutating func entry(_ e: Item) throws(Mismatch) -> Int {
    switch e.kind {
    case .null: return try constant(Constants.nullText)
    case .string: return try scalar(e, share: isStructural(e))
    case .integer: return try scalar(e, share: e.a == 100_000)
    case .real: return try scalar(e, share: true)
    case .bool, .data: return try scalar(e, share: false)
    case .nullInstance:
      let d = try container(0xD0, count: 1)
      try patch(d.refs, 0, try constant(Constants.classKey))
      try patch(d.refs, 1, try uid(e.c))
      return d.number
    case .date:
      let d = try container(0xD0, count: 2)
      try patch(d.refs, 0, try constant(Constants.timeField))
      try patch(d.refs, 1, try constant(Constants.classKey))
      try patch(d.refs, 2, try scalar(Item(kind: .real, a: e.a), share: true))
      try patch(d.refs, 3, try uid(e.c))
      return d.number
    case .array:
      let d = try container(0xD0, count: 2)
      try patch(d.refs, 0, try constant(Constants.objectsField))
      try patch(d.refs, 1, try constant(Constants.classKey))
      try patch(d.refs, 2, try uids(e.a, e.b))
      try patch(d.refs, 3, try uid(e.c))
      return d.number
    case .dictionary:
      let d = try container(0xD0, count: 3)
      try patch(d.refs, 0, try constant(Constants.keysField))
      try patch(d.refs, 1, try constant(Constants.objectsField))
      try patch(d.refs, 2, try constant(Constants.classKey))
      try patch(d.refs, 3, try uids(e.a, e.b))
      try patch(d.refs, 4, try uids(e.a + e.b, e.b))
      try patch(d.refs, 5, try uid(e.c))
      return d.number
    case .classDictionary:
      let chain = chains[e.a]
      let d = try container(0xD0, count: 2)
      try patch(d.refs, 0, try constant(Constants.classnameKey))
      try patch(d.refs, 1, try constant(Constants.classesKey))
      try patch(d.refs, 2, try constant(chain[0]))
      let a = try container(0xA0, count: chain.count - 1)
      try patch(d.refs, 3, a.number)
      for i in 1..<chain.count { try patch(a.refs, i - 1, try constant(chain[i])) }
      return d.number
    }
  }

  /// A string starting with "$" or "NS", or "root": one the writer may have added itself.
  func isStructural(_ e: Item) -> Bool {
    pool.withUnsafeBufferPointer { p in
      let u = UnsafeBufferPointer(rebasing: p[e.a..<e.a + e.b])
      return u.first == UInt8(ascii: "$") || (u.count >= 2 && u[0] == UInt8(ascii: "N") && u[1] == UInt8(ascii: "S"))
        || (u.count == 4 && u[0] == UInt8(ascii: "r") && u[1] == UInt8(ascii: "o") && u[2] == UInt8(ascii: "o")
          && u[3] == UInt8(ascii: "t"))
    }
  }

  /// An array of UIDs, one object each, for `refs[start..<start + count]`.
  mutating func uids(_ start: Int, _ count: Int) throws(Mismatch) -> Int {
    let a = try container(0xA0, count: count)
    for i in 0..<count { try patch(a.refs, i, try uid(refs[start + i])) }
    return a.number
  }

  mutating func constant(_ k: Int) throws(Mismatch) -> Int {
    let r = ranges[k]
    // A shared constant's object, once known, is what `find` would give again.
    if r.shared, constantObjects[k] >= 0 { return constantObjects[k] }
    let n = try scalar(Item(kind: .string, a: r.start, b: r.count), share: r.shared)
    if r.shared { constantObjects[k] = n }
    return n
  }

  mutating func newObject() -> Int {
    offsets.append(at)
    return offsets.count - 1
  }

  /// A container of `count` references (a dictionary's `count` keys and as many values),
  /// which are checked by `patch` once known.
  mutating func container(_ marker: UInt8, count: Int) throws(Mismatch) -> (number: Int, refs: Int) {
    let n = newObject()
    try expectMarker(marker, count: count)
    let refs = at
    let size = (marker == 0xD0 ? 2 * count : count) * refSize
    guard size <= blob.count - at else { throw Mismatch() }
    at += size
    return (n, refs)
  }

  /// Checks reference `index` of a container whose references start at `refs` (mutating only so
  /// that arguments that change the verifier do not make the call copy it).
  mutating func patch(_ refs: Int, _ index: Int, _ value: Int) throws(Mismatch) {
    var v = UInt64(value)
    var p = refs + (index + 1) * refSize
    for _ in 0..<refSize {
      p -= 1
      guard blob[p] == UInt8(truncatingIfNeeded: v) else { throw Mismatch() }
      v >>= 8
    }
    guard v == 0 else { throw Mismatch() }
  }

  mutating func uid(_ u: Int) throws(Mismatch) -> Int {
    let n = newObject()
    let size = BinaryPropertyListWriter.byteCount(UInt64(u))
    try expect(0x80 | UInt8(size - 1))
    try expect(UInt64(u), size: size)
    return n
  }

  mutating func scalar(_ e: Item, share: Bool) throws(Mismatch) -> Int {
    if share, let n = find(written, e) { return n }
    let n = newObject()
    switch e.kind {
    case .string: try expectString(e.a, e.b)
    case .integer: try expectInteger(Int64(e.a))
    case .real:
      try expect(0x23)
      try expect(UInt64(UInt(bitPattern: e.a)), size: 8)
    case .bool: try expect(e.a != 0 ? 0x09 : 0x08)
    case .data:
      try expectMarker(0x40, count: e.b)
      try expectPool(e.a, e.b)
    default: throw Mismatch()
    }
    if share {
      let pool = self.pool
      written.add(e, n) { Self.hash($0, pool) }
    }
    return n
  }

  // MARK: - Comparing with `blob`

  mutating func expect(_ b: UInt8) throws(Mismatch) {
    guard at < blob.count, blob[at] == b else { throw Mismatch() }
    at += 1
  }

  /// The low `size` bytes of `value`, big-endian (`size` 0 to 8).
  mutating func expect(_ value: UInt64, size: Int) throws(Mismatch) {
    guard size <= blob.count - at else { throw Mismatch() }
    var found: UInt64 = 0
    for i in 0..<size { found = found << 8 | UInt64(blob[at + i]) }
    let low = size >= 8 ? value : value & ((1 << UInt64(8 * size)) - 1)
    guard found == low else { throw Mismatch() }
    at += size
  }

  mutating func expectInteger(_ value: Int64) throws(Mismatch) {
    let size = value < 0 ? 8 : BinaryPropertyListWriter.byteCount(UInt64(value))
    try expect(0x10 | UInt8(size.trailingZeroBitCount))
    try expect(UInt64(bitPattern: value), size: size)
  }

  mutating func expectMarker(_ high: UInt8, count: Int) throws(Mismatch) {
    if count < 15 {
      try expect(high | UInt8(count))
    } else {
      try expect(high | 0x0F)
      try expectInteger(Int64(count))
    }
  }

  mutating func expectPool(_ start: Int, _ count: Int) throws(Mismatch) {
    guard count <= blob.count - at else { throw Mismatch() }
    let equal = pool.withUnsafeBufferPointer { p in
      count == 0 || memcmp(p.baseAddress! + start, blob.baseAddress! + at, count) == 0
    }
    guard equal else { throw Mismatch() }
    at += count
  }

  /// A string as CoreFoundation writes it: ASCII (`0x5n`) when every byte is, else UTF-16BE.
  mutating func expectString(_ start: Int, _ count: Int) throws(Mismatch) {
    let ascii = pool.withUnsafeBytes {
      TransformableArchive.isASCII(UnsafeRawBufferPointer(rebasing: $0[start..<start + count]))
    }
    if ascii {
      try expectMarker(0x50, count: count)
      return try expectPool(start, count)
    }
    // UTF-16 units: one per UTF-8 lead byte, two for a 4-byte sequence.
    let units = pool.withUnsafeBufferPointer { p in
      var units = 0
      for b in p[start..<start + count] { units += b < 0x80 || (b >= 0xC0 && b < 0xF0) ? 1 : b >= 0xF0 ? 2 : 0 }
      return units
    }
    try expectMarker(0x60, count: units)
    guard 2 * units <= blob.count - at else { throw Mismatch() }
    var i = start
    while i < start + count {
      let b0 = UInt32(pool[i])
      var scalar: UInt32
      var length: Int
      if b0 < 0x80 {
        (scalar, length) = (b0, 1)
      } else if b0 < 0xE0 {
        (scalar, length) = (b0 & 0x1F, 2)
      } else if b0 < 0xF0 {
        (scalar, length) = (b0 & 0x0F, 3)
      } else {
        (scalar, length) = (b0 & 0x07, 4)
      }
      for j in 1..<length { scalar = scalar << 6 | UInt32(pool[i + j] & 0x3F) }
      i += length
      if scalar >= 0x10000 {
        let s = scalar - 0x10000
        try expect(UInt64(0xD800 + (s >> 10)), size: 2)
        try expect(UInt64(0xDC00 + (s & 0x3FF)), size: 2)
      } else {
        try expect(UInt64(scalar), size: 2)
      }
    }
  }

}
