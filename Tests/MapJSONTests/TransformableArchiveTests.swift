import Foundation
import MapArchives
import MapJSON
import MapRuntime
import MapTestSupport
import Testing

/// `TransformableArchive` against archives written by python3's plistlib
/// (`Benchmarks/sqlite/keyed_archive.py`, nothing of mapc), and against hostile archives.
@Suite struct TransformableArchiveTests {
  /// Python's archive of each value (a Python literal), as bytes.
  static func pythonArchives(_ literals: [String]) throws -> [[UInt8]] {
    let folder = SharedPaths.packageRoot.appendingPathComponent("Benchmarks/sqlite").path
    let script = """
      import sys; sys.dont_write_bytecode = True; sys.path.insert(0, \(String(reflecting: folder)))
      from keyed_archive import archive, Date
      for v in [\(literals.joined(separator: ", "))]: print(archive(v).hex())
      """
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script])
    guard r.exitCode == 0 else { throw PythonFailed(message: r.stderr) }
    return r.stdout.split(separator: "\n").map { line in
      stride(from: 0, to: line.count, by: 2).map { i in
        UInt8(line[line.index(line.startIndex, offsetBy: i)..<line.index(line.startIndex, offsetBy: i + 2)], radix: 16)!
      }
    }
  }

  struct PythonFailed: Error { var message: String }

  static let cases: [(python: String, value: ArchivedValue, json: String)] = [
    (
      #"["How did you sleep?", "Mood (1-10)?"]"#, .array([.string("How did you sleep?"), .string("Mood (1-10)?")]),
      #"["How did you sleep?","Mood (1-10)?"]"#
    ),
    (
      #"["a", None, "a", "Größe 😀", ""]"#,
      .array([.string("a"), .null, .string("a"), .string("Größe 😀"), .string("")]),
      #"["a",null,"a","Größe 😀",""]"#
    ),
    (
      #"{"b": 1, "a": [True, 2.5, -7], "z": {"x": b"\x00\x01"}}"#,
      .dictionary([
        .init("b", .integer(1)), .init("a", .array([.bool(true), .real(2.5), .integer(-7)])),
        .init("z", .dictionary([.init("x", .data([0, 1]))])),
      ]), #"{"b":1,"a":[true,2.5,-7],"z":{"x":{"$data":"AAE="}}}"#
    ),
    (#""just a string""#, .string("just a string"), #""just a string""#),
    ("12345678901", .integer(12_345_678_901), "12345678901"),
    ("[Date(0.5), 3.0, False]", .array([.date(0.5), .real(3.0), .bool(false)]), #"[{"$date":0.5},3.0,false]"#),
    (
      "[list(range(20))]", .array([.array((0..<20).map { .integer(Int64($0)) })]),
      "[[" + (0..<20).map(String.init).joined(separator: ",") + "]]"
    ),
  ]

  @Test func decodesAndEncodesPythonsArchives() throws {
    let archives = try Self.pythonArchives(Self.cases.map(\.python))
    #expect(archives.count == Self.cases.count)
    for (c, bytes) in zip(Self.cases, archives) {
      #expect(TransformableArchive.decode(bytes) == c.value, "\(c.python)")
      #expect(try TransformableArchive.encode(c.value) == bytes, "\(c.python)")
      var json: [UInt8] = []
      TransformableText.appendJSON(bytes, decoding: true, to: &json)
      #expect(String(decoding: json, as: UTF8.self) == c.json)
      #expect(try TransformableText.bytes(json: json, archiving: true) == bytes)
    }
  }

  @Test func otherBytesStayAsTheyAre() throws {
    for bytes: [UInt8] in [[], [1, 2, 3], Array("bplist00".utf8), Array(#"["json"]"#.utf8)] {
      var json: [UInt8] = []
      TransformableText.appendJSON(bytes, decoding: true, to: &json)
      #expect(String(decoding: json, as: UTF8.self) == #"{"$bytes":"\#(Base64Codec.encode(bytes))"}"#)
      #expect(try TransformableText.bytes(json: json, archiving: true) == bytes)
    }
    // A decodable archive is kept as bytes for an attribute with a custom transformer.
    let archive = try TransformableArchive.encode(.array([.string("x")]))
    var json: [UInt8] = []
    TransformableText.appendJSON(archive, decoding: false, to: &json)
    #expect(json.starts(with: Array(#"{"$bytes":"#.utf8)))
    #expect(throws: ArchivedValueError.self) { try TransformableText.bytes(json: Array("[1]".utf8), archiving: false) }
  }

  /// A property list of `objects` (marker bytes as given, references of 2 bytes) with the
  /// top object `top`: hostile shapes the writers never make.
  static func plist(_ objects: [[UInt8]], top: Int = 0) -> [UInt8] {
    var out = Array("bplist00".utf8)
    var offsets: [Int] = []
    for o in objects {
      offsets.append(out.count)
      out += o
    }
    let table = out.count
    for o in offsets { out += [UInt8(o >> 24 & 255), UInt8(o >> 16 & 255), UInt8(o >> 8 & 255), UInt8(o & 255)] }
    out += [0, 0, 0, 0, 0, 0, 4, 2]
    func be(_ v: Int) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
    out += be(objects.count) + be(top) + be(table)
    return out
  }

  /// An archive whose `$objects` are `entries` (object numbers of this plist), root `root`.
  /// Objects 0–8 are the fixed strings and the top dictionaries; entries follow from 9.
  static func archive(_ entries: [[UInt8]], objects: [Int], root: Int) -> [UInt8] {
    func s(_ t: String) -> [UInt8] { [0x50 | UInt8(t.utf8.count)] + Array(t.utf8) }
    func r(_ n: Int) -> [UInt8] { [UInt8(n >> 8), UInt8(n & 255)] }
    var list: [UInt8] = [0xAF, 0x11] + r(objects.count)
    for o in objects { list += r(o) }
    let fixed: [[UInt8]] = [
      [0xD3] + r(1) + r(2) + r(3) + r(4) + r(5) + r(6),  // 0: {$archiver, $objects, $top}
      s("$archiver"), s("$objects"), s("$top"),  // 1-3
      [0x5F, 0x10, 15] + Array("NSKeyedArchiver".utf8),  // 4
      list,  // 5: $objects
      [0xD1] + r(7) + r(8),  // 6: {root: UID}
      s("root"),  // 7
      [0x81] + r(root),  // 8
    ]
    return plist(fixed + entries)
  }

  @Test func hostileArchivesStayBytes() throws {
    func s(_ t: String) -> [UInt8] { [0x50 | UInt8(t.utf8.count)] + Array(t.utf8) }
    func r(_ n: Int) -> [UInt8] { [UInt8(n >> 8), UInt8(n & 255)] }
    // 9 "$null", 10 "NS.objects", 11 "$class", 12 "$classname", 13 "NSArray", 14 {$classname: NSArray}
    let base: [[UInt8]] = [
      s("$null"), s("NS.objects"), s("$class"), s("$classname"), s("NSArray"), [0xD1] + r(12) + r(13),
    ]
    // UIDs: 15 = uid 0, 16 = uid 1, 17 = uid 2 (class), 18 = uid 99
    let uids: [[UInt8]] = [[0x80, 0], [0x80, 1], [0x80, 2], [0x80, 99]]
    // An array that contains itself: $objects = [$null, array(uid 1), class]
    let cycle = Self.archive(
      base + uids + [[0xD2] + r(10) + r(11) + r(20) + r(17), [0xA1] + r(16)], objects: [9, 19, 14], root: 1)
    #expect(TransformableArchive.decode(cycle) == nil)
    // A UID past $objects.
    let outOfRange = Self.archive(
      base + uids + [[0xD2] + r(10) + r(11) + r(20) + r(17), [0xA1] + r(18)], objects: [9, 19, 14], root: 1)
    #expect(TransformableArchive.decode(outOfRange) == nil)
    // An array claiming 2^32 elements.
    let huge = Self.archive(
      base + uids + [[0xD2] + r(10) + r(11) + r(20) + r(17), [0xAF, 0x12, 0xFF, 0xFF, 0xFF, 0xFF]],
      objects: [9, 19, 14], root: 1)
    #expect(TransformableArchive.decode(huge) == nil)
    // `levels` arrays, each holding the next one twice: 2^levels paths to the leaf string.
    func dag(_ levels: Int) -> [UInt8] {
      var entries = base + uids
      var objects = [9, 14, 13]  // uid 0 $null, uid 1 the class, uid 2 a string (the leaf)
      for level in 0..<levels {
        let me = 9 + entries.count
        let next = level == levels - 1 ? 2 : objects.count + 1
        entries.append([0x80, UInt8(next)])
        entries.append([0xA2] + r(me) + r(me))
        entries.append([0xD2] + r(10) + r(11) + r(me + 1) + r(16))
        objects.append(me + 2)
      }
      return Self.archive(entries, objects: objects, root: 3)
    }
    let two = ArchivedValue.array([
      .array([.string("NSArray"), .string("NSArray")]), .array([.string("NSArray"), .string("NSArray")]),
    ])
    #expect(TransformableArchive.decode(dag(2)) == two)  // well formed
    let started = Date()
    #expect(TransformableArchive.decode(dag(40)) == nil)  // refused once the budget is spent
    #expect(Date().timeIntervalSince(started) < 10)
    // Deep nesting: the value and its JSON are refused past the limit, with the reason.
    var deep = ArchivedValue.string("x")
    for _ in 0...TransformableArchive.maximumDepth { deep = .array([deep]) }
    #expect(throws: ArchivedValueError.self) { try TransformableArchive.encode(deep) }
    let text = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
    #expect(throws: ArchivedValueError.self) { try TransformableText.bytes(json: Array(text.utf8), archiving: true) }
    // Truncated and bit-flipped copies of a real archive never trap.
    let good = try TransformableArchive.encode(.dictionary([.init("k", .array([.string("v"), .integer(3)]))]))
    for n in 0..<good.count { _ = TransformableArchive.decode(Array(good.prefix(n))) }
    for i in 0..<good.count {
      var bad = good
      bad[i] ^= 0xFF
      _ = TransformableArchive.decode(bad)
    }
  }
}
