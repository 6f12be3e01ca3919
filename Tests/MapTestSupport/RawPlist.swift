/// Lays out binary property lists byte by byte, for hostile-input tests that need files no
/// writer would produce.
public enum RawPlist {
  public static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - $0))) }
  }

  /// `bplist00`, the objects as given, the offset table and the trailer. Each override replaces
  /// the honest value in the trailer or the table.
  public static func make(
    _ objects: [[UInt8]], top: UInt64 = 0, refSize: Int = 1, offsetSize: Int? = nil,
    count: UInt64? = nil, tableOffset: UInt64? = nil, offsets: [UInt64]? = nil
  ) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var honest: [UInt64] = []
    for o in objects {
      honest.append(UInt64(bytes.count))
      bytes += o
    }
    let table = bytes.count
    let size = offsetSize ?? (table <= 0xFF ? 1 : table <= 0xFFFF ? 2 : 4)
    for o in offsets ?? honest { bytes += bigEndian(o, size) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(size), UInt8(refSize)]
    bytes += bigEndian(count ?? UInt64(objects.count), 8)
    bytes += bigEndian(top, 8)
    bytes += bigEndian(tableOffset ?? UInt64(table), 8)
    return bytes
  }

  /// An ASCII string object.
  public static func ascii(_ s: String) -> [UInt8] {
    let utf8 = Array(s.utf8)
    precondition(utf8.count < 15)
    return [0x50 | UInt8(utf8.count)] + utf8
  }

  /// A small valid file: `{"a": [1, "xy", true], "b": 2.5}`.
  public static let small: [UInt8] = make([
    [0xD2, 1, 2, 3, 4],  // 0: {a: 3, b: 4}
    ascii("a"),  // 1
    ascii("b"),  // 2
    [0xA3, 5, 6, 7],  // 3: [5, 6, 7]
    [0x23] + bigEndian(2.5.bitPattern, 8),  // 4
    [0x10, 1],  // 5
    ascii("xy"),  // 6
    [0x09],  // 7
  ])
}
