import Foundation
import MapTestSupport
import Testing

/// `mapc migrate --memory-limit` over an inheritance tree (issue 41): an abstract `Message`
/// with sub-entities `Text`, `Image` and `Reply` (a `Text`), all in one table, goes a chunk of
/// that table at a time. Its chunks refer to `Person` and to other messages (stubs of any kind,
/// their kind read from `Z_ENT`), `Attachment`s refer into the tree, and `Person.messages`, the
/// inverse of `Message.sender`, is read whole for each person a chunk refers to. The result must
/// be the run in memory's bytes, and python3's sqlite3 must read every column the source has,
/// in every table, as in the source.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: python3 != nil, "python3 is needed to edit the stores and read them"))
struct InheritanceChunksTests {
  /// V2 adds an attribute to `Text` (so to the tree's table). `ordered`: `Person.messages` is
  /// ordered (positions in the messages' rows). `tags`: `Message.tags`, declared by the abstract
  /// entity and ordered, is many-to-many with `Tag.messages` (a join table named after
  /// `Message`, its positions in the join rows). `dropsImages`: V2 has no `Image`.
  static func bundle(_ dir: URL, ordered: Bool, tags: Bool = false, dropsImages: Bool = false) throws -> URL {
    let messageTags =
      tags
      ? #"<relationship name="tags" optional="YES" toMany="YES" ordered="YES" destinationEntity="Tag" inverseName="messages" inverseEntity="Tag"/>"#
      : ""
    let tag =
      tags
      ? #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/><relationship name="messages" optional="YES" toMany="YES" destinationEntity="Message" inverseName="tags" inverseEntity="Message"/></entity>"#
      : ""
    let image =
      #"<entity name="Image" parentEntity="Message"><attribute name="width" attributeType="Integer 32" defaultValueString="0"/></entity>"#
    return try RelationshipChunksTests.twoVersions(dir) { extra in
      """
      <entity name="Message" isAbstract="YES"><attribute name="text" optional="YES" attributeType="String"/>\
      <relationship name="sender" optional="YES" maxCount="1" destinationEntity="Person" inverseName="messages" inverseEntity="Person"/>\
      <relationship name="attachments" optional="YES" toMany="YES" destinationEntity="Attachment" inverseName="message" inverseEntity="Attachment"/>\(messageTags)</entity>\(tag)
      <entity name="Text" parentEntity="Message"><attribute name="body" optional="YES" attributeType="String"/>\(extra)</entity>
      \(dropsImages && !extra.isEmpty ? "" : image)
      <entity name="Reply" parentEntity="Text">\
      <relationship name="replyTo" optional="YES" maxCount="1" destinationEntity="Message"/></entity>
      <entity name="Person"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="messages" optional="YES" toMany="YES" ordered="\(ordered ? "YES" : "NO")" destinationEntity="Message" inverseName="sender" inverseEntity="Message"/></entity>
      <entity name="Attachment"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="message" optional="YES" maxCount="1" destinationEntity="Message" inverseName="attachments" inverseEntity="Message"/></entity>
      """
    }
  }

