import Foundation
import MapArchives
import MapTestSupport
import Testing

/// `BinaryPropertyListReader` and `KeyedArchive` on every binary attribute of the corpus
/// (checked against python3's plistlib), and on hostile files built here: each of those ends in
/// a clear error, quickly, never a crash, a hang or a huge allocation.
@Suite struct PropertyListReaderTests {
  // MARK: Corpus

  @Test(.enabled(if: PropertyListCorpus.available, Comment(rawValue: SharedPaths.absentMessage)))
  func corpusBinaryAttributesAreAllFound() {
    let archives = PropertyListCorpus.archives
    #expect(archives.count >= 50)
    #expect(archives.count == PropertyListCorpus.binaryAttributeMentions())
    let kinds = Set(archives.map(\.attribute))
    #expect(kinds == ["sourcemodeldata", "destinationmodeldata", "valueexpressiondata", "userinfodata"])
  }

  @Test(.enabled(if: PropertyListCorpus.available, Comment(rawValue: SharedPaths.absentMessage)))
  func everyCorpusArchiveDecodes() throws {
    for archive in PropertyListCorpus.archives {
      #expect(BinaryPropertyListReader.isBinaryPropertyList(archive.bytes), "\(archive)")
      let keyed: KeyedArchive
      do {
        keyed = try KeyedArchive(bytes: archive.bytes)
      } catch {
        Issue.record("\(archive): \(error)")
        continue
      }
      #expect(keyed.objects[0] == .string("$null"), "\(archive)")
      #expect(keyed.isNull(.uid(0)))
      // The root and every class instance resolve to a class with a name and a chain.
      let root = try keyed.object(keyed.root)
      #expect(!root.className.isEmpty, "\(archive)")
      for (i, o) in keyed.objects.enumerated() where o["$class"] != nil {
        let instance = try keyed.object(i)
        #expect(instance.classes.first == instance.className, "\(archive) object \(i)")
        #expect(instance.classes.last == "NSObject", "\(archive) object \(i)")
      }
    }
  }

  struct OracleCounts: Decodable, Equatable {
    var count: Int
    var classes: [String: Int]
  }

  @Test(
    .enabled(if: PropertyListCorpus.available, Comment(rawValue: SharedPaths.absentMessage)),
    .enabled(if: PythonOracle.available, Comment(rawValue: PythonOracle.absentMessage)))
  func objectCountsAndClassNamesEqualPlistlib() throws {
    let archives = PropertyListCorpus.archives
    let script =
      PythonOracle.canonFunction + """
        import collections
        out = []
        for i in range(count):
            objs = plistlib.loads(blob(i))["$objects"]
            names = collections.Counter(o["$classname"] for o in objs if isinstance(o, dict) and "$classname" in o)
            out.append({"count": len(objs), "classes": names})
        print(json.dumps(out))
        """
    let output = try PythonOracle.run(script, blobs: archives.map(\.bytes))
    let oracle = try JSONDecoder().decode([OracleCounts].self, from: Data(output.utf8))
    try #require(oracle.count == archives.count)
    for (archive, expected) in zip(archives, oracle) {
      let keyed = try KeyedArchive(bytes: archive.bytes)
      var names: [String: Int] = [:]
      for o in keyed.objects {
        if let name = o["$classname"]?.stringValue { names[name, default: 0] += 1 }
      }
      #expect(OracleCounts(count: keyed.objects.count, classes: names) == expected, "\(archive)")
    }
  }

  @Test(.enabled(if: PropertyListCorpus.available, Comment(rawValue: SharedPaths.absentMessage)))
  func truncatedCorpusArchivesAreErrors() throws {
    let archive = try #require(PropertyListCorpus.archives.max(by: { $0.bytes.count < $1.bytes.count }))
    let n = archive.bytes.count
    for cut in [0, 7, 8, 40, 41, n / 4, n / 2, n - 33, n - 32, n - 8, n - 1] {
      let error = quickReadError(Array(archive.bytes[0..<cut]))
      #expect(error != nil, "\(archive) cut at \(cut)")
    }
  }

  // MARK: Hostile input

