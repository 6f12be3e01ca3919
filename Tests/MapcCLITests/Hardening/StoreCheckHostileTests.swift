#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import MapTestSupport
import Testing

/// Hostile tries at `mapc store check` and `mapc store repair`: a FIFO or device as the store, a
/// truncated or overwritten file (a clear error, no crash), the output onto the store under
/// another name or through a link, and names with control characters escaped in every output.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct StoreCheckHostileTests {
  /// The tasks example with an SQLite copy of its first store (`s.sqlite`).
  static func folder(_ label: String) throws -> URL { try OutputRuleTableTests.folder(label) }

  static func python(_ code: String, _ arguments: [String]) -> MapcResult {
    runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", code] + arguments)
  }

  /// Exit statuses mapc gives, never a signal.
  static func documented(_ r: MapcResult) -> Bool { [0, 1, 2, 64].contains(r.exitCode) }

  @Test func aFIFOOrDeviceIsNoStore() throws {
    let dir = try Self.folder("check-fifo")
    defer { FileManagerTemp.remove(dir.path) }
    let fifo = dir.appendingPathComponent("fifo.sqlite").path
    #expect(mkfifo(fifo, 0o600) == 0)
    for input in [fifo, "/dev/null", "/dev/zero"] {
      for args in [["store", "check", input], ["store", "repair", input, "-o", dir.appendingPathComponent("o").path]] {
        let r = runMapc(args, in: dir)
        #expect(r.exitCode == 2 || r.exitCode == 64, "\(args): \(r.stderr)")
        #expect(r.stderr.contains("[io-not-regular-file]") || r.stderr.contains("[io-"), "\(args): \(r.stderr)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
  }

  @Test func aTruncatedOrOverwrittenStoreIsAClearError() throws {
    let dir = try Self.folder("check-truncated")
    defer { FileManagerTemp.remove(dir.path) }
    let bytes = try Data(contentsOf: dir.appendingPathComponent("s.sqlite"))
    var garbled = bytes
    for i in stride(from: 4096, to: garbled.count, by: 7) { garbled[i] = 0xA5 }
    let files: [(String, Data)] = [
      ("half.sqlite", bytes.prefix(bytes.count / 2)), ("header.sqlite", bytes.prefix(50)),
      ("garbled.sqlite", garbled),
    ]
    for (name, data) in files {
      try data.write(to: dir.appendingPathComponent(name))
      let r = runMapc(["store", "check", name, "--model", "Tasks.xcdatamodeld"], in: dir)
      #expect(Self.documented(r) && r.exitCode != 0, "\(name): \(r.exitCode) \(r.stderr)")
      #expect(r.stderr.contains("error:"), "\(name): \(r.stderr)")
      let o = runMapc(["store", "repair", name, "--model", "Tasks.xcdatamodeld", "-o", "o-" + name], in: dir)
      #expect(Self.documented(o) && o.exitCode != 0, "\(name): \(o.exitCode) \(o.stderr)")
    }
  }

  @Test func theOutputIsNeverTheStore() throws {
    let dir = try Self.folder("check-onto-input")
    defer { FileManagerTemp.remove(dir.path) }
    #expect(symlink("s.sqlite", dir.appendingPathComponent("link.sqlite").path) == 0)
    let before = try Data(contentsOf: dir.appendingPathComponent("s.sqlite"))
    for out in ["s.sqlite", "./s.sqlite", "link.sqlite"] {
      let r = runMapc(["store", "repair", "s.sqlite", "-o", out], in: dir)
      #expect(r.exitCode == 64 && r.stderr.contains("[io-output-is-input]"), "\(out): \(r.stderr)")
    }
    #expect(try Data(contentsOf: dir.appendingPathComponent("s.sqlite")) == before)
  }

  /// A table and a column whose names hold ESC and a line break: text escapes them, JSON and
  /// SARIF are JSON.
  @Test func controlCharactersAreEscaped() throws {
    let dir = try Self.folder("check-control")
    defer { FileManagerTemp.remove(dir.path) }
    let p = Self.python(
      "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n"
        + "db.execute('CREATE TABLE \"Z\\x1b[31mEVIL\\nX\" (a)')\n"
        + "db.execute('ALTER TABLE ZTASK ADD COLUMN \"Z\\x1b]0;T\\x07\" INTEGER')\ndb.commit()",
      [dir.appendingPathComponent("s.sqlite").path])
    try #require(p.exitCode == 0, "\(p.stderr)")
    let t = runMapc(["store", "check", "s.sqlite"], in: dir)
    #expect(t.exitCode == 0, "\(t.stderr)")
    #expect(!t.stderr.contains("\u{1b}") && !t.stderr.contains("\u{07}"), "\(t.stderr)")
    #expect(t.stderr.contains("[check-layout-table]") && t.stderr.contains("[check-layout-column]"))
    for format in ["json", "sarif"] {
      let r = runMapc(["store", "check", "s.sqlite", "--format", format], in: dir)
      #expect(r.exitCode == 0)
      #expect(!r.stdout.contains("\u{1b}") && !r.stdout.contains("\u{07}"))
      #expect((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) != nil, "\(format): \(r.stdout)")
    }
  }
}
