/// Reads Apple's binary property list format (`bplist00`) into a `PropertyListValue`.
///
/// Built for untrusted input: every offset, reference and count is checked against the file
/// before it is used; a container that contains itself (directly or through others) is an error;
/// nesting deeper than `maximumDepth` is an error; objects referenced more than once are decoded
/// once and shared. Nothing traps and nothing runs longer than linear in the file's size times
/// the nesting depth. Format and limits: `Specs/xcmappingmodel-archives.md`.
public enum BinaryPropertyListReader {
  public static let maximumDepth = 512
  public static let maximumSize = 256 << 20

  /// Reads the property list. One that would expand to more than `ExpansionLimits.values`
  /// values or `ExpansionLimits.bytes` bytes of strings and data, counting a shared object at
  /// every place it appears, is an error (`PropertyListError.isExpansionLimit`): readers turn
  /// the value into a tree (JSON, text), so a few kilobytes of arrays each holding the one
  /// below twice would otherwise become gigabytes.
  public static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
    var r = try Parser(bytes)
    return try r.value(r.top, depth: 0)
  }

  /// True when the bytes start with the binary property list magic.
  public static func isBinaryPropertyList(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 8 && Array(bytes[0..<6]) == Array("bplist".utf8)
  }

  struct Parser {
    let bytes: [UInt8]
    let offsetSize: Int
    let refSize: Int
    let count: Int
    let top: Int
    let tableOffset: Int
    var decoded: [Int: PropertyListValue] = [:]
    /// Values and bytes each decoded object expands to (every path to a shared object counted).
    var expansion: [Int: (values: Int, bytes: Int)] = [:]
    var inProgress: Set<Int> = []

    init(_ bytes: [UInt8]) throws(PropertyListError) {
      self.bytes = bytes
      guard bytes.count <= BinaryPropertyListReader.maximumSize else {
        throw PropertyListError(
          offset: 0,
          message:
            "binary property list of \(bytes.count) bytes is larger than the limit of \(BinaryPropertyListReader.maximumSize)"
        )
      }
      guard bytes.count >= 8 + 32 + 1, bytes[0..<6].elementsEqual("bplist".utf8) else {
        throw PropertyListError(
          offset: 0, message: "not a binary property list (no bplist header, or shorter than its trailer)")
      }
      guard bytes[6] == UInt8(ascii: "0") else {
        throw PropertyListError(
          offset: 6,
          message:
            "binary property list version \(String(decoding: bytes[6..<8], as: UTF8.self)) is not supported (only 00)")
      }
      let t = bytes.count - 32
      offsetSize = Int(bytes[t + 6])
      refSize = Int(bytes[t + 7])
      guard [1, 2, 4, 8].contains(offsetSize), [1, 2, 4, 8].contains(refSize) else {
        throw PropertyListError(
          offset: t + 6,
          message: "trailer declares offset size \(offsetSize) and reference size \(refSize); each must be 1, 2, 4 or 8"
        )
      }
      let n = Self.bigEndian(bytes, t + 8, 8)
      let topIndex = Self.bigEndian(bytes, t + 16, 8)
      let table = Self.bigEndian(bytes, t + 24, 8)
      guard n >= 1, n <= UInt64(t) else {
        throw PropertyListError(offset: t + 8, message: "trailer declares \(n) objects, more than the file can hold")
      }
      guard topIndex < n else {
        throw PropertyListError(
          offset: t + 16, message: "top object \(topIndex) is past the object table (\(n) objects)")
      }
      guard table >= 8, table <= UInt64(t), UInt64(t) - table >= n * UInt64(offsetSize) else {
        throw PropertyListError(offset: t + 24, message: "offset table at \(table) does not fit in the file")
      }
      count = Int(n)
      top = Int(topIndex)
      tableOffset = Int(table)
    }

    static func bigEndian(_ b: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
      var v: UInt64 = 0
      for i in 0..<size { v = v << 8 | UInt64(b[at + i]) }
      return v
    }

    /// Offset of object `index`, checked to lie inside the object area.
    func offset(of index: Int) throws(PropertyListError) -> Int {
      let o = Self.bigEndian(bytes, tableOffset + index * offsetSize, offsetSize)
      guard o >= 8, o < UInt64(tableOffset) else {
        throw PropertyListError(
          offset: tableOffset + index * offsetSize, message: "object \(index) has offset \(o), outside the object area")
      }
      return Int(o)
    }

    func need(_ at: Int, _ n: Int, _ what: String) throws(PropertyListError) {
      guard n >= 0, at <= tableOffset, n <= tableOffset - at else {
        throw PropertyListError(offset: at, message: "\(what) of \(n) bytes runs past the object area")
      }
    }

    /// Reads the length that follows a marker whose low nibble is 0xF.
    func length(_ marker: UInt8, at: inout Int) throws(PropertyListError) -> Int {
      let low = Int(marker & 0x0F)
      if low != 0x0F { return low }
      try need(at, 1, "length")
      let m = bytes[at]
      guard m >> 4 == 0x1, m & 0x0F <= 3 else {
        throw PropertyListError(offset: at, message: "length is not an integer (marker 0x\(String(m, radix: 16)))")
      }
      let size = 1 << Int(m & 0x0F)
      try need(at + 1, size, "length")
      let v = Self.bigEndian(bytes, at + 1, size)
      at += 1 + size
      guard v <= UInt64(tableOffset) else {
        throw PropertyListError(offset: at - size - 1, message: "declared length \(v) is larger than the file")
      }
      return Int(v)
    }

    func reference(_ at: Int) throws(PropertyListError) -> Int {
      let r = Self.bigEndian(bytes, at, refSize)
      guard r < UInt64(count) else {
        throw PropertyListError(
          offset: at, message: "object reference \(r) is past the object table (\(count) objects)")
      }
      return Int(r)
    }

    mutating func value(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
      if let v = decoded[index] { return v }
      let start = try offset(of: index)
      guard depth < BinaryPropertyListReader.maximumDepth else {
        throw PropertyListError(
          offset: start, message: "nesting deeper than \(BinaryPropertyListReader.maximumDepth) levels")
      }
      guard !inProgress.contains(index) else {
        throw PropertyListError(offset: start, message: "object \(index) contains itself (a cycle)")
      }
      let marker = bytes[start]
      var at = start + 1
      let v: PropertyListValue
      switch marker >> 4 {
      case 0x0:
        switch marker {
        case 0x00: v = .null
        case 0x08: v = .bool(false)
        case 0x09: v = .bool(true)
        default: throw PropertyListError(offset: start, message: "unknown marker 0x\(String(marker, radix: 16))")
        }
      case 0x1:
        let p = Int(marker & 0x0F)
        guard p <= 4 else { throw PropertyListError(offset: start, message: "integer of 2^\(p) bytes") }
        let size = 1 << p
        try need(at, size, "integer")
        if size == 16 {
          // 128-bit integers: Apple writes them for values above Int64.max; keep the low 64 bits
          // only when the high ones are a sign extension.
          let high = Self.bigEndian(bytes, at, 8)
          let low = Self.bigEndian(bytes, at + 8, 8)
          let signExtension: UInt64 = Int64(bitPattern: low) < 0 ? .max : 0
          guard high == signExtension else {
            throw PropertyListError(offset: start, message: "integer does not fit 64 bits")
          }
          v = .integer(Int64(bitPattern: low))
        } else {
          let raw = Self.bigEndian(bytes, at, size)
          v = .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
        }
      case 0x2:
        let p = Int(marker & 0x0F)
        guard p == 2 || p == 3 else { throw PropertyListError(offset: start, message: "real of 2^\(p) bytes") }
        try need(at, 1 << p, "real")
        let raw = Self.bigEndian(bytes, at, 1 << p)
        v = .real(p == 2 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
      case 0x3:
        guard marker == 0x33 else {
          throw PropertyListError(offset: start, message: "unknown marker 0x\(String(marker, radix: 16))")
        }
        try need(at, 8, "date")
        v = .date(Double(bitPattern: Self.bigEndian(bytes, at, 8)))
      case 0x4:
        let n = try length(marker, at: &at)
        try need(at, n, "data")
        v = .data(Array(bytes[at..<at + n]))
      case 0x5:
        let n = try length(marker, at: &at)
        try need(at, n, "ASCII string")
        guard let s = UTF8Validation.string(bytes[at..<at + n]),
          bytes[at..<at + n].allSatisfy({ $0 < 0x80 })
        else {
          throw PropertyListError(offset: at, message: "ASCII string holds a byte above 0x7F")
        }
        v = .string(s)
      case 0x6:
        let n = try length(marker, at: &at)
        guard n <= Int.max / 2 else { throw PropertyListError(offset: at, message: "string too long") }
        try need(at, 2 * n, "UTF-16 string")
        var units: [UInt16] = []
        units.reserveCapacity(n)
        for i in 0..<n { units.append(UInt16(bytes[at + 2 * i]) << 8 | UInt16(bytes[at + 2 * i + 1])) }
        v = .string(String(decoding: units, as: UTF16.self))
      case 0x8:
        let size = Int(marker & 0x0F) + 1
        guard size <= 8 else { throw PropertyListError(offset: start, message: "UID of \(size) bytes") }
        try need(at, size, "UID")
        v = .uid(Self.bigEndian(bytes, at, size))
      case 0xA, 0xC:
        let n = try length(marker, at: &at)
        guard n <= Int.max / refSize else { throw PropertyListError(offset: at, message: "array too long") }
        try need(at, n * refSize, "array references")
        inProgress.insert(index)
        var items: [PropertyListValue] = []
        items.reserveCapacity(n)
        var size = (values: 1, bytes: 0)
        for i in 0..<n {
          let r = try reference(at + i * refSize)
          items.append(try value(r, depth: depth + 1))
          try grow(&size, by: r, at: start)
        }
        inProgress.remove(index)
        expansion[index] = size
        v = .array(items)
      case 0xD:
        let n = try length(marker, at: &at)
        guard n <= Int.max / (2 * refSize) else { throw PropertyListError(offset: at, message: "dictionary too long") }
        try need(at, 2 * n * refSize, "dictionary references")
        inProgress.insert(index)
        var entries: [PropertyListValue.Entry] = []
        entries.reserveCapacity(n)
        var size = (values: 1, bytes: 0)
        for i in 0..<n {
          let keyAt = at + i * refSize
          let k = try reference(keyAt)
          guard case .string(let key) = try value(k, depth: depth + 1) else {
            throw PropertyListError(offset: keyAt, message: "dictionary key is not a string")
          }
          let r = try reference(at + (n + i) * refSize)
          entries.append(.init(key, try value(r, depth: depth + 1)))
          try grow(&size, by: k, at: start)
          try grow(&size, by: r, at: start)
        }
        inProgress.remove(index)
        expansion[index] = size
        v = .dictionary(entries)
      default:
        throw PropertyListError(offset: start, message: "unknown marker 0x\(String(marker, radix: 16))")
      }
      decoded[index] = v
      return v
    }

    /// Adds what object `child` expands to to `size`, failing past the limits.
    func grow(_ size: inout (values: Int, bytes: Int), by child: Int, at start: Int) throws(PropertyListError) {
      let c: (values: Int, bytes: Int)
      if let e = expansion[child] {
        c = e
      } else {
        switch decoded[child] {
        case .string(let s)?: c = (1, s.utf8.count)
        case .data(let d)?: c = (1, d.count)
        default: c = (1, 0)
        }
      }
      size.values += c.values
      size.bytes += c.bytes
      guard size.values <= ExpansionLimits.values, size.bytes <= ExpansionLimits.bytes else {
        throw PropertyListError(
          offset: start,
          message:
            "the property list expands to more than \(ExpansionLimits.values) values or \(ExpansionLimits.bytes) bytes "
            + "(an object referred to from several places counts at each)",
          isExpansionLimit: true)
      }
    }
  }
}
