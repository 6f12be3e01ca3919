/// Writes a `PropertyListValue` as a binary property list (`bplist00`), laid out the way
/// CoreFoundation's writer lays it out, so that Apple's readers, `BinaryPropertyListReader` and
/// python's `plistlib` all read it back to the same value.
///
/// - Objects are numbered depth-first from the top object (object 0): a dictionary's keys, then
///   its values; an array's elements in order.
/// - Scalars that are the same (strings with the same Unicode scalars, integers, reals and dates
///   with the same bit pattern, data with the same bytes, booleans, UIDs) are written once and
///   referred to from every place they occur; arrays and dictionaries are never shared.
/// - References and offsets use the smallest of 1, 2, 4 or 8 bytes that holds the object count
///   and the offset table's position; integers the smallest of 1, 2, 4 or 8 bytes (negative ones
///   always 8); strings are ASCII (`0x5n`) when every character is, UTF-16BE (`0x6n`) otherwise;
///   counts of 15 and more follow the marker as an integer object.
/// - Reals are always 8 bytes (`0x23`), dictionaries keep their entry order.
///
/// The output depends only on the value. The value is written as a tree: a subvalue that occurs
/// several times is written once per occurrence (scalars excepted). Format and limits:
/// `Specs/xcmappingmodel-archives.md`.
public enum BinaryPropertyListWriter {
  public static func write(_ value: PropertyListValue) -> [UInt8] {
    var layout = Layout()
    layout.flatten(value)
    return layout.encode()
  }

  /// Objects numbered depth-first, and the references each container holds.
  struct Layout {
    enum Object {
      case scalar(PropertyListValue)
      /// References `refs[start..<start + count]`.
      case array(start: Int, count: Int)
      /// Keys `refs[start..<start + count]`, then values `refs[start + count..<start + 2 * count]`.
      case dictionary(start: Int, count: Int)
    }

    var objects: [Object] = []
    var refs: [Int] = []
    var unique: [PropertyListScalarIdentity: Int] = [:]

    /// Numbers the objects of `root` depth-first (iteratively, so that nesting depth does not
    /// use the call stack).
    mutating func flatten(_ root: PropertyListValue) {
      // Each pending value and the slot in `refs` that receives its object number (-1: the top).
      var pending: [(value: PropertyListValue, slot: Int)] = [(root, -1)]
      while let (value, slot) = pending.popLast() {
        let number: Int
        switch value {
        case .array(let items):
          number = objects.count
          let start = refs.count
          refs.append(contentsOf: repeatElement(0, count: items.count))
          objects.append(.array(start: start, count: items.count))
          for (i, item) in items.enumerated().reversed() { pending.append((item, start + i)) }
        case .dictionary(let entries):
          number = objects.count
          let start = refs.count
          let n = entries.count
          refs.append(contentsOf: repeatElement(0, count: 2 * n))
          objects.append(.dictionary(start: start, count: n))
          for (i, entry) in entries.enumerated().reversed() { pending.append((entry.value, start + n + i)) }
          for (i, entry) in entries.enumerated().reversed() { pending.append((.string(entry.key), start + i)) }
        default:
          let identity = PropertyListScalarIdentity(value)!
          if let existing = unique[identity] {
            number = existing
          } else {
            number = objects.count
            unique[identity] = number
            objects.append(.scalar(value))
          }
        }
        if slot >= 0 { refs[slot] = number }
      }
    }

    func encode() -> [UInt8] {
      BinaryPropertyListWriter.objectTable(count: objects.count) { n in
        switch objects[n] {
        case .scalar(let value): .scalar(value)
        case .array(let start, let count): .array(refs[start..<start + count])
        case .dictionary(let start, let count):
          .dictionary(keys: refs[start..<start + count], values: refs[start + count..<start + 2 * count])
        }
      }
    }
  }

  /// One object of a binary property list's object table: a scalar, or a container's
  /// references (object numbers).
  package enum TableObject {
    case scalar(PropertyListValue)
    case array(ArraySlice<Int>)
    case dictionary(keys: ArraySlice<Int>, values: ArraySlice<Int>)
  }

  /// The one writer of an object table (property lists here, keyed archives in
  /// `TransformableArchive`): `bplist00`, objects `0..<count` in number order as `object` gives
  /// them (object 0 the top one), then the offset table and the trailer.
  package static func objectTable(count: Int, _ object: (Int) -> TableObject) -> [UInt8] {
    var out = Array("bplist00".utf8)
    let refSize = byteCount(UInt64(count))
    var offsets: [Int] = []
    offsets.reserveCapacity(count)
    for n in 0..<count {
      offsets.append(out.count)
      switch object(n) {
      case .scalar(let value):
        appendScalar(value, to: &out)
      case .array(let refs):
        appendMarker(0xA0, count: refs.count, to: &out)
        for r in refs { appendBigEndian(UInt64(r), size: refSize, to: &out) }
      case .dictionary(let keys, let values):
        appendMarker(0xD0, count: keys.count, to: &out)
        for r in keys { appendBigEndian(UInt64(r), size: refSize, to: &out) }
        for r in values { appendBigEndian(UInt64(r), size: refSize, to: &out) }
      }
    }
    appendOffsetTableAndTrailer(offsets, referenceSize: refSize, to: &out)
    return out
  }

