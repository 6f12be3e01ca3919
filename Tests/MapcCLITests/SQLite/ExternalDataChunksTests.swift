import Foundation
import MapTestSupport
import Testing

/// A store with Binary values in external files and an entity that goes a chunk at a time
/// (`mapc migrate --memory-limit`, Specs/limits.md "Memory"): python's store of `Photo`
/// (`external_data_store.py`: inline values, files, two files of the same bytes, a 1.2 MB file)
/// with a `Zeta` table of 2,000 rows added by python3's sqlite3. The part read whole (the
/// photos) is written by the writer that has their files: the store and its files are those of
/// the run in memory, as python3 reads them. A limit whose quarter the files do not fit is
/// refused, naming them.
@Suite(.enabled(if: mapcExecutableProblem == nil && python3 != nil, "needs the built mapc and python3"))
struct ExternalDataChunksTests {
  /// Adds the `Zeta` table, its `Z_PRIMARYKEY` row and its hash to python's store.
  static let addZeta = """
    import sqlite3, plistlib, sys, base64
    c = sqlite3.connect(sys.argv[1])
    c.execute('CREATE TABLE ZZETA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZN INTEGER, ZTITLE VARCHAR )')
    c.executemany('INSERT INTO ZZETA VALUES (?, 2, 1, ?, ?)',
                  [(i, i * 3, 'zeta %d, a few words to fill the row' % i) for i in range(1, 2001)])
    c.execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (2, 'Zeta', 0, 2000)")
    m = plistlib.loads(c.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()[0])
    m['NSStoreModelVersionHashes']['Zeta'] = base64.b64decode(sys.argv[2])
    c.execute('UPDATE Z_METADATA SET Z_PLIST = ?', (plistlib.dumps(m, fmt=plistlib.FMT_BINARY),))
    c.commit()
    """

  @Test func filesOfThePartReadWholeAreThoseOfTheRunInMemory() throws {
    let dir = try FileManagerTemp.folder("external-chunks")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(
      versions: [
        ("M", ExternalDataTests.model(caption: false, zeta: true)),
        ("M 2", ExternalDataTests.model(caption: true, zeta: true)),
      ], named: "M", in: dir,
      current: "M 2")
    let store = dir.appendingPathComponent("App.sqlite").path
    _ = try SwiftDataStoreTests.python("external_data_store.py", ["make", store, "--no-missing"])
    let hash = runMapc(["hash", bundle.appendingPathComponent("M.xcdatamodel").path])
    let zeta = try #require(
      hash.stdout.split(separator: "\n").first { $0.hasPrefix("Zeta ") }?.split(separator: " ").last)
    let added = runTool(python3!, ["-c", Self.addZeta, store, String(zeta)])
    try #require(added.exitCode == 0, "\(added.stderr)")
    let before = try ExternalDataTests.read(store: store)

    var outputs: [String] = []
    for limit in [nil, "8M"] {
      let out = dir.appendingPathComponent("out-\(limit ?? "whole").sqlite").path
      let r = runMapc(
        ["migrate", "--model", bundle.path, "--store", store, "--output", out]
          + (limit.map { ["--memory-limit", $0] } ?? []))
      #expect(r.exitCode == 0, "\(r.stderr)")
      #expect(r.stderr.contains("chunks (--memory-limit)") == (limit != nil), "\(r.stderr)")
      outputs.append(out)
    }
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: outputs[0])) == Data(contentsOf: URL(fileURLWithPath: outputs[1])))
    let whole = try ExternalDataTests.read(store: outputs[0])
    let chunks = try ExternalDataTests.read(store: outputs[1])
    #expect(chunks.rows == whole.rows)
    #expect(chunks.files == whole.files)
    // The photos and the files their rows name are the source's.
    #expect(whole.rows == before.rows)
    #expect(ExternalDataTests.referenced(whole) == ExternalDataTests.referenced(before))

    // At 16K the 1.3 MB of files do not fit a quarter of the limit: refused, nothing written.
    let out = dir.appendingPathComponent("small.sqlite").path
    let r = runMapc(["migrate", "--model", bundle.path, "--store", store, "--output", out, "--memory-limit", "16K"])
    #expect(r.exitCode == 2, "\(r.stderr)")
    #expect(r.stderr.contains("bytes of external files, more than a quarter of the limit"), "\(r.stderr)")
    #expect(r.stderr.contains("[run-memory-limit]"))
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".small_SUPPORT").path))
  }
}