  /// The reader's error for `bytes` (nil when it reads), after checking it took well under a
  /// second.
  func quickReadError(_ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> PropertyListError?
  {
    let clock = ContinuousClock()
    let start = clock.now
    defer {
      #expect(clock.now - start < .milliseconds(500), "reading took too long", sourceLocation: sourceLocation)
    }
    do {
      _ = try BinaryPropertyListReader.read(bytes)
      return nil
    } catch {
      return error
    }
  }

  func expectError(
    _ bytes: [UInt8], _ fragment: String, offset: Int? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    guard let error = quickReadError(bytes, sourceLocation: sourceLocation) else {
      Issue.record("read without an error; expected “\(fragment)”", sourceLocation: sourceLocation)
      return
    }
    #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
    #expect(error.offset >= 0 && error.offset <= bytes.count, "\(error)", sourceLocation: sourceLocation)
    if let offset {
      #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation)
    }
    #expect(error.description.hasPrefix("at byte \(error.offset): "))
  }

  @Test func theSmallFileReads() throws {
    let value = try BinaryPropertyListReader.read(RawPlist.small)
    #expect(
      value
        == .dictionary([
          .init("a", .array([.integer(1), .string("xy"), .bool(true)])),
          .init("b", .real(2.5)),
        ]))
  }

