import MapArchives

/// Why a `BinaryReader` read failed: the absolute byte offset and what was wrong there.
package struct BinaryReadError: Error, Sendable, Hashable {
  package var offset: Int
  package var message: String
  /// True when the input ended before a value was complete.
  package var isEndOfInput: Bool

  package init(offset: Int, message: String, isEndOfInput: Bool = false) {
    self.offset = offset
    self.message = message
    self.isEndOfInput = isEndOfInput
  }
}

/// Reads what `BinaryWriter` writes, from a window `[offset, end)` of a byte array.
///
/// Built for hostile input: every read checks the bytes left in the window and throws instead
/// of trapping; varints must be in their shortest form and fit 64 bits; counts are checked
/// against the bytes left before anything is allocated. Offsets in errors are absolute
/// positions in `bytes`.
package struct BinaryReader: Sendable {
  package let bytes: [UInt8]
  package private(set) var offset: Int
  package let end: Int

  package init(_ bytes: [UInt8], offset: Int = 0, end: Int? = nil) {
    self.bytes = bytes
    let e = min(max(end ?? bytes.count, 0), bytes.count)
    self.end = e
    self.offset = min(max(offset, 0), e)
  }

  package var remaining: Int { end - offset }
  package var isAtEnd: Bool { offset == end }

  package func error(_ message: String, at position: Int? = nil) -> BinaryReadError {
    BinaryReadError(offset: position ?? offset, message: message)
  }

  private func need(_ n: Int, _ what: String) throws(BinaryReadError) {
    if n > remaining {
      throw BinaryReadError(
        offset: offset,
        message: "\(what) needs \(n) byte\(n == 1 ? "" : "s") but only \(remaining) remain",
        isEndOfInput: true)
    }
  }

  package mutating func readU8(_ what: String = "byte") throws(BinaryReadError) -> UInt8 {
    try need(1, what)
    defer { offset += 1 }
    return bytes[offset]
  }

  package mutating func readU16(_ what: String = "u16") throws(BinaryReadError) -> UInt16 {
    try need(2, what)
    defer { offset += 2 }
    return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
  }

  package mutating func readU64(_ what: String = "u64") throws(BinaryReadError) -> UInt64 {
    try need(8, what)
    var value: UInt64 = 0
    for i in 0..<8 { value |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
    offset += 8
    return value
  }

  /// Unsigned LEB128 in its shortest form, at most 10 bytes, value below 2^64.
  package mutating func readVarUInt(_ what: String = "varint") throws(BinaryReadError) -> UInt64 {
    let start = offset
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < end else {
        throw BinaryReadError(
          offset: start, message: "\(what) runs past the end of its section", isEndOfInput: true)
      }
      let byte = bytes[offset]
      offset += 1
      let group = UInt64(byte & 0x7f)
      if shift == 63 && group > 1 {
        throw error("\(what) does not fit in 64 bits", at: start)
      }
      value |= group << shift
      if byte & 0x80 == 0 {
        if byte == 0 && shift > 0 {
          throw error("\(what) is not in its shortest form", at: start)
        }
        return value
      }
      shift += 7
      if shift > 63 { throw error("\(what) is longer than 10 bytes", at: start) }
    }
  }

  /// Zigzag-encoded signed LEB128.
  package mutating func readVarInt(_ what: String = "signed varint") throws(BinaryReadError) -> Int64 {
    let u = try readVarUInt(what)
    return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
  }

  package mutating func readInt(_ what: String = "integer") throws(BinaryReadError) -> Int {
    let start = offset
    let v = try readVarInt(what)
    guard let i = Int(exactly: v) else { throw error("\(what) \(v) does not fit in Int", at: start) }
    return i
  }

  /// A count of things that each take at least `minimumElementSize` bytes; refused when the
  /// bytes left could not hold that many.
  package mutating func readCount(_ what: String = "count", minimumElementSize: Int = 1)
    throws(BinaryReadError) -> Int
  {
    let start = offset
    let v = try readVarUInt(what)
    let limit = UInt64(remaining / max(minimumElementSize, 1))
    if v > limit {
      throw BinaryReadError(
        offset: start, message: "\(what) \(v) is more than the \(remaining) bytes left can hold")
    }
    return Int(v)
  }

  package mutating func readBool(_ what: String = "boolean") throws(BinaryReadError) -> Bool {
    let start = offset
    switch try readU8(what) {
    case 0: return false
    case 1: return true
    case let b: throw error("\(what) must be 0 or 1, found \(b)", at: start)
    }
  }

  package mutating func readDouble(_ what: String = "double") throws(BinaryReadError) -> Double {
    Double(bitPattern: try readU64(what))
  }

  /// `n` bytes as they are.
  package mutating func readRaw(_ n: Int, _ what: String = "bytes") throws(BinaryReadError) -> [UInt8] {
    guard n >= 0 else { throw error("negative length for \(what)") }
    try need(n, what)
    defer { offset += n }
    return Array(bytes[offset..<offset + n])
  }

  /// A varint length, then that many bytes.
  package mutating func readBytes(_ what: String = "byte string") throws(BinaryReadError) -> [UInt8] {
    let n = try readCount("length of \(what)")
    return try readRaw(n, what)
  }

  /// A varint length, then that many bytes of well-formed UTF-8.
  package mutating func readString(_ what: String = "string") throws(BinaryReadError) -> String {
    let start = offset
    let raw = try readBytes(what)
    guard let s = UTF8Validation.string(raw) else {
      throw error("\(what) is not valid UTF-8", at: start)
    }
    return s
  }

  /// Splits off the next `length` bytes as a reader of their own and skips them here.
  package mutating func subReader(length: Int, _ what: String) throws(BinaryReadError) -> BinaryReader {
    try need(length, what)
    let sub = BinaryReader(bytes, offset: offset, end: offset + length)
    offset += length
    return sub
  }

  /// Throws unless every byte of the window was read.
  package func expectEnd(_ what: String) throws(BinaryReadError) {
    if !isAtEnd {
      throw error("\(remaining) unread byte\(remaining == 1 ? "" : "s") at the end of \(what)")
    }
  }
}
