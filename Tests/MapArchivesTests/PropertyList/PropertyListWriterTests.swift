import Foundation
import MapArchives
import MapTestSupport
import Testing

/// `BinaryPropertyListWriter`: corpus archives read, written and read back equal; python3's
/// plistlib reads what it writes to the same values, and (for values plistlib can write)
/// writes the same bytes itself; edge values keep their exact bits.
@Suite struct PropertyListWriterTests {
  static let header = Array("bplist00".utf8)

  /// The bytes of a file holding one scalar: between the header and the 1-byte offset table.
  static func body(_ value: PropertyListValue) -> [UInt8] {
    let bytes = BinaryPropertyListWriter.write(value)
    return Array(bytes[8..<bytes.count - 32 - 1])
  }

  struct Trailer: Equatable {
    var offsetSize: Int
    var refSize: Int
    var count: UInt64
    var top: UInt64
    var tableOffset: UInt64
    init(_ bytes: [UInt8]) {
      let t = bytes.count - 32
      func be(_ at: Int) -> UInt64 { bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) } }
      offsetSize = Int(bytes[t + 6])
      refSize = Int(bytes[t + 7])
      count = be(t + 8)
      top = be(t + 16)
      tableOffset = be(t + 24)
    }
    init(offsetSize: Int, refSize: Int, count: UInt64, top: UInt64 = 0, tableOffset: UInt64) {
      (self.offsetSize, self.refSize, self.count, self.top, self.tableOffset) = (
        offsetSize, refSize, count, top, tableOffset
      )
    }
  }

  /// Every edge value, as one array.
  static let edgeValues: PropertyListValue = .array([
    .integer(0), .integer(1), .integer(-1), .integer(255), .integer(256), .integer(65_535), .integer(65_536),
    .integer(0xFFFF_FFFF), .integer(0x1_0000_0000), .integer(Int64.max), .integer(Int64.min), .integer(-256),
    .real(0.5), .real(-0.0), .real(.nan), .real(.infinity), .real(-.infinity), .real(.leastNonzeroMagnitude),
    .real(.greatestFiniteMagnitude), .real(1e100),
    .date(0), .date(-978_307_200), .date(757_382_400), .date(4_102_444_800),
    .bool(true), .bool(false),
    .string(""), .string("a"), .string("héllo wörld"), .string("𝄞 G clef, 🙂 smile"), .string("日本語"),
    .string(String(repeating: "x", count: 14)), .string(String(repeating: "y", count: 15)),
    .string(String(repeating: "é", count: 15)), .string(String(repeating: "z", count: 300)),
    .data([]), .data([0, 1, 2, 0xFF]), .data(Array(repeating: 7, count: 15)), .data(Array(0...255)),
    .array([]), .dictionary([]),
    .array((0..<14).map { .integer($0) }), .array((0..<15).map { .integer($0) }), .array((0..<16).map { .integer($0) }),
    .dictionary((0..<15).map { .init("k\($0)", .integer(Int64($0))) }),
    .dictionary([.init("zebra", .string("last")), .init("apple", .string("first")), .init("ünï", .array([.array([])]))]
    ),
    .uid(0), .uid(255), .uid(256), .uid(0x1_0000_0000),
  ])

  // MARK: Exact bytes

  @Test func aSmallArrayByteByByte() {
    let bytes = BinaryPropertyListWriter.write(.array([.integer(1), .string("a"), .integer(1)]))
    let expected: [UInt8] =
      Self.header + [0xA3, 1, 2, 1, 0x10, 0x01, 0x51, 0x61]  // objects at 8, 12, 14
      + [8, 12, 14]  // offset table at 16
      + [0, 0, 0, 0, 0, 0, 1, 1] + RawPlist.bigEndian(3, 8) + RawPlist.bigEndian(0, 8) + RawPlist.bigEndian(16, 8)
    #expect(bytes == expected)
  }

  @Test func integersTakeTheSmallestSize() {
    #expect(Self.body(.integer(0)) == [0x10, 0])
    #expect(Self.body(.integer(255)) == [0x10, 0xFF])
    #expect(Self.body(.integer(256)) == [0x11, 1, 0])
    #expect(Self.body(.integer(65_535)) == [0x11, 0xFF, 0xFF])
    #expect(Self.body(.integer(65_536)) == [0x12, 0, 1, 0, 0])
    #expect(Self.body(.integer(0xFFFF_FFFF)) == [0x12, 0xFF, 0xFF, 0xFF, 0xFF])
    #expect(Self.body(.integer(0x1_0000_0000)) == [0x13, 0, 0, 0, 1, 0, 0, 0, 0])
    #expect(Self.body(.integer(Int64.max)) == [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    #expect(Self.body(.integer(-1)) == [0x13] + Array(repeating: 0xFF, count: 8))
    #expect(Self.body(.integer(Int64.min)) == [0x13, 0x80, 0, 0, 0, 0, 0, 0, 0])
  }

  @Test func scalarsByteByByte() {
    #expect(Self.body(.bool(false)) == [0x08])
    #expect(Self.body(.bool(true)) == [0x09])
    #expect(Self.body(.null) == [0x00])
    #expect(Self.body(.real(1.0)) == [0x23, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
    #expect(Self.body(.date(1.0)) == [0x33, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
    #expect(Self.body(.data([1, 2])) == [0x42, 1, 2])
    #expect(Self.body(.string("ab")) == [0x52, 0x61, 0x62])
    #expect(Self.body(.string("é")) == [0x61, 0x00, 0xE9])
    #expect(Self.body(.string("𝄞")) == [0x62, 0xD8, 0x34, 0xDD, 0x1E])
    #expect(Self.body(.string("a\u{301}")) == [0x62, 0x00, 0x61, 0x03, 0x01])
    #expect(Self.body(.uid(0)) == [0x80, 0])
    #expect(Self.body(.uid(256)) == [0x81, 1, 0])
    #expect(Self.body(.uid(0x1_0000)) == [0x83, 0, 1, 0, 0])
    #expect(Self.body(.uid(0x1_0000_0000)) == [0x87, 0, 0, 0, 1, 0, 0, 0, 0])
    // Counts of 15 and more follow the marker as an integer.
    #expect(Self.body(.string(String(repeating: "x", count: 14))) == [0x5E] + Array(repeating: 0x78, count: 14))
    #expect(
      Self.body(.string(String(repeating: "x", count: 15))) == [0x5F, 0x10, 15] + Array(repeating: 0x78, count: 15))
    #expect(Self.body(.data(Array(repeating: 1, count: 300))).prefix(4) == [0x4F, 0x11, 0x01, 0x2C])
    #expect(Self.body(.string(String(repeating: "é", count: 15))).prefix(5) == [0x6F, 0x10, 15, 0x00, 0xE9])
  }

  @Test func containerCountsAndReferenceSizes() {
    let fourteen = BinaryPropertyListWriter.write(.array((0..<14).map { .integer($0) }))
    #expect(fourteen[8] == 0xAE)
    let fifteen = BinaryPropertyListWriter.write(.array((0..<15).map { .integer($0) }))
    #expect(Array(fifteen[8..<11]) == [0xAF, 0x10, 15])
    let sixteen = BinaryPropertyListWriter.write(.dictionary((0..<16).map { .init("k\($0)", .bool(true)) }))
    #expect(Array(sixteen[8..<11]) == [0xDF, 0x10, 16])

    // 255 objects fit 1-byte references; 256 need 2 (CoreFoundation sizes by the count).
    let small = BinaryPropertyListWriter.write(.array((0..<254).map { .integer($0) }))
    #expect(Trailer(small).refSize == 1)
    #expect(Trailer(small).count == 255)
    let large = BinaryPropertyListWriter.write(.array((0..<255).map { .integer($0) }))
    #expect(Trailer(large).refSize == 2)
    #expect(Trailer(large).count == 256)
    // The offset size fits the offset table's position.
    #expect(Trailer(small).offsetSize == 2)
    #expect(
      Trailer(BinaryPropertyListWriter.write(.array([])))
        == Trailer(offsetSize: 1, refSize: 1, count: 1, tableOffset: 9))
  }

  @Test func objectsAreDepthFirstAndScalarsShared() throws {
    // {b: [x, "b"], a: 1, c: 1}: 0 the dictionary, its keys 1 "b", 2 "a", 3 "c", then its
    // values: 4 the array, 5 "x" (its "b" is object 1), 6 the 1 that a and c share.
    let value = PropertyListValue.dictionary([
      .init("b", .array([.string("x"), .string("b")])), .init("a", .integer(1)), .init("c", .integer(1)),
    ])
    let bytes = BinaryPropertyListWriter.write(value)
    #expect(Trailer(bytes).count == 7)
    #expect(Array(bytes[8..<15]) == [0xD3, 1, 2, 3, 4, 6, 6])
    #expect(Array(bytes[21..<24]) == [0xA2, 5, 1])
    #expect(Array(bytes[15..<20]) == [0x51, 0x62, 0x51, 0x61, 0x51])  // "b", "a", "c"…
    #expect(try BinaryPropertyListReader.read(bytes) == value)
  }

  @Test func sharingKeepsExactValuesApart() throws {
    let items: [PropertyListValue] = [
      .string("é"), .string("e\u{301}"), .string("é"),  // two objects: not canonical equivalence
      .real(0.0), .real(-0.0), .real(0.0),  // two objects: bit patterns
      .real(.nan), .real(.nan),  // one object
      .integer(1), .real(1.0), .bool(true), .date(1.0), .uid(1),  // five objects
      .array([]), .array([]),  // never shared
    ]
    let bytes = BinaryPropertyListWriter.write(.array(items))
    #expect(Trailer(bytes).count == 1 + 2 + 2 + 1 + 5 + 2)
    guard case .array(let back) = try BinaryPropertyListReader.read(bytes) else {
      Issue.record("not an array")
      return
    }
    #expect(back.count == items.count)
    for (a, b) in zip(items, back) {
      #expect(PropertyListScalarIdentity(a) == PropertyListScalarIdentity(b), "\(a) read back as \(b)")
    }
  }

  @Test func edgeValuesReadBackWithTheirBits() throws {
    let bytes = BinaryPropertyListWriter.write(Self.edgeValues)
    let back = try BinaryPropertyListReader.read(bytes)
    #expect(PropertyListCanon.json(back) == PropertyListCanon.json(Self.edgeValues))
    #expect(BinaryPropertyListWriter.write(back) == bytes)
    #expect(BinaryPropertyListWriter.write(Self.edgeValues) == bytes)
  }

  @Test func deepValuesAreWrittenWithoutRecursion() throws {
    var value = PropertyListValue.array([])
    for _ in 0..<10_000 { value = .array([value]) }
    let bytes = BinaryPropertyListWriter.write(value)
    #expect(Trailer(bytes).count == 10_001)
    #expect(throws: PropertyListError.self) { try BinaryPropertyListReader.read(bytes) }
    // Breaking the chain iteratively, so that releasing it does not recurse either.
    while case .array(let items) = value, let inner = items.first { value = inner }
  }

  // MARK: Python's plistlib

  @Test(.enabled(if: PythonOracle.available, Comment(rawValue: PythonOracle.absentMessage)))
  func plistlibReadsEdgeValuesAndWritesTheSameBytes() throws {
    // plistlib shares 0.0 and -0.0 (they compare equal in python): write them in separate files.
    let values: [PropertyListValue] = [
      Self.edgeValues,
      .dictionary([.init("minus zero", .real(-0.0))]),
      .string("x"), .integer(Int64.min), .array([]),
      .dictionary([.init("$version", .integer(100_000)), .init("$top", .dictionary([.init("root", .uid(1))]))]),
    ]
    let script =
      PythonOracle.canonFunction + """
        out = []
        for i in range(count):
            b = blob(i)
            v = plistlib.loads(b)
            again = plistlib.dumps(v, fmt=plistlib.FMT_BINARY, sort_keys=False)
            out.append({"canon": dump(canon(v)), "same": again == b})
        print(json.dumps(out))
        """
    let output = try PythonOracle.run(script, blobs: values.map(BinaryPropertyListWriter.write))
    struct Report: Decodable {
      var canon: String
      var same: Bool
    }
    let reports = try JSONDecoder().decode([Report].self, from: Data(output.utf8))
    try #require(reports.count == values.count)
    for (value, report) in zip(values, reports) {
      #expect(report.canon == PropertyListCanon.json(value))
      #expect(report.same, "plistlib writes different bytes for \(value)")
    }
  }

  // MARK: Corpus

  @Test(.enabled(if: PropertyListCorpus.available, Comment(rawValue: SharedPaths.absentMessage)))
  func corpusArchivesRoundTrip() throws {
    for archive in PropertyListCorpus.archives {
      let value = try BinaryPropertyListReader.read(archive.bytes)
      let written = BinaryPropertyListWriter.write(value)
      let back = try BinaryPropertyListReader.read(written)
      // (Compared as booleans: the values are too large to print usefully.)
      let equal = back == value
      let exactlyEqual = PropertyListCanon.json(back) == PropertyListCanon.json(value)
      let stable = BinaryPropertyListWriter.write(back) == written
      #expect(equal, "\(archive) reads back differently")
      #expect(exactlyEqual, "\(archive) reads back with other bits")
      #expect(stable, "\(archive) is written differently the second time")
      // Apple's writer shares objects only when they are the same instance, so its files hold
      // duplicates that this one shares: never larger.
      #expect(written.count <= archive.bytes.count, "\(archive)")
      #expect(try KeyedArchive(bytes: written).objects.count == KeyedArchive(bytes: archive.bytes).objects.count)
    }
  }

  @Test(
    .enabled(if: PropertyListCorpus.available, Comment(rawValue: SharedPaths.absentMessage)),
    .enabled(if: PythonOracle.available, Comment(rawValue: PythonOracle.absentMessage)))
  func plistlibReadsCorpusRewritesAsTheOriginals() throws {
    let archives = PropertyListCorpus.archives
    var blobs: [[UInt8]] = []
    for archive in archives {
      blobs.append(archive.bytes)
      blobs.append(BinaryPropertyListWriter.write(try BinaryPropertyListReader.read(archive.bytes)))
    }
    let script =
      PythonOracle.canonFunction + """
        out = []
        for i in range(0, count, 2):
            original, ours = plistlib.loads(blob(i)), plistlib.loads(blob(i + 1))
            out.append(dump(canon(original)) == dump(canon(ours)))
        print(json.dumps(out))
        """
    let output = try PythonOracle.run(script, blobs: blobs)
    let same = try JSONDecoder().decode([Bool].self, from: Data(output.utf8))
    try #require(same.count == archives.count)
    for (archive, ok) in zip(archives, same) {
      #expect(ok, "plistlib reads the rewrite of \(archive) differently")
    }
  }
}
