import Foundation
import MapTestSupport
import Testing

/// To-many relationships without an inverse in chunks (issue 41): Core Data keeps the owner's
/// key (and, ordered, the member's position) in a column of the members' table of its own
/// (`Z<ent><REL>`, `Z_FOK_<ent><REL>`). `Shelf.books` (ordered) and `Shelf.loose` point at
/// books, `Book.related` at other books, none with an inverse. An inferred step over the store
/// at 2M, and its conversions to JSON and SQLite, go in chunks with the bytes of the same
/// commands in memory; python3's sqlite3 finds each shelf's books, in order, and each book's
/// loose shelf and related books in the store written in chunks as the JSON store imported
/// lists them.
@Suite(
  .enabled(if: mapcExecutableProblem == nil, "needs the built mapc"),
  .enabled(if: python3 != nil, "python3 is needed to read the stores"))
struct NoInverseChunksTests {
  static let books = 6000
  static let shelves = 30

  /// Shelf `s` holds, in this order, the books n ≡ s - 1 (mod 30) but every 4th, from the
  /// highest down; book n (n ≡ 0 mod 7) lies loose on shelf 1 + 7n mod 30; book n (n ≡ 0 mod
  /// 5) is related to books n + 1 and n + 2 (each book has at most one owner of each).
  static func shelfBooks(_ s: Int) -> [Int] {
    (1...books).filter { $0 % shelves == s - 1 && $0 % 4 != 0 }.reversed()
  }
  static func looseOn(_ s: Int) -> [Int] { (1...books).filter { $0 % 7 == 0 && 1 + (7 * $0) % shelves == s } }
  static func related(_ n: Int) -> [Int] { n % 5 == 0 ? [n + 1, n + 2].filter { $0 <= books } : [] }

  static func store(_ dir: URL) throws -> String {
    let bundle = try RelationshipChunksTests.twoVersions(dir) { extra in
      """
      <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>\(extra)\
      <relationship name="related" optional="YES" toMany="YES" destinationEntity="Book"/></entity>
      <entity name="Shelf"><attribute name="name" optional="YES" attributeType="String"/>\
      <relationship name="books" optional="YES" toMany="YES" ordered="YES" destinationEntity="Book"/>\
      <relationship name="loose" optional="YES" toMany="YES" destinationEntity="Book"/></entity>
      """
    }
    let books = (1...Self.books).map { n -> [String: Any] in
      [
        "id": "Book/\(n)", "title": "book \(n), a title long enough to fill its row",
        "related": related(n).map { "Book/\($0)" },
      ]
    }
    let shelves = (1...Self.shelves).map { s -> [String: Any] in
      [
        "id": "Shelf/\(s)", "name": "shelf \(s)", "books": shelfBooks(s).map { "Book/\($0)" },
        "loose": looseOn(s).map { "Book/\($0)" },
      ]
    }
    return try RelationshipChunksTests.imported(dir, bundle, ["Book": books, "Shelf": shelves])
  }

  /// Prints `shelves ok` when every shelf's books (by `Z_FOK_`), loose books and every book's
  /// related books in the store at argv[1] are argv[2]'s (JSON: shelf → books, shelf → loose,
  /// book → related), the columns found by their names' ends.
  static let check = """
    import sqlite3, sys, json
    db = sqlite3.connect(sys.argv[1])
    want = json.loads(sys.argv[2])
    cols = [r[1] for r in db.execute("PRAGMA table_info(ZBOOK)")]
    def col(end, fok=False): return [c for c in cols if c.endswith(end) and c.startswith("Z_FOK_") == fok and c != "Z_PK"][0]
    books, order, loose, related = col("BOOKS"), col("BOOKS", True), col("LOOSE"), col("RELATED")
    for s in range(1, 31):
        got = [pk for (pk,) in db.execute('SELECT Z_PK FROM ZBOOK WHERE "%s" = ? ORDER BY "%s"' % (books, order), (s,))]
        if got != want["books"][str(s)]: sys.exit("shelf %d books %r" % (s, got[:5]))
        got = [pk for (pk,) in db.execute('SELECT Z_PK FROM ZBOOK WHERE "%s" = ? ORDER BY Z_PK' % loose, (s,))]
        if got != want["loose"][str(s)]: sys.exit("shelf %d loose %r" % (s, got[:5]))
    for n, members in want["related"].items():
        got = [pk for (pk,) in db.execute('SELECT Z_PK FROM ZBOOK WHERE "%s" = ? ORDER BY Z_PK' % related, (int(n),))]
        if got != members: sys.exit("book %s related %r" % (n, got))
    print("shelves ok")
    """

