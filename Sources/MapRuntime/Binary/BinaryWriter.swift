/// Appends little-endian binary values to a byte buffer: fixed-width integers, LEB128 varints
/// (signed ones zigzag-encoded), IEEE 754 doubles, booleans, length-prefixed byte strings.
///
/// The plan writer (`MapCompiler`) and `BinaryReader` agree on these encodings; they are
/// specified in `Specs/plan-format.md` §2.
package struct BinaryWriter: Sendable {
  package private(set) var bytes: [UInt8]

  package init(reservingCapacity capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  package var count: Int { bytes.count }

  package mutating func writeU8(_ value: UInt8) { bytes.append(value) }

  package mutating func writeU16(_ value: UInt16) {
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
  }

  package mutating func writeU64(_ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }

  /// Unsigned LEB128: seven bits per byte, least significant group first, high bit set on every
  /// byte but the last. Always the shortest form (at most 10 bytes).
  package mutating func writeVarUInt(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  /// Zigzag (0, -1, 1, -2, … ↦ 0, 1, 2, 3, …) then unsigned LEB128.
  package mutating func writeVarInt(_ value: Int64) {
    writeVarUInt(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  package mutating func writeInt(_ value: Int) { writeVarInt(Int64(value)) }

  /// A non-negative count or length.
  package mutating func writeCount(_ value: Int) {
    precondition(value >= 0, "negative count")
    writeVarUInt(UInt64(value))
  }

  package mutating func writeBool(_ value: Bool) { bytes.append(value ? 1 : 0) }

  /// The IEEE 754 bit pattern, as a little-endian u64 (NaN payloads and -0.0 are kept).
  package mutating func writeDouble(_ value: Double) { writeU64(value.bitPattern) }

  /// Bytes as they are, with no length.
  package mutating func writeRaw(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

  /// A varint length, then the bytes.
  package mutating func writeBytes(_ raw: [UInt8]) {
    writeCount(raw.count)
    bytes.append(contentsOf: raw)
  }

  /// A varint byte length, then the UTF-8 bytes.
  package mutating func writeString(_ string: String) { writeBytes(Array(string.utf8)) }
}
