import Foundation
import MapArchives
import MapTestSupport
import Testing

/// `KeyedArchiveBuilder`: archives it builds read back through `KeyedArchive` and python3's
/// plistlib, with `$null` first, shared class dictionaries and plain objects, cycles through
/// reserved slots, and the layout of Xcode's own archives.
@Suite struct KeyedArchiveBuilderTests {
  /// A Person (name, age inline, nickname nil, tags NSArray, info NSMutableDictionary) and a
  /// second Person sharing the class and the name string.
  static func people() -> (builder: KeyedArchiveBuilder, root: PropertyListValue, second: PropertyListValue) {
    var b = KeyedArchiveBuilder()
    let name = b.string("Ada")
    let (x, y) = (b.string("x"), b.string("y"))
    let tags = b.array([x, y, .integer(7)])
    let (k, v) = (b.string("k"), b.string("v"))
    let info = b.dictionary([(key: k, value: v)], className: "NSMutableDictionary")
    let nickname = b.string(nil)
    let root = b.add(
      "Person", classes: ["Person", "NSObject"],
      fields: [
        .init("name", name), .init("age", .integer(36)), .init("nickname", nickname), .init("tags", tags),
        .init("info", info), .init("alive", .bool(true)),
      ])
    let again = b.string("Ada")
    let second = b.add("Person", classes: ["Person", "NSObject"], fields: [.init("name", again)])
    return (b, root, second)
  }

  @Test func aSmallArchiveReadsBack() throws {
    let (builder, root, second) = Self.people()
    let archive = try KeyedArchive(bytes: builder.archive(root: root))
    #expect(archive.objects[0] == .string("$null"))
    #expect(archive.objects == builder.objects)
    #expect(root == .uid(UInt64(archive.root)))

    let person = try archive.object(archive.root)
    #expect(person.className == "Person")
    #expect(person.classes == ["Person", "NSObject"])
    #expect(person.fields.map(\.key) == ["name", "age", "nickname", "tags", "info", "alive"])
    #expect(archive.objects[archive.root].dictionaryValue?.first?.key == "$class")
    #expect(try archive.string(person["name"], "name") == "Ada")
    #expect(person["age"] == .integer(36))
    #expect(person["alive"] == .bool(true))
    #expect(archive.isNull(person["nickname"]))
    #expect(try archive.string(person["nickname"], "nickname") == nil)

    let tags = try #require(try archive.array(person["tags"], "tags"))
    #expect(tags.count == 3)
    #expect(try archive.string(tags[0], "tag") == "x")
    #expect(try archive.string(tags[1], "tag") == "y")
    #expect(tags[2] == .integer(7))
    let tagsObject = try archive.object(archive.reference(person["tags"]!, "tags"))
    #expect(tagsObject.className == "NSArray")
    #expect(tagsObject.classes == ["NSArray", "NSObject"])

    let info = try #require(try archive.dictionary(person["info"], "info"))
    #expect(info.map(\.key) == ["k"])
    #expect(try archive.string(info[0].value, "v") == "v")
    let infoObject = try archive.object(archive.reference(person["info"]!, "info"))
    #expect(infoObject.classes == ["NSMutableDictionary", "NSDictionary", "NSObject"])

    let other = try archive.object(archive.reference(second, "second"))
    #expect(other["name"] == person["name"])
  }

  @Test func classDictionariesAndPlainObjectsAreShared() throws {
    let (builder, root, second) = Self.people()
    let archive = try KeyedArchive(bytes: builder.archive(root: root))
    var classCounts: [String: Int] = [:]
    for o in archive.objects {
      if let name = o["$classname"]?.stringValue { classCounts[name, default: 0] += 1 }
    }
    #expect(classCounts == ["Person": 1, "NSArray": 1, "NSMutableDictionary": 1])
    let first = archive.objects[archive.root]["$class"]
    #expect(first != nil)
    #expect(archive.objects[Int(second.uidValue!)]["$class"] == first)
    // Every string is one object.
    let strings = archive.objects.compactMap(\.stringValue)
    #expect(strings.count == Set(strings).count)

    var b = KeyedArchiveBuilder()
    let a1 = b.string("a"), a2 = b.string("a"), bee = b.string("b")
    #expect(a1 == a2)
    #expect(a1 != bee)
    let composed = b.string("é"), decomposed = b.string("e\u{301}")
    #expect(composed != decomposed)
    let five1 = b.object(.integer(5)), five2 = b.object(.integer(5))
    #expect(five1 == five2)
    let int1 = b.object(.integer(1)), real1 = b.object(.real(1)), yes = b.object(.bool(true))
    #expect(Set([int1, real1, yes]).count == 3)
    let data1 = b.object(.data([1])), data2 = b.object(.data([1]))
    #expect(data1 == data2)
    let none = b.string(nil)
    #expect(none == KeyedArchiveBuilder.null)
    #expect(KeyedArchiveBuilder.null == .uid(0))
    // Same name, other chain: another class dictionary.
    let x = b.add("X", classes: ["X", "NSObject"], fields: [])
    let y = b.add("X", classes: ["X", "Base", "NSObject"], fields: [])
    #expect(b.objects[Int(x.uidValue!)]["$class"] != b.objects[Int(y.uidValue!)]["$class"])
  }