  /// The first pass is a phase of its own before the read (`Specs/progress.md`), in bytes of the
  /// store's file (its size from the file system), its percentages never going back, also where
  /// its places went to disk and it read the store again.
  static func firstPassIsReported(_ text: String, store: String) throws {
    let lines = text.split(separator: "\n")
    let ends = lines.filter { $0.hasPrefix("mapc: ") && $0.contains(": done, ") }.map {
      $0.dropFirst(6).prefix { $0 != ":" }
    }
    #expect(ends == ["places (first pass)", "read store", "write store"], "\(text)")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
    let total = ProgressTruthTests.megabytes(size)
    #expect(lines.contains { $0.hasPrefix("mapc: places (first pass): done, \(total) in ") }, "\(text)")
    let percents = lines.filter { $0.hasPrefix("mapc: places (first pass): ") && $0.contains("/\(total) (") }.map {
      Int($0.split(separator: "(").last!.prefix { $0.isNumber })!
    }
    #expect(percents == percents.sorted() && !percents.contains(100), "\(text)")
  }

  /// What `check` is given: every shelf's books and loose books, every book's related ones.
  static func expected() throws -> String {
    var want: [String: [String: [Int]]] = ["books": [:], "loose": [:], "related": [:]]
    for s in 1...Self.shelves {
      want["books"]![String(s)] = Self.shelfBooks(s)
      want["loose"]![String(s)] = Self.looseOn(s)
    }
    for n in 1...Self.books where !Self.related(n).isEmpty { want["related"]![String(n)] = Self.related(n) }
    return String(decoding: try JSONSerialization.data(withJSONObject: want), as: UTF8.self)
  }

