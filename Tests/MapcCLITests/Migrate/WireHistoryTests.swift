import Foundation
import MapTestSupport
import Testing

/// Issue 38's acceptance on Wire's 90-version bundle and its 2.80.0 store (`../shared/stores`):
/// lint finds no error in a history Core Data migrates; diff says 2.46.0 → 2.47.0 is no step, in
/// one line for its stray renaming identifier; an empty store made at 2.3 and the 2.80.0 store
/// migrate to the current version as a chain and directly, to the same tables and rows (python3's
/// sqlite3; only `Z_METADATA`, which records the steps, differs).
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct WireHistoryTests {
  static var root: URL { SharedPaths.stores!.appendingPathComponent("wireapp+wire-ios-data-model") }
  static var bundle: String { root.appendingPathComponent("Resources/zmessaging.xcdatamodeld").path }
  static var store: String { root.appendingPathComponent("Tests/Resources/store2-80-0.wiredatabase").path }

  @Test func lintFindsNoErrorAndDiffSaysNoStep() throws {
    let lint = runMapc(["lint", Self.bundle])
    #expect(lint.exitCode == 0, "\(lint.stderr.suffix(2000))")
    #expect(lint.stderr.contains("0 errors"), "\(lint.stderr.suffix(500))")
    let unmatched = lint.stderr.split(separator: "\n").filter { $0.contains("[chain-renaming-identifier-unmatched]") }
    #expect(unmatched.contains { $0.contains("entity Conversation's renaming identifier 'messageDestructionTimeout'") })
    let diff = runMapc(["diff", Self.bundle, "--from", "zmessaging2.46.0", "--to", "zmessaging2.47.0"])
    #expect(diff.exitCode == 0, "\(diff.stderr)")
    let lines = diff.stdout.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("! ") }.count == 1, "\(diff.stdout)")
    #expect(lines.allSatisfy { $0.count < 400 }, "\(diff.stdout)")
    #expect(diff.stdout.contains("Core Data opens a store of zmessaging2.46.0 with zmessaging2.47.0 without migrating"))
  }

  /// Every table's rows, `Z_METADATA` aside, as python3's sqlite3 reads them.
  static func rows(_ path: String) -> String {
    runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        """
        import sqlite3,sys,hashlib
        db=sqlite3.connect(sys.argv[1])
        for (t,) in sorted(db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name != 'Z_METADATA'")):
            rows=sorted(repr(r) for r in db.execute('SELECT * FROM "%s"' % t))
            print(t, len(rows), hashlib.sha256('\\n'.join(rows).encode()).hexdigest())
        """,
        path,
      ]
    ).stdout
  }

  @Test(arguments: ["empty at 2.3", "2.80.0"]) func chainAndDirectAgree(_ which: String) throws {
    let dir = try FileManagerTemp.folder("wire-history")
    defer { FileManagerTemp.remove(dir.path) }
    var store = Self.store
    if which == "empty at 2.3" {
      let version = Self.bundle + "/zmessaging2.3.xcdatamodel"
      let json = dir.appendingPathComponent("e.json")
      try JSONSerialization.data(withJSONObject: [
        "metadata": try ModelBundles.storeMetadata(URL(fileURLWithPath: version)), "objects": [String: Any](),
      ]).write(to: json)
      store = dir.appendingPathComponent("e.sqlite").path
      let i = runMapc(["store", "import", json.path, "--model", Self.bundle, "-o", store])
      try #require(i.exitCode == 0, "\(i.stderr)")
    }
    var results: [String] = []
    for direct in [false, true] {
      let out = dir.appendingPathComponent(direct ? "direct.sqlite" : "chain.sqlite").path
      let r = runMapc(
        ["migrate", "--model", Self.bundle, "--store", store, "--output", out, "--quiet", "--allow-data-loss"]
          + (direct ? ["--direct"] : []))
      try #require(r.exitCode == 0, "\(r.stderr.suffix(2000))")
      results.append(Self.rows(out))
    }
    #expect(!results[0].isEmpty)
    #expect(results[0] == results[1])
  }
}