  /// 12,000 messages, message n a `Text`, an `Image` or a `Reply` by n mod 3; every 4th sent by
  /// one of 50 people; a reply answers message ⌊n/2⌋ (of any kind); 2,000 attachments, each
  /// of message 1 + 5i mod 12,000. Imported by mapc, then edited with python3's sqlite3: rows
  /// deleted (gaps in `Z_PK`, dangling nothing: the deleted are never referred to) and some
  /// `Z_OPT` raised. With `tags`, message n (but every 5th) has tags 1 + n mod 40 and
  /// 1 + (7n + 3) mod 40, in that order.
  static func store(_ dir: URL, ordered: Bool, tags: Bool = false, dropsImages: Bool = false) throws -> String {
    let bundle = try bundle(dir, ordered: ordered, tags: tags, dropsImages: dropsImages)
    func tagsOf(_ n: Int) -> [Int] {
      guard tags, n % 5 != 0 else { return [] }
      let (a, b) = (1 + n % 40, 1 + (7 * n + 3) % 40)
      return a == b ? [a] : [a, b]
    }
    var tagged: [Int: [String]] = [:]
    let kinds = ["Text", "Image", "Reply"]
    func id(_ n: Int) -> String { "\(kinds[n % 3])/\(n / 3 + 1)" }
    var objects: [String: [[String: Any]]] = [:]
    var sent: [Int: [String]] = [:]
    var attached: [Int: [String]] = [:]
    for i in 1...2000 { attached[1 + (5 * i) % 12_000, default: []].append("Attachment/\(i)") }
    for n in 1...12_000 {
      var m: [String: Any] = ["id": id(n), "text": "message \(n), with words to fill its row"]
      if n % 3 != 1 { m["body"] = "body \(n)" } else { m["width"] = n % 1000 }
      if n % 4 == 0 {
        m["sender"] = "Person/\(1 + n % 50)"
        sent[1 + n % 50, default: []].append(id(n))
      }
      if n % 3 == 2 { m["replyTo"] = id(max(1, n / 2)) }
      m["attachments"] = attached[n] ?? []
      if tags {
        m["tags"] = tagsOf(n).map { "Tag/\($0)" }
        for t in tagsOf(n) { tagged[t, default: []].append(id(n)) }
      }
      objects[kinds[n % 3], default: []].append(m)
    }
    if tags {
      objects["Tag"] = (1...40).map { ["id": "Tag/\($0)", "name": "tag \($0)", "messages": tagged[$0] ?? []] }
    }
    objects["Person"] = (1...50).map { ["id": "Person/\($0)", "name": "person \($0)", "messages": sent[$0] ?? []] }
    objects["Attachment"] = (1...2000).map {
      ["id": "Attachment/\($0)", "name": "attachment \($0)", "message": id(1 + (5 * $0) % 12_000)]
    }
    let store = try RelationshipChunksTests.imported(dir, bundle, objects)
    // Messages no reply, attachment, person or tag refers to: n ≡ 1 (mod 3) with n % 4 ≠ 0 and
    // no attachment or tag, every 7th of those.
    let referred = Set((1...2000).map { 1 + (5 * $0) % 12_000 } + (1...12_000).map { max(1, $0 / 2) })
    let deleted = (1...12_000).filter {
      $0 % 3 == 1 && $0 % 4 != 0 && !referred.contains($0) && $0 % 7 == 0 && tagsOf($0).isEmpty
    }
    #expect(deleted.count > 40)
    let keys = try #require(try Self.keys(store, of: deleted.map(id)))
    try RelationshipChunksTests.edit(
      store, "DELETE FROM ZMESSAGE WHERE Z_PK IN (\(keys.map(String.init).joined(separator: ", ")))",
      "UPDATE ZMESSAGE SET Z_OPT = 3 WHERE Z_PK % 5 = 0")
    return store
  }

  /// The `Z_PK`s python3 reads for the objects `ids` (`Entity/n`: the n-th row of the entity's
  /// `Z_ENT` in `ZMESSAGE`, in `Z_PK` order).
  static func keys(_ store: String, of ids: [String]) throws -> [Int]? {
    let script =
      "import sqlite3, sys, json\nc = sqlite3.connect(sys.argv[1])\n"
      + "ent = dict(c.execute('SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY').fetchall())\n"
      + "rows = {}\n"
      + "for name in ('Text', 'Image', 'Reply'):\n"
      + "  rows[name] = [r[0] for r in c.execute('SELECT Z_PK FROM ZMESSAGE WHERE Z_ENT = ? ORDER BY Z_PK', (ent[name],))]\n"
      + "print(json.dumps([rows[i.split('/')[0]][int(i.split('/')[1]) - 1] for i in sys.argv[2:]]))\n"
    let r = runTool(python3!, ["-c", script, store] + ids)
    try #require(r.exitCode == 0, "\(r.stderr)")
    return try JSONDecoder().decode([Int].self, from: Data(r.stdout.utf8))
  }

