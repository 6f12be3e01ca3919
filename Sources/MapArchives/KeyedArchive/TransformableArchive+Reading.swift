extension TransformableArchive {
  /// The value an `NSKeyedArchiver` archive of property-list classes holds, or nil for any
  /// other bytes: not a binary property list, not a keyed archive, a class other than those
  /// of `ArchivedValue` (or their mutable forms; sets and ordered sets are read as arrays), a
  /// reference out of range, an object that
  /// contains itself, nesting deeper than `maximumDepth`, more than `maximumObjects` values
  /// (counting every path to a shared object, so an archive built to blow up when expanded
  /// stops early), or more than `maximumBytes` bytes. Never traps, linear in the archive's size
  /// bounded by `maximumObjects`.
  ///
  /// The objects are read straight from the bytes (no `PropertyListValue` tree): Core Data
  /// stores hold hundreds of thousands of small archives.
  public static func decode(_ bytes: [UInt8]) -> ArchivedValue? {
    bytes.withUnsafeBytes { decode($0) }
  }

  /// `decode` of bytes in place.
  public static func decode(_ bytes: UnsafeRawBufferPointer) -> ArchivedValue? {
    guard bytes.count <= maximumBytes, let base = bytes.baseAddress else { return nil }
    let b = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    guard let view = PlistView(b) else { return nil }
    var reader = Reader(view: view)
    return reader.archive()
  }

  /// `decode` that also says where each string of the value lies in `bytes`, in the order the
  /// value's strings come when walked depth first (an array's elements in order; a
  /// dictionary's keys, then its values): two entries per string, its first byte and its
  /// length, for a string stored as ASCII bytes, or -1 and 0 for one stored otherwise (UTF-16,
  /// inline). `spans` is emptied first, its storage reused.
  ///
  /// With `textAtSpans`, a string stored as ASCII bytes that is not a dictionary's key comes
  /// back empty (`.string("")`): its text is the bytes at its span, and a caller that takes it
  /// from there (a mapping's view, `ArchivedBlobCodec`) saves making a string of each.
  public static func decode(
    _ bytes: UnsafeRawBufferPointer, stringSpans spans: inout [Int], textAtSpans: Bool = false
  ) -> ArchivedValue? {
    spans.removeAll(keepingCapacity: true)
    guard bytes.count <= maximumBytes, let base = bytes.baseAddress else { return nil }
    let b = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    guard let view = PlistView(b) else { return nil }
    var reader = Reader(view: view)
    reader.recordsSpans = true
    reader.textAtSpans = textAtSpans
    swap(&reader.spans, &spans)
    defer { swap(&reader.spans, &spans) }
    return reader.archive()
  }

  /// A binary property list's objects, read in place. Every offset, reference and length is
  /// checked against the buffer; nothing here traps on bad input.
  struct PlistView {
    let b: UnsafeBufferPointer<UInt8>
    let offsetSize: Int
    let refSize: Int
    let count: Int
    let top: Int
    let table: Int

    enum Object {
      case string(String)
      case integer(Int64)
      case real(Double)
      case bool(Bool)
      case data([UInt8])
      case uid(Int)
      case array(refs: Int, count: Int)
      case dictionary(refs: Int, count: Int)
      case other
    }

    init?(_ b: UnsafeBufferPointer<UInt8>) {
      self.b = b
      guard b.count >= 8 + 32 + 1, b[0] == 0x62, b[1] == 0x70, b[2] == 0x6C, b[3] == 0x69, b[4] == 0x73, b[5] == 0x74,
        b[6] == 0x30, b[7] == 0x30
      else { return nil }
      let t = b.count - 32
      offsetSize = Int(b[t + 6])
      refSize = Int(b[t + 7])
      guard offsetSize == 1 || offsetSize == 2 || offsetSize == 4 || offsetSize == 8,
        refSize == 1 || refSize == 2 || refSize == 4 || refSize == 8
      else { return nil }
      let n = Self.number(b, t + 8, 8)
      let topIndex = Self.number(b, t + 16, 8)
      let tableOffset = Self.number(b, t + 24, 8)
      guard n >= 1, n <= UInt64(t), topIndex < n, tableOffset >= 8, tableOffset <= UInt64(t),
        (UInt64(t) - tableOffset) / UInt64(offsetSize) >= n
      else { return nil }
      count = Int(n)
      top = Int(topIndex)
      table = Int(tableOffset)
    }

    @inline(__always) static func number(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ size: Int) -> UInt64 {
      var v: UInt64 = 0
      for i in 0..<size { v = v << 8 | UInt64(b[at + i]) }
      return v
    }

    /// The object number stored at byte `at` (a reference), checked.
    func reference(at: Int) -> Int? {
      guard at >= 0, at <= table - refSize else { return nil }
      let r = Self.number(b, at, refSize)
      return r < UInt64(count) ? Int(r) : nil
    }

    /// A length: the marker's low nibble, or the integer object after it.
    private func length(_ marker: UInt8, _ at: inout Int) -> Int? {
      let low = Int(marker & 0x0F)
      if low != 0x0F { return low }
      guard at < table else { return nil }
      let m = b[at]
      guard m >> 4 == 1, m & 0x0F <= 3 else { return nil }
      let size = 1 << Int(m & 0x0F)
      guard at + 1 + size <= table else { return nil }
      let v = Self.number(b, at + 1, size)
      at += 1 + size
      return v <= UInt64(table) ? Int(v) : nil
    }

    func object(_ index: Int) -> Object? {
      guard index >= 0, index < count else { return nil }
      let o = Self.number(b, table + index * offsetSize, offsetSize)
      guard o >= 8, o < UInt64(table) else { return nil }
      var at = Int(o)
      let marker = b[at]
      at += 1
      switch marker >> 4 {
      case 0x0:
        switch marker {
        case 0x08: return .bool(false)
        case 0x09: return .bool(true)
        default: return .other
        }
      case 0x1:
        let size = 1 << Int(marker & 0x0F)
        guard size <= 8, at + size <= table else { return .other }
        let raw = Self.number(b, at, size)
        return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
      case 0x2:
        // An 8-byte real, or a 4-byte one (an `NSNumber` of a `float`), as its double.
        if marker == 0x22, at + 4 <= table { return .real(Double(Float(bitPattern: UInt32(Self.number(b, at, 4))))) }
        guard marker == 0x23, at + 8 <= table else { return .other }
        return .real(Double(bitPattern: Self.number(b, at, 8)))
      case 0x4:
        guard let n = length(marker, &at), at + n <= table else { return nil }
        return .data(Array(b[at..<at + n]))
      case 0x5:
        guard let span = asciiSpan(index) else { return nil }
        return .string(
          String(decoding: UnsafeBufferPointer(rebasing: b[span.start..<span.start + span.count]), as: UTF8.self))
      case 0x6:
        guard let n = length(marker, &at), n <= (table - at) / 2 else { return nil }
        // Lone surrogates would come back as U+FFFD: such a string is not taken as text.
        guard let text = Self.utf16BigEndian(b, at, n) else { return nil }
        return .string(text)
      case 0x8:
        let size = Int(marker & 0x0F) + 1
        guard size <= 8, at + size <= table else { return nil }
        let u = Self.number(b, at, size)
        return u < UInt64(Int32.max) ? .uid(Int(u)) : nil
      case 0xA:
        guard let n = length(marker, &at), n <= (table - at) / refSize else { return nil }
        return .array(refs: at, count: n)
      case 0xD:
        guard let n = length(marker, &at), n <= (table - at) / (2 * refSize) else { return nil }
        return .dictionary(refs: at, count: n)
      default:
        return .other
      }
    }

    /// `count` UTF-16 code units, big-endian, from byte `at`, as a string; nil when a
    /// surrogate is unpaired. Transcoded straight to UTF-8 (the standard library's validating
    /// UTF-16 initializer is generic and several times slower).
    static func utf16BigEndian(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> String? {
      var paired = true
      // At most 3 UTF-8 bytes per unit (a pair of units gives 4).
      let text = String(unsafeUninitializedCapacity: 3 * count) { out -> Int in
        var w = 0
        var i = 0
        func unit(_ k: Int) -> UInt32 { UInt32(b[at + 2 * k]) << 8 | UInt32(b[at + 2 * k + 1]) }
        while i < count {
          var scalar = unit(i)
          i += 1
          if scalar >= 0xD800 && scalar < 0xE000 {
            guard scalar < 0xDC00, i < count, case let low = unit(i), low >= 0xDC00 && low < 0xE000 else {
              paired = false
              return 0
            }
            i += 1
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          w += UTF8Encoding.write(scalar, to: out.baseAddress! + w)
        }
        return w
      }
      return paired ? text : nil
    }

    /// Where the bytes of object `index` lie when it is a string stored as ASCII bytes (the
    /// checks `object` makes of one): its first byte and length; nil otherwise.
    func asciiSpan(_ index: Int) -> (start: Int, count: Int)? {
      guard index >= 0, index < count else { return nil }
      let o = Self.number(b, table + index * offsetSize, offsetSize)
      guard o >= 8, o < UInt64(table) else { return nil }
      var at = Int(o)
      let marker = b[at]
      guard marker >> 4 == 0x5 else { return nil }
      at += 1
      guard let n = length(marker, &at), at + n <= table,
        TransformableArchive.isASCII(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: b[at..<at + n])))
      else { return nil }
      return (at, n)
    }

    /// True when object `index` is the ASCII string `text`.
    func isASCII(_ index: Int, _ text: StaticString) -> Bool {
      let o = Self.number(b, table + index * offsetSize, offsetSize)
      let n = text.utf8CodeUnitCount
      guard n < 15, o >= 8, o < UInt64(table), Int(o) + 1 + n <= table, b[Int(o)] == 0x50 | UInt8(n) else {
        return false
      }
      let at = Int(o) + 1
      let p = text.utf8Start
      for i in 0..<n where b[at + i] != p[i] { return false }
      return true
    }

    /// The value of `key` in the dictionary object whose references start at `refs`.
    func field(_ key: StaticString, refs: Int, count: Int) -> Object? {
      for i in 0..<count {
        guard let k = reference(at: refs + i * refSize), isASCII(k, key) else { continue }
        guard let v = reference(at: refs + (count + i) * refSize) else { return nil }
        return object(v)
      }
      return nil
    }
  }

  /// Walks `$objects` from `$top.root`.
  struct Reader {
    let view: PlistView
    var objectsRefs = 0
    var objectsCount = 0
    var budget = TransformableArchive.maximumObjects
    var inProgress: Set<Int> = []
    /// Whether `spans` is kept (`decode(_:stringSpans:)`).
    var recordsSpans = false
    var spans: [Int] = []
    /// Whether ASCII strings other than keys are left empty (`decode(_:stringSpans:textAtSpans:)`).
    var textAtSpans = false

    init(view: PlistView) { self.view = view }

    /// Records where the string of object `r` (a plist object number) lies, or that it is not
    /// in place (nil).
    mutating func recordSpan(_ r: Int?) {
      guard recordsSpans else { return }
      if let r, let span = view.asciiSpan(r) {
        spans.append(span.start)
        spans.append(span.count)
      } else {
        spans.append(-1)
        spans.append(0)
      }
    }

    /// The plist object number of `$objects[uid]`.
    func entryReference(_ uid: Int) -> Int? {
      guard uid >= 0, uid < objectsCount else { return nil }
      return view.reference(at: objectsRefs + uid * view.refSize)
    }

    mutating func archive() -> ArchivedValue? {
      guard case .dictionary(let refs, let n)? = view.object(view.top) else { return nil }
      guard case .string("NSKeyedArchiver")? = view.field("$archiver", refs: refs, count: n),
        case .array(let objects, let count)? = view.field("$objects", refs: refs, count: n), count >= 2,
        count <= TransformableArchive.maximumObjects,
        case .dictionary(let topRefs, let topCount)? = view.field("$top", refs: refs, count: n),
        case .uid(let root)? = view.field("root", refs: topRefs, count: topCount)
      else { return nil }
      objectsRefs = objects
      objectsCount = count
      return value(root, depth: 0)
    }

    /// `$objects[uid]`.
    func entry(_ uid: Int) -> PlistView.Object? {
      guard uid >= 0, uid < objectsCount, let r = view.reference(at: objectsRefs + uid * view.refSize) else {
        return nil
      }
      return view.object(r)
    }

    /// The archived object `uid` as a value; `$null` (nil) is not a value here. `key`: the
    /// value is a dictionary's key (its text is always made).
    mutating func value(_ uid: Int, depth: Int, key: Bool = false) -> ArchivedValue? {
      budget -= 1
      guard budget >= 0, depth <= TransformableArchive.maximumDepth, uid != 0, let r = entryReference(uid) else {
        return nil
      }
      if textAtSpans, !key, let span = view.asciiSpan(r) {
        // The string `view.object(r)` would make, left at its span.
        spans.append(span.start)
        spans.append(span.count)
        return .string("")
      }
      guard let o = view.object(r) else { return nil }
      switch o {
      case .string(let s):
        recordSpan(r)
        return .string(s)
      case .integer(let i): return .integer(i)
      case .real(let d): return .real(d)
      case .bool(let b): return .bool(b)
      case .data(let d): return .data(d)
      case .dictionary(let refs, let n):
        guard inProgress.insert(uid).inserted else { return nil }
        defer { inProgress.remove(uid) }
        return instance(refs, n, depth: depth)
      default: return nil
      }
    }

    mutating func instance(_ refs: Int, _ n: Int, depth: Int) -> ArchivedValue? {
      guard case .uid(let c)? = view.field("$class", refs: refs, count: n),
        case .dictionary(let classRefs, let classCount)? = entry(c),
        case .string(let name)? = view.field("$classname", refs: classRefs, count: classCount)
      else { return nil }
      switch name {
      case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
        // A set is its members in the archive's order (a mapping sees a collection; mapc's
        // writer archives an NSArray, so such an archive is never written back from its value).
        guard case .array(let items, let count)? = view.field("NS.objects", refs: refs, count: n) else { return nil }
        return elements(items, count, depth: depth).map(ArchivedValue.array)
      case "NSDictionary", "NSMutableDictionary":
        guard case .array(let keyRefs, let keyCount)? = view.field("NS.keys", refs: refs, count: n),
          case .array(let valueRefs, let valueCount)? = view.field("NS.objects", refs: refs, count: n),
          keyCount == valueCount,
          let keys = elements(keyRefs, keyCount, depth: depth, keys: true),
          let values = elements(valueRefs, valueCount, depth: depth)
        else { return nil }
        var entries: [ArchivedValue.Entry] = []
        entries.reserveCapacity(keyCount)
        for (k, v) in zip(keys, values) {
          guard case .string(let key) = k else { return nil }
          entries.append(.init(key, v))
        }
        return .dictionary(entries)
      case "NSString", "NSMutableString":
        switch view.field("NS.string", refs: refs, count: n) {
        case .string(let s)?:
          recordSpan(nil)
          return .string(s)
        case .uid(let u)?:
          guard let r = entryReference(u), case .string(let s)? = view.object(r) else { return nil }
          recordSpan(r)
          return .string(s)
        default: return nil
        }
      case "NSDate":
        guard case .real(let t)? = view.field("NS.time", refs: refs, count: n) else { return nil }
        return .date(t)
      case "NSData", "NSMutableData":
        guard case .data(let d)? = view.field("NS.data", refs: refs, count: n) else { return nil }
        return .data(d)
      case "NSNull":
        return .null
      default:
        return nil
      }
    }

    /// The elements of an `NS.objects`/`NS.keys` array: references to archived objects.
    mutating func elements(_ refs: Int, _ count: Int, depth: Int, keys: Bool = false) -> [ArchivedValue]? {
      guard count <= budget else { return nil }
      var items: [ArchivedValue] = []
      items.reserveCapacity(count)
      for i in 0..<count {
        guard let r = view.reference(at: refs + i * view.refSize), case .uid(let u)? = view.object(r),
          let v = value(u, depth: depth + 1, key: keys)
        else { return nil }
        items.append(v)
      }
      return items
    }
  }
}

extension TransformableArchive {
  /// True when every byte is below 0x80, read eight at a time.
  static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var i = 0
    var high: UInt64 = 0
    while i + 8 <= bytes.count {
      high |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      i += 8
    }
    while i < bytes.count {
      high |= UInt64(bytes[i])
      i += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }
}