  @Test func anInferredStepAndConversionsGoInChunks() throws {
    let dir = try FileManagerTemp.folder("no-inverse-chunks")
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(dir)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let expected = try Self.expected()
    // The store imported in memory holds them (the oracle reads what it should).
    #expect(runTool(python3!, ["-c", Self.check, store, expected]).stdout == "shelves ok\n")

    let migrated = try RelationshipChunksTests().expectTheBytesInMemory(dir, store, to: 2, limit: "2M")
    let read = runTool(python3!, ["-c", Self.check, migrated, expected])
    #expect(read.stdout == "shelves ok\n", "\(read.stdout)\(read.stderr)")

    for to in ["json", "sqlite"] {
      let convert = [
        "store", "convert", store, "--model", dir.appendingPathComponent("R.xcdatamodeld").path, "--to", to, "-o",
      ]
      let whole = dir.appendingPathComponent("converted.\(to)").path
      let a = runMapc(convert + [whole, "--quiet"])
      try #require(a.exitCode == 0, "\(a.stderr)")
      let chunked = dir.appendingPathComponent("converted-chunks.\(to)").path
      let b = runMapc(convert + [chunked, "--memory-limit", "2M"])
      try #require(b.exitCode == 0, "\(b.stderr)")
      #expect((ConvertChunksTests.counts(b.stderr)?.chunks ?? 0) > 2, "\(b.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
      if to == "sqlite" {
        #expect(runTool(python3!, ["-c", Self.check, chunked, expected]).stdout == "shelves ok\n")
      }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  enum Flaw: String, CaseIterable, Sendable {
    /// Shelves named `shelf-N`: their books' chunks cannot name them by a number.
    case shelvesWithoutNumbers
    /// A book lies loose on two shelves, which Core Data's one owner column cannot hold.
    case bookOnTwoShelves
  }

  /// The JSON store with a flaw, converted to SQLite in memory and at 256K in chunks. Shelves
  /// without numbers: in memory they are numbered from 1; in chunks the run is refused naming
  /// the first shelf whose books are in other chunks (`run-memory-limit`). A book on two
  /// shelves: both refused with the same message, naming the book (`sqlite-write`). Nothing is
  /// written where refused.
  @Test(arguments: Flaw.allCases) func aFlawedJSONStoreIntoSQLiteIsRefusedInChunks(_ flaw: Flaw) throws {
    let dir = try FileManagerTemp.folder("no-inverse-json-flaw")
    defer { FileManagerTemp.remove(dir.path) }
    _ = try Self.store(dir)
    var document =
      try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("s.json")))
      as! [String: Any]
    var objects = document["objects"] as! [String: Any]
    var shelves = objects["Shelf"] as! [[String: Any]]
    switch flaw {
    case .shelvesWithoutNumbers:
      for i in shelves.indices { shelves[i]["id"] = "shelf-\(i + 1)" }
    case .bookOnTwoShelves:
      shelves[3]["loose"] = (shelves[3]["loose"] as! [String]) + [(shelves[20]["loose"] as! [String])[0]]
    }
    objects["Shelf"] = shelves
    document["objects"] = objects
    let json = dir.appendingPathComponent("flawed.json").path
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: json))
    let convert = [
      "store", "convert", json, "--model", dir.appendingPathComponent("R.xcdatamodeld").path, "--to", "sqlite", "-o",
    ]
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = runMapc(convert + [whole, "--quiet"])
    let chunked = dir.appendingPathComponent("chunks.sqlite").path
    let b = runMapc(convert + [chunked, "--memory-limit", "256K"])
    #expect(b.exitCode == 2, "\(b.stderr)")
    #expect(!FileManager.default.fileExists(atPath: chunked))
    switch flaw {
    case .shelvesWithoutNumbers:
      #expect(a.exitCode == 0, "\(a.stderr)")
      #expect(
        b.stderr.contains(
          "shelf-1 lists objects of other chunks through a to-many relationship without an inverse, and its id does not give an entity and a number"
        ) && b.stderr.contains("[run-memory-limit]"), "\(b.stderr)")
    case .bookOnTwoShelves:
      let message = try #require(a.stderr.firstMatch(of: /error: (.*\[sqlite-write\])/)?.1, "\(a.stderr)")
      #expect(message.contains("is a member of Shelf.loose of two objects"))
      #expect(b.stderr.contains(message), "\(b.stderr)")
      #expect(!FileManager.default.fileExists(atPath: whole))
    }
  }

  /// The JSON store the SQLite one was imported from, converted to SQLite at 2M: a JSON store
  /// lists a to-many's members with their owner only, and Core Data keeps the owner's key (and
  /// the position) in the members' rows, so a chunk of books does not know its shelves. A first
  /// pass keeps each book's owners out of its chunk (`MemberPlaces`), and its chunk gets stubs of
  /// them listing it: more than two chunks, the bytes of the conversion in memory, and python3's
  /// sqlite3 finds every shelf's books in order, its loose books and every book's related ones.
  /// Without the owners, the books' rows lacked their shelves' keys, exit 0. At 2M the places
  /// (about 5,000 books out of their shelves' chunks, 48 bytes each) fit in an eighth of the
  /// limit; at 512K they do not, and go to disk (`PlaceSpill`), which was refused before.
  @Test(arguments: ["2M", "512K"])
  func aJSONStoreGoesIntoSQLiteWithTheOwnersOfLinksWithoutAnInverse(limit: String) throws {
    let dir = try FileManagerTemp.folder("no-inverse-json-sqlite")
    defer { FileManagerTemp.remove(dir.path) }
    _ = try Self.store(dir)
    // (With a store UUID: one without gets a new one each time it is written.)
    var document =
      try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("s.json")))
      as! [String: Any]
    var metadata = document["metadata"] as! [String: Any]
    metadata["NSStoreUUID"] = "6B0C2F4E-1D3A-4B5C-9E8F-7A6B5C4D3E2F"
    document["metadata"] = metadata
    let json = dir.appendingPathComponent("u.json").path
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: json))
    let before = try Data(contentsOf: URL(fileURLWithPath: json))
    let convert = [
      "store", "convert", json, "--model", dir.appendingPathComponent("R.xcdatamodeld").path, "--to", "sqlite", "-o",
    ]
    let whole = dir.appendingPathComponent("whole.sqlite").path
    let a = runMapc(convert + [whole, "--quiet"])
    try #require(a.exitCode == 0, "\(a.stderr)")
    let chunked = dir.appendingPathComponent("chunks.sqlite").path
    let b = runMapc(
      convert + [chunked, "--memory-limit", limit, "--progress", "plain"],
      environment: ["MAPC_PROGRESS_INTERVAL": "0.01"])
    try #require(b.exitCode == 0, "\(b.stderr)")
    #expect((ConvertChunksTests.counts(b.stderr)?.chunks ?? 0) > 2, "\(b.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: chunked)) == Data(contentsOf: URL(fileURLWithPath: whole)))
    try Self.firstPassIsReported(b.stderr, store: json)
    let expected = try Self.expected()
    #expect(runTool(python3!, ["-c", Self.check, chunked, expected]).stdout == "shelves ok\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: json)) == before)
  }
}
