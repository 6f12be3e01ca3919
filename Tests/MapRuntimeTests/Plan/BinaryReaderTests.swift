@testable import MapRuntime
import Testing

@Suite struct BinaryReaderTests {
  /// LEB128 vectors worked out by hand from the definition in Specs/plan-format.md §2.
  static let unsignedVectors: [(UInt64, [UInt8])] = [
    (0, [0x00]), (1, [0x01]), (127, [0x7f]), (128, [0x80, 0x01]), (300, [0xac, 0x02]),
    (16_383, [0xff, 0x7f]), (16_384, [0x80, 0x80, 0x01]),
    (UInt64.max, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
  ]
  static let signedVectors: [(Int64, [UInt8])] = [
    (0, [0x00]), (-1, [0x01]), (1, [0x02]), (-2, [0x03]), (63, [0x7e]), (-64, [0x7f]),
    (64, [0x80, 0x01]), (Int64.max, [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
    (Int64.min, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
  ]

  @Test func unsignedVarintsMatchTheSpec() throws {
    for (value, bytes) in Self.unsignedVectors {
      var w = BinaryWriter()
      w.writeVarUInt(value)
      #expect(w.bytes == bytes, "\(value)")
      var r = BinaryReader(bytes)
      #expect(try r.readVarUInt() == value)
      #expect(r.isAtEnd)
    }
  }

  @Test func signedVarintsAreZigzag() throws {
    for (value, bytes) in Self.signedVectors {
      var w = BinaryWriter()
      w.writeVarInt(value)
      #expect(w.bytes == bytes, "\(value)")
      var r = BinaryReader(bytes)
      #expect(try r.readVarInt() == value)
    }
  }

  @Test func fixedWidthValuesAreLittleEndian() throws {
    var w = BinaryWriter()
    w.writeU16(0x0102)
    w.writeU64(0x0102_0304_0506_0708)
    w.writeDouble(1.0)
    w.writeBool(true)
    #expect(w.bytes == [0x02, 0x01, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 1])
    var r = BinaryReader(w.bytes)
    #expect(try r.readU16() == 0x0102)
    #expect(try r.readU64() == 0x0102_0304_0506_0708)
    #expect(try r.readDouble() == 1.0)
    #expect(try r.readBool() == true)
  }

  @Test func overlongAndOversizedVarintsAreRefused() {
    let bad: [[UInt8]] = [
      [0x80, 0x00],  // 0 in two bytes
      [0xff, 0x80, 0x00],  // 127 in three bytes
      [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02],  // 2^64
      [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x00],  // 11 bytes
    ]
    for bytes in bad {
      var r = BinaryReader(bytes)
      let error = #expect(throws: BinaryReadError.self) { try r.readVarUInt() }
      #expect(error?.offset == 0)
      #expect(error?.isEndOfInput == false)
    }
  }

  @Test func readsPastTheEndThrowWithOffsets() {
    var r = BinaryReader([0x80, 0x80], offset: 0)
    let e1 = #expect(throws: BinaryReadError.self) { try r.readVarUInt() }
    #expect(e1?.isEndOfInput == true)
    var r2 = BinaryReader([1, 2, 3], offset: 1)
    let e2 = #expect(throws: BinaryReadError.self) { try r2.readU64() }
    #expect(e2?.offset == 1)
    #expect(e2?.message == "u64 needs 8 bytes but only 2 remain")
    // A window stops reads at its end even though the array goes on.
    var r3 = BinaryReader([1, 2, 3, 4], offset: 0, end: 2)
    #expect(throws: BinaryReadError.self) { try r3.readRaw(3) }
  }

  @Test func countsLargerThanTheBytesLeftAreRefused() throws {
    var w = BinaryWriter()
    w.writeCount(5)
    w.writeRaw([1, 2, 3, 4, 5])
    var ok = BinaryReader(w.bytes)
    #expect(try ok.readCount() == 5)

    var w2 = BinaryWriter()
    w2.writeVarUInt(UInt64.max)
    w2.writeRaw([1, 2, 3])
    var r = BinaryReader(w2.bytes)
    let error = #expect(throws: BinaryReadError.self) { try r.readCount("number of entities") }
    #expect(error?.message == "number of entities 18446744073709551615 is more than the 3 bytes left can hold")
    var r2 = BinaryReader([4, 1, 2, 3, 4, 5, 6, 7])
    #expect(throws: BinaryReadError.self) { try r2.readCount(minimumElementSize: 2) }
  }

  @Test func stringsMustBeValidUTF8() throws {
    var w = BinaryWriter()
    w.writeString("Grüße 🧭")
    var r = BinaryReader(w.bytes)
    #expect(try r.readString() == "Grüße 🧭")
    for bad: [UInt8] in [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0x80]] {
      var r = BinaryReader([UInt8(bad.count)] + bad)
      let error = #expect(throws: BinaryReadError.self) { try r.readString("entity name") }
      #expect(error?.message == "entity name is not valid UTF-8")
    }
  }

  @Test func booleansAreZeroOrOne() {
    var r = BinaryReader([2])
    let error = #expect(throws: BinaryReadError.self) { try r.readBool("isOptional") }
    #expect(error?.message == "isOptional must be 0 or 1, found 2")
  }

  @Test func subReadersSeeOnlyTheirWindow() throws {
    var r = BinaryReader([9, 1, 2, 3, 7])
    _ = try r.readU8()
    var sub = try r.subReader(length: 3, "section")
    #expect(try sub.readRaw(3) == [1, 2, 3])
    #expect(throws: BinaryReadError.self) { try sub.readU8() }
    #expect(try r.readU8() == 7)
    #expect(throws: BinaryReadError.self) { try r.subReader(length: 1, "section") }
  }

  @Test func neverTrapsOnRandomInput() {
    var state: UInt64 = 12345
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    for _ in 0..<2000 {
      let bytes = (0..<Int(next() % 24)).map { _ in UInt8(truncatingIfNeeded: next()) }
      var r = BinaryReader(bytes)
      for _ in 0..<8 {
        switch next() % 7 {
        case 0: _ = try? r.readVarUInt()
        case 1: _ = try? r.readVarInt()
        case 2: _ = try? r.readString()
        case 3: _ = try? r.readBytes()
        case 4: _ = try? r.readCount()
        case 5: _ = try? r.readU64()
        default: _ = try? r.readInt()
        }
        #expect(r.offset <= r.end)
      }
    }
  }
}