  @Test func notABinaryPropertyList() {
    expectError([], "not a binary property list", offset: 0)
    expectError(
      Array("hello, world: this is certainly not a property list".utf8), "not a binary property list", offset: 0)
    expectError(
      Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8), "not a binary property list")
    expectError(Array("bplist00".utf8), "not a binary property list", offset: 0)
    var future = RawPlist.small
    future[6] = UInt8(ascii: "1")
    expectError(future, "version 10 is not supported", offset: 6)
  }

  @Test func keyedArchiveWrapsTheReadersError() {
    #expect(throws: KeyedArchiveError.self) {
      try KeyedArchive(bytes: Array("not a plist at all, but long enough to have a trailer".utf8))
    }
    do {
      _ = try KeyedArchive(bytes: [])
    } catch {
      #expect(error.message.contains("not a readable binary property list"))
      #expect(error.message.contains("byte 0"))
    }
  }

  @Test func everyTruncationIsAnError() {
    let full = RawPlist.small
    for cut in 0..<full.count {
      #expect(quickReadError(Array(full[0..<cut])) != nil, "cut at \(cut)")
    }
    // Truncating the object area while keeping the trailer (the table then points past it).
    let t = full.count - 32
    for cut in stride(from: 8, to: t, by: 3) {
      #expect(quickReadError(Array(full[0..<cut]) + Array(full[t...])) != nil, "object area cut at \(cut)")
    }
  }

  @Test func anArrayThatContainsItself() {
    // 0: [0]
    expectError(RawPlist.make([[0xA1, 0]]), "contains itself (a cycle)", offset: 8)
    // 0: [1], 1: {k: 0}, 2: "k" — a cycle through a dictionary value.
    expectError(RawPlist.make([[0xA1, 1], [0xD1, 2, 0], RawPlist.ascii("k")]), "a cycle")
    // A shared (non-cyclic) element is fine: [1, 1].
    #expect(quickReadError(RawPlist.make([[0xA2, 1, 1], [0x10, 7]])) == nil)
  }

  @Test func aReferencePastTheObjectTable() {
    // [5] with 1 object; the reference is at byte 9.
    expectError(RawPlist.make([[0xA1, 5]]), "object reference 5 is past the object table (1 objects)", offset: 9)
    // A dictionary key reference past the table.
    expectError(RawPlist.make([[0xD1, 9, 1], [0x10, 1]]), "past the object table")
    // With 2-byte references.
    expectError(RawPlist.make([[0xA1, 0xFF, 0xFF]], refSize: 2), "object reference 65535 is past")
    // A top object past the table.
    expectError(RawPlist.make([[0x10, 1]], top: 3), "top object 3 is past the object table")
  }

  @Test func aDeclaredCountOf2To62() {
    let huge = RawPlist.bigEndian(1 << 62, 8)
    for marker: UInt8 in [0xAF, 0xDF, 0x4F, 0x5F, 0x6F, 0xCF] {
      expectError(
        RawPlist.make([[marker, 0x13] + huge]), "declared length 4611686018427387904 is larger than the file")
    }
    // The trailer's object count.
    expectError(RawPlist.make([[0x10, 1]], count: 1 << 62), "trailer declares 4611686018427387904 objects")
    // A length that is itself not an integer, and a 16-byte length.
    expectError(RawPlist.make([[0xAF, 0x23] + huge]), "length is not an integer")
    expectError(RawPlist.make([[0xAF, 0x14] + huge + huge]), "length is not an integer")
  }

  @Test func unknownMarkerBytes() {
    for marker: UInt8 in [0x01, 0x0F, 0x70, 0x7F, 0x90, 0xB0, 0xE1, 0xF0, 0xFF, 0x34] {
      expectError(
        RawPlist.make([[marker, 0, 0, 0, 0, 0, 0, 0, 0]]), "unknown marker 0x\(String(marker, radix: 16))", offset: 8)
    }
    expectError(RawPlist.make([[0x15] + [UInt8](repeating: 0, count: 32)]), "integer of 2^5 bytes")
    expectError(RawPlist.make([[0x21, 0, 0]]), "real of 2^1 bytes")
    expectError(RawPlist.make([[0x8F] + [UInt8](repeating: 0, count: 16)]), "UID of 16 bytes")
    expectError(RawPlist.make([[0x52, 0x41, 0xC3]]), "ASCII string holds a byte above 0x7F")
    expectError(RawPlist.make([[0xD1, 1, 2], [0x10, 1], [0x10, 2]]), "dictionary key is not a string")
  }

  @Test func anOffsetTablePointingOutsideTheFile() {
    let objects: [[UInt8]] = [[0xA1, 1], [0x10, 1]]
    expectError(RawPlist.make(objects, tableOffset: 1 << 40), "offset table at 1099511627776 does not fit in the file")
    expectError(RawPlist.make(objects, tableOffset: 2), "offset table at 2 does not fit in the file")
    expectError(RawPlist.make(objects, tableOffset: UInt64.max), "does not fit in the file")
    // Table entries outside the object area: past the table, inside the header, far away.
    expectError(RawPlist.make(objects, offsets: [8, 200]), "object 1 has offset 200, outside the object area")
    expectError(RawPlist.make(objects, offsets: [3, 10]), "object 0 has offset 3, outside the object area")
    expectError(RawPlist.make(objects, offsetSize: 8, offsets: [8, UInt64.max]), "outside the object area")
    // Sizes that are not 1, 2, 4 or 8.
    expectError(RawPlist.make(objects, refSize: 3), "each must be 1, 2, 4 or 8")
    expectError(RawPlist.make(objects, offsetSize: 0), "each must be 1, 2, 4 or 8")
    // Objects whose contents run into the offset table.
    expectError(RawPlist.make([[0x13, 0, 0]]), "integer of 8 bytes runs past the object area")
    expectError(RawPlist.make([[0x4E, 1, 2]]), "data of 14 bytes runs past the object area")
    expectError(RawPlist.make([[0xAE, 0]]), "array references of 14 bytes runs past the object area")
  }

  @Test func tenThousandNestedArrays() {
    // Object i is [i + 1]; the last is []. 2-byte references.
    let depth = 10_000
    var objects: [[UInt8]] = []
    for i in 0..<depth - 1 { objects.append([0xA1] + RawPlist.bigEndian(UInt64(i + 1), 2)) }
    objects.append([0xA0])
    let bytes = RawPlist.make(objects, refSize: 2)
    expectError(bytes, "nesting deeper than \(BinaryPropertyListReader.maximumDepth) levels")
    // The same through dictionaries, and a chain just inside the limit reads.
    var shallow: [[UInt8]] = []
    let limit = BinaryPropertyListReader.maximumDepth
    for i in 0..<limit - 1 { shallow.append([0xA1] + RawPlist.bigEndian(UInt64(i + 1), 2)) }
    shallow.append([0xA0])
    #expect(quickReadError(RawPlist.make(shallow, refSize: 2)) == nil)
    shallow[limit - 1] = [0xA1] + RawPlist.bigEndian(UInt64(limit), 2)
    shallow.append([0xA0])
    expectError(RawPlist.make(shallow, refSize: 2), "nesting deeper")
  }

  @Test func sharedObjectsAreDecodedOnce() {
    // 15 levels of [x, x]: a tree of 2^15 leaves (65,535 values), a file of 16 objects; reads.
    // 60 levels: 2^60 leaves, refused at once for what it would expand to (Specs/limits.md).
    for (levels, refused) in [(15, false), (60, true)] {
      var objects: [[UInt8]] = []
      for i in 0..<levels { objects.append([0xA2, UInt8(i + 1), UInt8(i + 1)]) }
      objects.append([0x10, 42])
      let error = quickReadError(RawPlist.make(objects))
      #expect(
        (error?.message.contains("expands to more than 1000000 values") ?? false) == refused,
        "\(levels): \(error?.message ?? "")")
    }
  }

  // MARK: Keyed archives

  static func keyedArchive(root: UInt64 = 1, objects: [PropertyListValue]) -> PropertyListValue {
    .dictionary([
      .init("$version", .integer(100_000)),
      .init("$archiver", .string("NSKeyedArchiver")),
      .init("$top", .dictionary([.init("root", .uid(root))])),
      .init("$objects", .array(objects)),
    ])
  }

  static let classDictionary = PropertyListValue.dictionary([
    .init("$classes", .array([.string("Thing"), .string("NSObject")])),
    .init("$classname", .string("Thing")),
  ])

  func archiveError(_ plist: PropertyListValue) -> KeyedArchiveError? {
    do {
      _ = try KeyedArchive(plist: plist)
      return nil
    } catch {
      return error
    }
  }

  @Test func aRootPastTheObjectTable() throws {
    let error = archiveError(Self.keyedArchive(root: 7, objects: [.string("$null")]))
    #expect(error?.message == "$top.root refers to object 7, past the object table (1 objects)")
    #expect(archiveError(Self.keyedArchive(root: UInt64.max, objects: [.string("$null")])) != nil)

    // The same as a binary file built byte by byte.
    let bytes = RawPlist.make([
      [0xD4, 1, 2, 3, 4, 5, 6, 7, 10],  // 0: the archive dictionary
      // 1-4
      RawPlist.ascii("$version"), RawPlist.ascii("$archiver"), RawPlist.ascii("$top"), RawPlist.ascii("$objects"),
      [0x12, 0x00, 0x01, 0x86, 0xA0],  // 5: 100000
      [0x5F, 0x10, 0x0F] + Array("NSKeyedArchiver".utf8),  // 6
      [0xD1, 8, 9], RawPlist.ascii("root"), [0x80, 99],  // 7: {root: UID 99}
      [0xA1, 11], RawPlist.ascii("$null"),  // 10: ["$null"]
    ])
    #expect(throws: KeyedArchiveError("$top.root refers to object 99, past the object table (1 objects)")) {
      try KeyedArchive(bytes: bytes)
    }
  }

  @Test func malformedArchivesAreErrors() {
    let null = PropertyListValue.string("$null")
    #expect(archiveError(.array([])) == KeyedArchiveError("the archive is not a dictionary"))
    #expect(archiveError(.dictionary([])) == KeyedArchiveError("the archive's $archiver is not NSKeyedArchiver"))
    #expect(archiveError(Self.keyedArchive(objects: [])) == KeyedArchiveError("the archive has no $objects table"))
    var noRoot = Self.keyedArchive(objects: [null])
    if case .dictionary(var entries) = noRoot {
      entries[2] = .init("$top", .dictionary([.init("root", .integer(1))]))
      noRoot = .dictionary(entries)
    }
    #expect(archiveError(noRoot) == KeyedArchiveError("the archive has no $top.root reference"))
  }

  @Test func aClassThatIsNotAClassDictionary() throws {
    let null = PropertyListValue.string("$null")
    let cases: [(PropertyListValue, String)] = [
      (.string("Thing"), "the class of object 1 (object 2) has no $classname"),
      (.dictionary([.init("$classes", .array([.string("Thing")]))]), "has no $classname"),
      (.dictionary([.init("$classname", .integer(3))]), "has no $classname"),
      (.array([.string("Thing")]), "has no $classname"),
    ]
    for (classObject, fragment) in cases {
      let archive = try KeyedArchive(
        plist: Self.keyedArchive(objects: [
          null, .dictionary([.init("$class", .uid(2)), .init("x", .integer(1))]), classObject,
        ]))
      #expect(throws: KeyedArchiveError.self) { try archive.object(1) }
      do {
        _ = try archive.object(1)
      } catch {
        #expect(error.message.contains(fragment), "\(error)")
      }
    }
    // $class that is not a reference, or refers past the table.
    for classRef: PropertyListValue in [.integer(2), .string("Thing"), .uid(40)] {
      let archive = try KeyedArchive(
        plist: Self.keyedArchive(objects: [null, .dictionary([.init("$class", classRef)])]))
      #expect(throws: KeyedArchiveError.self) { try archive.object(1) }
    }
    // An instance with no $class, and an index outside the table.
    let archive = try KeyedArchive(
      plist: Self.keyedArchive(objects: [null, .dictionary([.init("x", .integer(1))]), Self.classDictionary]))
    #expect(throws: KeyedArchiveError("object 1 is not a class instance")) { try archive.object(1) }
    #expect(throws: KeyedArchiveError("object 3 is past the object table (3 objects)")) { try archive.object(3) }
    #expect(throws: KeyedArchiveError("object -1 is past the object table (3 objects)")) { try archive.object(-1) }
  }

  @Test func uidsPastTheObjectTableInFields() throws {
    let null = PropertyListValue.string("$null")
    let archive = try KeyedArchive(
      plist: Self.keyedArchive(objects: [
        null,
        .dictionary([
          .init("$class", .uid(2)), .init("name", .uid(77)), .init("items", .uid(1 << 40)), .init("plain", .integer(5)),
        ]),
        Self.classDictionary,
      ]))
    let thing = try archive.object(1)
    #expect(thing.className == "Thing")
    #expect(thing.classes == ["Thing", "NSObject"])
    #expect(throws: KeyedArchiveError("name refers to object 77, past the object table (3 objects)")) {
      try archive.string(thing["name"], "name")
    }
    #expect(throws: KeyedArchiveError.self) { try archive.array(thing["items"], "items") }
    #expect(throws: KeyedArchiveError.self) { try archive.dictionary(thing["items"], "items") }
    #expect(throws: KeyedArchiveError("plain is not an object reference")) {
      try archive.array(thing["plain"], "plain")
    }
    #expect(try archive.resolve(thing["plain"], "plain") == .integer(5))
    #expect(try archive.resolve(thing["missing"], "missing") == nil)
    #expect(!archive.isNull(.uid(77)))
  }

  @Test func archiveAccessors() throws {
    let null = PropertyListValue.string("$null")
    let objects: [PropertyListValue] = [
      null,
      // 1: Thing {name: 3, list: 4, map: 6, nothing: $null, inline: "here"}
      .dictionary([
        .init("$class", .uid(2)), .init("name", .uid(3)), .init("list", .uid(4)), .init("map", .uid(6)),
        .init("nothing", .uid(0)), .init("inline", .string("here")), .init("mutable", .uid(8)),
      ]),
      Self.classDictionary,
      .string("Ada"),
      .dictionary([.init("$class", .uid(5)), .init("NS.objects", .array([.uid(3), .integer(2)]))]),
      .dictionary([
        .init("$classes", .array([.string("NSArray"), .string("NSObject")])), .init("$classname", .string("NSArray")),
      ]),
      .dictionary([
        .init("$class", .uid(7)), .init("NS.keys", .array([.uid(3)])), .init("NS.objects", .array([.uid(0)])),
      ]),
      .dictionary([
        .init("$classes", .array([.string("NSDictionary"), .string("NSObject")])),
        .init("$classname", .string("NSDictionary")),
      ]),
      // 8: NSMutableString {NS.string: "mutable"}
      .dictionary([.init("$class", .uid(9)), .init("NS.string", .string("mutable"))]),
      .dictionary([
        .init("$classes", .array([.string("NSMutableString"), .string("NSString"), .string("NSObject")])),
        .init("$classname", .string("NSMutableString")),
      ]),
    ]
    let archive = try KeyedArchive(plist: Self.keyedArchive(objects: objects))
    let thing = try archive.object(archive.root)
    #expect(try archive.string(thing["name"], "name") == "Ada")
    #expect(try archive.string(thing["inline"], "inline") == "here")
    #expect(try archive.string(thing["nothing"], "nothing") == nil)
    #expect(try archive.string(thing["mutable"], "mutable") == "mutable")
    #expect(try archive.array(thing["list"], "list") == [.uid(3), .integer(2)])
    #expect(try archive.array(thing["nothing"], "nothing") == nil)
    let map = try #require(try archive.dictionary(thing["map"], "map"))
    #expect(map.map(\.key) == ["Ada"])
    #expect(archive.isNull(map[0].value))
    #expect(throws: KeyedArchiveError("list is not a string")) { try archive.string(thing["list"], "list") }
    #expect(throws: KeyedArchiveError.self) { try archive.dictionary(thing["list"], "list") }
  }
}