  /// Every table's rows (each column the source store has, in `Z_PK` order, join tables by
  /// their keys), as python3 reads them.
  static let everyColumn =
    "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
    + "s = sqlite3.connect(sys.argv[2]) if len(sys.argv) > 2 else c\n"
    + "for (t,) in s.execute(\"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE') ORDER BY name\"):\n"
    + "  cols = [r[1] for r in s.execute('PRAGMA table_info(\"%s\")' % t)]\n"
    + "  print(t, cols, c.execute('SELECT %s FROM \"%s\" ORDER BY 1, 2' % (', '.join('\"%s\"' % x for x in cols), t)).fetchall())\n"

  @Test(arguments: [(false, false, "64K"), (true, false, "1M"), (false, true, "1M")])
  func aTreeGoesInChunksWithTheBytesOfTheRunInMemory(_ ordered: Bool, _ tags: Bool, _ limit: String) throws {
    let dir = try FileManagerTemp.folder("inheritance-chunks")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, ordered: ordered, tags: tags)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let chunked = try RelationshipChunksTests().expectTheBytesInMemory(dir, store, to: 2, limit: limit)
    let source = runTool(python3!, ["-c", Self.everyColumn, store]).stdout
    #expect(source.contains("'message 12000, with words to fill its row'"), "\(source.prefix(300))")
    // The join table (Message is entity 2), read by python3.
    if tags { #expect(source.contains("Z_2TAGS ['Z_2MESSAGES'"), "\(source.prefix(300))") }
    let read = runTool(python3!, ["-c", Self.everyColumn, chunked, store]).stdout
    #expect(read == source, "python3 reads other rows in the store written in chunks")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  /// V2 drops `Image`: a person's images have no destination, so a text's index in the
  /// destination's `Person.messages` is not its index in the source's, and a chunk that holds a
  /// stub of the person reads the whole relationship (`StreamingPlan.positions` leaves it out)
  /// instead of counting the rows before its messages. The run in chunks (with consent to lose
  /// the images) writes the bytes of the run in memory, and python3 finds each person's messages
  /// but the images in the source's order, each at the position Core Data gives its index
  /// (2048 + 1024 × index).
  @Test func anOrderedRelationshipThatLosesMembersIsReadWhole() throws {
    let dir = try FileManagerTemp.folder("inheritance-chunks-drop")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir, ordered: true, dropsImages: true)
    let r = RelationshipChunksTests()
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = r.migrate(dir, store, whole, to: 2, ["--quiet", "--allow-data-loss"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let chunked = dir.appendingPathComponent("chunks.sqlite").path
    let b = r.migrate(dir, store, chunked, to: 2, ["--memory-limit", "1M", "--allow-data-loss"])
    try #require(b.exitCode == 0, "\(b.stderr)")
    let chunks = b.stderr.firstMatch(of: /objects in (\d+) chunks/).flatMap { Int($0.1) } ?? 0
    #expect(chunks > 2, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    let expected =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + "image = c.execute(\"SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Image'\").fetchone()[0]\n"
      + "seen = {}\nout = []\n"
      + "for p, pk, e in c.execute('SELECT ZSENDER, Z_PK, Z_ENT FROM ZMESSAGE WHERE ZSENDER IS NOT NULL ORDER BY ZSENDER, Z_FOK_SENDER, Z_PK'):\n"
      + "  if e == image: continue\n  i = seen.get(p, 0)\n  seen[p] = i + 1\n  out.append((p, pk, 2048 + 1024 * i))\nprint(out)\n"
    let written =
      "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
      + "print(c.execute('SELECT ZSENDER, Z_PK, Z_FOK_SENDER FROM ZMESSAGE WHERE ZSENDER IS NOT NULL ORDER BY ZSENDER, Z_FOK_SENDER, Z_PK').fetchall())\n"
    let inSource = runTool(python3!, ["-c", expected, store]).stdout
    #expect(inSource.count > 10_000, "\(inSource.prefix(300))")
    #expect(runTool(python3!, ["-c", written, chunked]).stdout == inSource, "other messages, order or positions")
  }
}
