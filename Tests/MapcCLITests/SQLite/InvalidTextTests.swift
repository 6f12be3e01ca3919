import Foundation
import MapTestSupport
import Testing

/// Issue 24, item 7: a String value whose bytes are not UTF-8 is an error naming the table,
/// column, row, entity and attribute, never decoded with replacement characters; nothing is
/// written. python3's sqlite3 puts the bytes (`a`, 0xFF, `b`) into a copy of a real store.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct InvalidTextTests {
  @Test func textThatIsNotUTF8IsRefused() throws {
    let s = try #require(SQLiteRunTests.store("CoreDataMigration_Example_1.sqlite"))
    let dir = try FileManagerTemp.folder("invalid-text")
    defer { try? FileManager.default.removeItem(at: dir) }
    let copy = dir.appendingPathComponent("store.sqlite").path
    for (suffix, data) in s.files() { try data.write(to: URL(fileURLWithPath: copy + suffix)) }
    let script = """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      pk = db.execute("SELECT min(Z_PK) FROM ZPOST").fetchone()[0]
      db.execute("UPDATE ZPOST SET ZCONTENT = CAST(X'61ff62' AS TEXT) WHERE Z_PK = ?", (pk,))
      db.commit()
      print(pk)
      """
    let p = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, copy])
    try #require(p.exitCode == 0, "\(p.stderr)")
    let pk = p.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let out = dir.appendingPathComponent("out.json").path
    let r = runMapc(["store", "export", copy, "--model", s.bundle.path, "-o", out])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("ZPOST.ZCONTENT row Z_PK=\(pk) (Post.content)"), "\(r.stderr)")
    #expect(r.stderr.contains("not UTF-8 (from byte 1 on)"), "\(r.stderr)")
    #expect(r.stderr.contains("[sqlite-value]"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