  /// Ends a property list whose objects start at `offsets` (object 0 the top one): the offset
  /// table, then the trailer (5 unused bytes, sort version, offset size, reference size, object
  /// count, top object, offset table position).
  static func appendOffsetTableAndTrailer(_ offsets: [Int], referenceSize: Int, to out: inout [UInt8]) {
    let tableOffset = out.count
    let offsetSize = byteCount(UInt64(tableOffset))
    for o in offsets { appendBigEndian(UInt64(o), size: offsetSize, to: &out) }
    out.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
    appendBigEndian(UInt64(offsets.count), size: 8, to: &out)
    appendBigEndian(0, size: 8, to: &out)
    appendBigEndian(UInt64(tableOffset), size: 8, to: &out)
  }

  /// The smallest of 1, 2, 4 and 8 bytes that holds `value`.
  static func byteCount(_ value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }

  static func appendBigEndian(_ value: UInt64, size: Int, to out: inout [UInt8]) {
    for i in stride(from: size - 1, through: 0, by: -1) {
      out.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i)))
    }
  }

  /// An integer object: `0x1p` and 2^p big-endian bytes, unsigned for 1, 2 and 4 bytes.
  static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
    let size = value < 0 ? 8 : byteCount(UInt64(value))
    out.append(0x10 | UInt8(size.trailingZeroBitCount))
    appendBigEndian(UInt64(bitPattern: value), size: size, to: &out)
  }

  /// A marker whose low nibble is the count, or 0xF followed by the count as an integer object.
  static func appendMarker(_ high: UInt8, count: Int, to out: inout [UInt8]) {
    if count < 15 {
      out.append(high | UInt8(count))
    } else {
      out.append(high | 0x0F)
      appendInteger(Int64(count), to: &out)
    }
  }

  static func appendScalar(_ value: PropertyListValue, to out: inout [UInt8]) {
    switch value {
    case .null:
      out.append(0x00)
    case .bool(let b):
      out.append(b ? 0x09 : 0x08)
    case .integer(let i):
      appendInteger(i, to: &out)
    case .real(let d):
      out.append(0x23)
      appendBigEndian(d.bitPattern, size: 8, to: &out)
    case .date(let d):
      out.append(0x33)
      appendBigEndian(d.bitPattern, size: 8, to: &out)
    case .data(let bytes):
      appendMarker(0x40, count: bytes.count, to: &out)
      out.append(contentsOf: bytes)
    case .string(let s):
      if s.utf8.allSatisfy({ $0 < 0x80 }) {
        appendMarker(0x50, count: s.utf8.count, to: &out)
        out.append(contentsOf: s.utf8)
      } else {
        appendMarker(0x60, count: s.utf16.count, to: &out)
        for unit in s.utf16 {
          out.append(UInt8(truncatingIfNeeded: unit >> 8))
          out.append(UInt8(truncatingIfNeeded: unit))
        }
      }
    case .uid(let u):
      let size = byteCount(u)
      out.append(0x80 | UInt8(size - 1))
      appendBigEndian(u, size: size, to: &out)
    case .array, .dictionary:
      preconditionFailure("containers are not scalars")
    }
  }
}

/// What makes two scalar property list values the same object when written: strings compare
/// by their Unicode scalars (not by Swift's canonical equivalence), reals and dates by their bit
/// patterns (so 0.0 and -0.0 stay apart and a NaN equals itself). Arrays and dictionaries have
/// no identity (nil): they are never shared.
package enum PropertyListScalarIdentity: Hashable, Sendable {
  case string([UInt8])
  case data([UInt8])
  case integer(Int64)
  case real(UInt64)
  case bool(Bool)
  case date(UInt64)
  case uid(UInt64)
  case null

  package init?(_ value: PropertyListValue) {
    switch value {
    case .string(let s): self = .string(Array(s.utf8))
    case .data(let d): self = .data(d)
    case .integer(let i): self = .integer(i)
    case .real(let r): self = .real(r.bitPattern)
    case .bool(let b): self = .bool(b)
    case .date(let d): self = .date(d.bitPattern)
    case .uid(let u): self = .uid(u)
    case .null: self = .null
    case .array, .dictionary: return nil
    }
  }
}