  @Test func aCycleThroughAReservedSlot() throws {
    var b = KeyedArchiveBuilder()
    let parent = b.reserve()
    let child = b.add(
      "Child", classes: ["Child", "NSObject"], fields: [.init("parent", parent), .init("me", .uid(0))])
    let children = b.array([child], className: "NSMutableArray")
    b.fill(parent, "Parent", classes: ["Parent", "NSObject"], fields: [.init("children", children)])
    let bytes = b.archive(root: parent)
    let archive = try KeyedArchive(bytes: bytes)
    #expect(archive.root == 1)
    let p = try archive.object(archive.root)
    #expect(p.className == "Parent")
    let items = try #require(try archive.array(p["children"], "children"))
    let c = try archive.object(archive.reference(items[0], "child"))
    #expect(c.className == "Child")
    #expect(try archive.reference(c["parent"]!, "parent") == archive.root)
    #expect(archive.isNull(c["me"]))
    #expect(
      try archive.object(archive.reference(p["children"]!, "children")).classes == [
        "NSMutableArray", "NSArray", "NSObject",
      ])
  }

  /// `copy` carries an object's graph into another builder as it was: the cycle, the class
  /// chains, nested references in arrays, plain values and `$null`; what it does not reach stays
  /// behind, and a graph deeper than `maximumDepth` is refused.
  @Test func aGraphCopiedIntoAnotherArchive() throws {
    var b = KeyedArchiveBuilder()
    let parent = b.reserve()
    let other = b.add("Unreached", classes: ["Unreached", "NSObject"], fields: [])
    let child = b.add(
      "Child", classes: ["Child", "NSObject"],
      fields: [.init("parent", parent), .init("me", .uid(0)), .init("name", b.string("kid"))])
    let children = b.array([child, b.object(.integer(7))], className: "NSMutableArray")
    b.fill(parent, "Parent", classes: ["Parent", "NSObject"], fields: [.init("children", children)])
    let source = try KeyedArchive(bytes: b.archive(root: other))
    var c = KeyedArchiveBuilder()
    let root = try c.copy(Int(parent.uidValue!), of: source)
    let copied = try KeyedArchive(bytes: c.archive(root: root))
    #expect(
      !copied.objects.contains(
        .dictionary([
          .init("$classname", .string("Unreached")),
          .init("$classes", .array([.string("Unreached"), .string("NSObject")])),
        ])))
    let p = try copied.object(copied.root)
    let items = try #require(try copied.array(p["children"], "children"))
    let kid = try copied.object(copied.reference(items[0], "child"))
    #expect(kid.classes == ["Child", "NSObject"])
    #expect(try copied.reference(kid["parent"]!, "parent") == copied.root)
    #expect(copied.isNull(kid["me"]))
    #expect(try copied.string(kid["name"], "name") == "kid")
    #expect(try copied.resolve(items[1], "7") == .integer(7))
    #expect(try copied.object(copied.reference(p["children"]!, "children")).className == "NSMutableArray")

    var deep = KeyedArchiveBuilder()
    var link = deep.add("Link", classes: ["Link", "NSObject"], fields: [])
    for _ in 0..<KeyedArchive.maximumDepth {
      link = deep.add("Link", classes: ["Link", "NSObject"], fields: [.init("next", link)])
    }
    let chain = try KeyedArchive(bytes: deep.archive(root: link))
    var d = KeyedArchiveBuilder()
    #expect(throws: KeyedArchiveError.self) { try d.copy(chain.root, of: chain) }
  }

  @Test func archivesAreDeterministicAndKeyedAsXcodeWritesThem() throws {
    let one = Self.people()
    let two = Self.people()
    let bytes = one.builder.archive(root: one.root)
    #expect(bytes == two.builder.archive(root: two.root))
    let plist = try BinaryPropertyListReader.read(bytes)
    #expect(plist.dictionaryValue?.map(\.key) == ["$version", "$objects", "$archiver", "$top"])
    #expect(plist["$version"] == .integer(100_000))
    #expect(plist["$archiver"] == .string("NSKeyedArchiver"))
    #expect(plist["$top"] == .dictionary([.init("root", one.root)]))
    let same = plist == one.builder.plist(root: one.root)
    #expect(same)
  }

  @Test func classChains() {
    #expect(
      KeyedArchiveBuilder.classes(of: "NSMutableDictionary") == ["NSMutableDictionary", "NSDictionary", "NSObject"])
    #expect(KeyedArchiveBuilder.classes(of: "NSMutableArray") == ["NSMutableArray", "NSArray", "NSObject"])
    #expect(KeyedArchiveBuilder.classes(of: "NSSet") == ["NSSet", "NSObject"])
    #expect(
      KeyedArchiveBuilder.classes(of: "NSKeyPathExpression") == [
        "NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject",
      ])
    #expect(KeyedArchiveBuilder.classes(of: "Unknown") == ["Unknown", "NSObject"])
    var b = KeyedArchiveBuilder()
    let set = b.array([.integer(1)], className: "NSSet")
    #expect(
      b.objects.last
        == .dictionary([
          .init("$classname", .string("NSSet")), .init("$classes", .array([.string("NSSet"), .string("NSObject")])),
        ]))
    #expect(b.objects[Int(set.uidValue!)]["NS.objects"] == .array([.integer(1)]))
  }

  struct PythonView: Decodable, Equatable {
    var keys: [String]
    var version: Int
    var archiver: String
    var root: Int
    var first: String
    var count: Int
    var classes: [String: Int]
    var strings: [String]
  }

  @Test(.enabled(if: PythonOracle.available, Comment(rawValue: PythonOracle.absentMessage)))
  func plistlibLoadsBuiltArchives() throws {
    let (builder, root, _) = Self.people()
    var cyclic = KeyedArchiveBuilder()
    let slot = cyclic.reserve()
    let label = cyclic.string("ünïcödé 🙂")
    cyclic.fill(slot, "Node", classes: ["Node", "NSObject"], fields: [.init("next", slot), .init("label", label)])
    let built: [(KeyedArchiveBuilder, PropertyListValue)] = [
      (builder, root), (cyclic, slot), (KeyedArchiveBuilder(), .uid(0)),
    ]

    let script =
      PythonOracle.canonFunction + """
        import collections
        out = []
        for i in range(count):
            p = plistlib.loads(blob(i))
            objs = p["$objects"]
            out.append({
                "keys": list(p.keys()), "version": p["$version"], "archiver": p["$archiver"],
                "root": p["$top"]["root"].data, "first": objs[0], "count": len(objs),
                "classes": collections.Counter(o["$classname"] for o in objs if isinstance(o, dict) and "$classname" in o),
                "strings": [o for o in objs if isinstance(o, str)],
            })
        print(json.dumps(out))
        """
    let output = try PythonOracle.run(script, blobs: built.map { $0.0.archive(root: $0.1) })
    let views = try JSONDecoder().decode([PythonView].self, from: Data(output.utf8))
    try #require(views.count == built.count)
    for ((b, root), view) in zip(built, views) {
      var classes: [String: Int] = [:]
      for o in b.objects {
        if let name = o["$classname"]?.stringValue { classes[name, default: 0] += 1 }
      }
      let expected = PythonView(
        keys: ["$version", "$objects", "$archiver", "$top"], version: 100_000, archiver: "NSKeyedArchiver",
        root: Int(root.uidValue!), first: "$null", count: b.objects.count, classes: classes,
        strings: b.objects.compactMap(\.stringValue))
      #expect(view == expected)
    }
  }

  /// Fields sorted by key in every dictionary, so that archives that differ only in field order
  /// compare equal.
  static func sortedFields(_ v: PropertyListValue) -> PropertyListValue {
    switch v {
    case .array(let items): return .array(items.map(sortedFields))
    case .dictionary(let entries):
      return .dictionary(entries.map { .init($0.key, sortedFields($0.value)) }.sorted { $0.key < $1.key })
    default: return v
    }
  }

  @Test(.enabled(if: PropertyListCorpus.available, Comment(rawValue: SharedPaths.absentMessage)))
  func rebuildsACorpusUserInfoArchive() throws {
    // Xcode's user-info archives: an NSMutableDictionary of strings, numbered as NSKeyedArchiver
    // numbers objects (the instance before its contents, its class after them).
    let userInfos = PropertyListCorpus.archives.filter { $0.attribute == "userinfodata" }
    try #require(!userInfos.isEmpty)
    for archive in userInfos {
      let original = try KeyedArchive(bytes: archive.bytes)
      let entries = try #require(try original.dictionary(.uid(UInt64(original.root)), "root"))
      var b = KeyedArchiveBuilder()
      let slot = b.reserve()
      let keys = entries.map { b.string($0.key) }
      let values = try entries.map { b.string(try original.string($0.value, "value")) }
      b.fill(
        slot, "NSMutableDictionary", classes: KeyedArchiveBuilder.classes(of: "NSMutableDictionary"),
        fields: [.init("NS.keys", .array(keys)), .init("NS.objects", .array(values))])
      let rebuilt = try KeyedArchive(bytes: b.archive(root: slot))
      #expect(rebuilt.root == original.root, "\(archive)")
      let same = rebuilt.objects.map(Self.sortedFields) == original.objects.map(Self.sortedFields)
      #expect(same, "\(archive): \(rebuilt.objects) differs from \(original.objects)")
    }
  }
}
