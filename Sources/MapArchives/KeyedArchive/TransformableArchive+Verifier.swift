#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension TransformableArchive {
  /// Decides what `(try? encode(value)) == blob` decides, without building the archive: the
  /// archiver's objects are numbered into flat arrays kept from one call to the next, equal
  /// strings and data found by their bytes in one pool, and the property list is compared with
  /// `blob` while it is laid out (no output buffer). A container's references are checked when
  /// they are known, after its place in `blob` has been passed; the reference size is taken
  /// from `blob`'s trailer, and must be the one `encode` would choose. Stops at the first
  /// difference. One verifier per thread (`blob` is set only during `matches`).
  public struct Verifier: @unchecked Sendable {
    enum Kind: UInt8 {
      case null, string, integer, real, bool, data, nullInstance, date, array, dictionary, classDictionary
    }

    /// An archived object (`null`: `$null`): for a string or data the range `a..<a + b` of `pool`; for a
    /// number or boolean its bits in `a`; for an instance its class's object in `c` (and a
    /// date's time bits in `a`, an array's references `refs[a..<a + b]`, a dictionary's keys
    /// `refs[a..<a + b]` then values); for a class dictionary the class in `a`.
    struct Item {
      var kind: Kind
      var a: Int
      var b: Int = 0
      var c: Int = 0
    }

    struct Mismatch: Error {}

    /// Strings and data, after the constant strings (`Constants`).
    var pool: [UInt8]
    var items: [Item] = []
    var refs: [Int] = []
    /// Plain objects the archiver shares, and objects the property list writer shares.
    var archived = ScalarTable()
    var written = ScalarTable()
    /// Per class of `Constants.classNames`, its class dictionary's object (-1: none yet).
    var classObjects = [-1, -1, -1, -1]
    var nullObject = -1
    /// Per constant of `Constants.shared`, its object in the property list once written (-1:
    /// not yet), for the shared ones.
    var constantObjects: [Int]
    var offsets: [Int] = []
    var blob = UnsafeRawBufferPointer(start: nil, count: 0)
    var at = 0
    var refSize = 1

    /// `Constants.shared`'s, kept here so that reading them takes no lock or reference.
    let constantCount: Int
    let ranges: [(start: Int, count: Int, shared: Bool)]
    let chains: [[Int]]

    public init() {
      pool = Constants.shared.bytes
      constantCount = pool.count
      ranges = Constants.shared.ranges
      constantObjects = [Int](repeating: -1, count: ranges.count)
      chains = Constants.shared.chains
    }

    /// True when `encode(value)` would give exactly `blob`.
    public mutating func matches(_ value: ArchivedValue, _ blob: UnsafeRawBufferPointer) -> Bool {
      guard blob.count >= 8 + 32 else { return false }
      let size = Int(blob[blob.count - 32 + 7])
      guard size == 1 || size == 2 || size == 4 || size == 8 else { return false }
      pool.removeSubrange(constantCount...)
      items.removeAll(keepingCapacity: true)
      items.append(Item(kind: .null, a: 0))  // `$null`
      refs.removeAll(keepingCapacity: true)
      archived.reset()
      written.reset()
      for k in classObjects.indices { classObjects[k] = -1 }
      for k in constantObjects.indices { constantObjects[k] = -1 }
      nullObject = -1
      offsets.removeAll(keepingCapacity: true)
      self.blob = blob
      at = 0
      refSize = size
      defer { self.blob = UnsafeRawBufferPointer(start: nil, count: 0) }
      do throws(Mismatch) {
        let root = try archive(value, depth: 0)
        try write(root: root)
        return true
      } catch {
        return false
      }
    }

    /// `matches` for an array's bytes.
    public mutating func matches(_ value: ArchivedValue, _ blob: [UInt8]) -> Bool {
      blob.withUnsafeBytes { matches(value, $0) }
    }

    // MARK: - Archiver (as `Archiver.encode`)

    mutating func add(_ item: Item) throws(Mismatch) -> Int {
      guard items.count < TransformableArchive.maximumObjects else { throw Mismatch() }
      items.append(item)
      return items.count - 1
    }

    mutating func classObject(_ k: Int) throws(Mismatch) -> Int {
      if classObjects[k] >= 0 { return classObjects[k] }
      let u = try add(Item(kind: .classDictionary, a: k))
      classObjects[k] = u
      return u
    }

    mutating func archive(_ v: ArchivedValue, depth: Int) throws(Mismatch) -> Int {
      guard depth <= TransformableArchive.maximumDepth else { throw Mismatch() }
      let item: Item
      switch v {
      case .string(let s): return try archiveString(s)
      case .integer(let i): item = Item(kind: .integer, a: Int(i))
      case .real(let d):
        guard d.isFinite else { throw Mismatch() }
        item = Item(kind: .real, a: Int(bitPattern: UInt(d.bitPattern)))
      case .bool(let b): item = Item(kind: .bool, a: b ? 1 : 0)
      case .data(let d):
        item = Item(kind: .data, a: pool.count, b: d.count)
        pool.append(contentsOf: d)
      case .null:
        if nullObject >= 0 { return nullObject }
        let slot = try add(Item(kind: .nullInstance, a: 0))
        items[slot].c = try classObject(Constants.nullClass)
        nullObject = slot
        return slot
      case .date(let t):
        guard t.isFinite else { throw Mismatch() }
        let slot = try add(Item(kind: .date, a: Int(bitPattern: UInt(t.bitPattern))))
        items[slot].c = try classObject(Constants.dateClass)
        return slot
      case .array(let elements):
        let slot = try add(Item(kind: .array, a: refs.count, b: elements.count))
        let start = refs.count
        refs.append(contentsOf: repeatElement(0, count: elements.count))
        for i in elements.indices { refs[start + i] = try archive(elements[i], depth: depth + 1) }
        items[slot].c = try classObject(Constants.arrayClass)
        return slot
      case .dictionary(let pairs):
        let n = pairs.count
        let slot = try add(Item(kind: .dictionary, a: refs.count, b: n))
        let start = refs.count
        refs.append(contentsOf: repeatElement(0, count: 2 * n))
        for i in pairs.indices {
          guard depth + 1 <= TransformableArchive.maximumDepth else { throw Mismatch() }
          refs[start + i] = try archiveString(pairs[i].key)
        }
        for i in pairs.indices { refs[start + n + i] = try archive(pairs[i].value, depth: depth + 1) }
        items[slot].c = try classObject(Constants.dictionaryClass)
        return slot
      }
      return try share(item)
    }

    mutating func archiveString(_ s: String) throws(Mismatch) -> Int {
      let start = pool.count
      pool.append(contentsOf: s.utf8)
      return try share(Item(kind: .string, a: start, b: pool.count - start))
    }

    /// The object of a plain value: one equal to it archived before, else a new one.
    mutating func share(_ item: Item) throws(Mismatch) -> Int {
      if let u = find(archived, item) {
        if item.kind == .string || item.kind == .data { pool.removeSubrange(item.a...) }
        return u
      }
      let u = try add(item)
      let pool = self.pool
      archived.add(item, u) { Self.hash($0, pool) }
      return u
    }
  }
}
