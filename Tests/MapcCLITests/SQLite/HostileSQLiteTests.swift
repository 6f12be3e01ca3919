import Foundation
import MapTestSupport
import Testing

/// Files that are not Core Data stores, or damaged ones, give one clear error with its id and
/// exit status 2, never a crash. Each is made from wibosco's 2-entity store (Post, Section) with
/// python3's sqlite3, in a temporary folder.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct HostileSQLiteTests {
  static var example: RealStore? {
    RealStore.all.first { $0.store.lastPathComponent == "CoreDataMigration_Example_3.sqlite" }
  }

  /// Copies the example store to `dir/name`, then runs `sql` on the copy with python3.
  func damaged(_ name: String, in dir: URL, _ sql: String) throws -> URL {
    let s = try #require(Self.example)
    let copy = dir.appendingPathComponent(name)
    try FileManager.default.copyItem(at: s.store, to: copy)
    let r = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()\nc.close()",
        copy.path, sql,
      ])
    #expect(r.exitCode == 0, "\(r.stderr)")
    return copy
  }

  func expectRefused(_ file: URL, _ id: String, _ text: String, sourceLine: SourceLocation = #_sourceLocation) throws {
    let s = try #require(Self.example)
    let out = file.deletingLastPathComponent().appendingPathComponent("out-\(file.lastPathComponent).json")
    let before = FileManager.default.contents(atPath: file.path)
    for args in [
      ["store", "export", file.path, "--model", s.bundle.path, "-o", out.path],
      ["store", "info", file.path, "--model", s.bundle.path],
    ] {
      let r = runMapc(args)
      #expect(r.exitCode == 2, "\(args[1]): \(r.stderr)", sourceLocation: sourceLine)
      #expect(r.stderr.hasPrefix("\(file.path): error: "), "\(args[1]): \(r.stderr)", sourceLocation: sourceLine)
      #expect(r.stderr.contains("[\(id)]"), "\(args[1]): \(r.stderr)", sourceLocation: sourceLine)
      #expect(r.stderr.contains(text), "\(args[1]): \(r.stderr)", sourceLocation: sourceLine)
    }
    #expect(!FileManager.default.fileExists(atPath: out.path), sourceLocation: sourceLine)
    #expect(FileManager.default.contents(atPath: file.path) == before, "the input changed", sourceLocation: sourceLine)
  }

  @Test func notSQLite() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("text.sqlite")
    try Data(
      "SQLite? no, just text that is long enough to have a header of a hundred bytes or more, really, truly.".utf8
    ).write(to: file)
    let s = try #require(Self.example)
    let r = runMapc([
      "store", "export", file.path, "--model", s.bundle.path, "-o", dir.appendingPathComponent("o.json").path,
    ])
    #expect(r.exitCode == 2)
    #expect(r.stderr.contains("error: the file is not an SQLite database [sqlite-not-a-database]"), "\(r.stderr)")
  }

  /// A FIFO named as an SQLite store is refused at once, never opened (opening would wait
  /// for a writer).
  @Test func fifoIsRefusedWithoutWaiting() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("pipe.sqlite").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let s = try #require(Self.example)
    let r = runMapc([
      "store", "export", fifo, "--model", s.bundle.path, "-o", dir.appendingPathComponent("o.json").path,
    ])
    #expect(r.exitCode == 2)
    #expect(
      r.stderr.contains("it is not a regular file; a store must be a regular file [io-not-regular-file]"), "\(r.stderr)"
    )
  }

  @Test func truncated() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let s = try #require(Self.example)
    let bytes = try Data(contentsOf: s.store)
    for cut in [50, 4096, 4096 * 3 + 17] {
      let file = dir.appendingPathComponent("cut-\(cut).sqlite")
      try bytes.prefix(cut).write(to: file)
      let r = runMapc([
        "store", "export", file.path, "--model", s.bundle.path, "-o", dir.appendingPathComponent("o.json").path,
      ])
      #expect(r.exitCode == 2, "\(cut): \(r.stderr)")
      #expect(r.stderr.contains("error: ") && r.stderr.contains("[sqlite-"), "\(cut): \(r.stderr)")
    }
  }

  @Test func sqliteButNotCoreData() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try damaged("plain.sqlite", in: dir, "DROP TABLE Z_METADATA;")
    try expectRefused(file, "sqlite-not-core-data", "is not a Core Data store: it has no Z_METADATA table")
  }

  @Test func metadataNotAPlist() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try damaged("plist.sqlite", in: dir, "UPDATE Z_METADATA SET Z_PLIST = x'62706c6973743030ffff';")
    try expectRefused(file, "sqlite-metadata", "Z_METADATA.Z_PLIST is not a binary property list")
  }

  @Test func superCycle() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try damaged("cycle.sqlite", in: dir, "UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 - Z_ENT;")
    try expectRefused(
      file, "sqlite-entity-cycle",
      "Z_PRIMARYKEY: following Z_SUPER from entity 1 (Post) comes back to entity 1 (Post), a cycle")
  }

  @Test func missingColumnIsNamed() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try damaged("column.sqlite", in: dir, "ALTER TABLE ZSECTION DROP COLUMN ZTITLE;")
    let s = try #require(Self.example)
    let r = runMapc([
      "store", "export", file.path, "--model", s.bundle.path, "-o", dir.appendingPathComponent("o.json").path,
    ])
    #expect(r.exitCode == 2)
    #expect(
      r.stderr.contains("\(file.path): error: table ZSECTION has no column ZTITLE for Section.title [sqlite-layout]"),
      "\(r.stderr)")
  }

  @Test func danglingForeignKeyNamesTheRow() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try damaged(
      "dangling.sqlite", in: dir, "UPDATE ZSECTION SET ZPOST = 999 WHERE Z_PK = (SELECT min(Z_PK) FROM ZSECTION);")
    let s = try #require(Self.example)
    let r = runMapc([
      "store", "export", file.path, "--model", s.bundle.path, "-o", dir.appendingPathComponent("o.json").path,
    ])
    #expect(r.exitCode == 2)
    #expect(
      r.stderr.contains("ZSECTION.ZPOST row Z_PK=") && r.stderr.contains(": 999 is no Z_PK of ZPOST [sqlite-dangling]"),
      "\(r.stderr)")
  }

  @Test func valueOfTheWrongClassNamesTableColumnAndRow() throws {
    let dir = try FileManagerTemp.folder("sqlite-hostile")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = try damaged(
      "value.sqlite", in: dir, "UPDATE ZSECTION SET ZINDEX = x'00' WHERE Z_PK = (SELECT min(Z_PK) FROM ZSECTION);")
    let s = try #require(Self.example)
    let r = runMapc([
      "store", "export", file.path, "--model", s.bundle.path, "-o", dir.appendingPathComponent("o.json").path,
    ])
    #expect(r.exitCode == 2)
    #expect(
      r.stderr.contains("ZSECTION.ZINDEX row Z_PK=")
        && r.stderr.contains("(Section.index): an attribute of type Integer")
        && r.stderr.contains("cannot hold a 1-byte BLOB [sqlite-value]"), "\(r.stderr)")
  }
}
