import Foundation
import MapTestSupport
import Testing

/// `mapc lock` and `mapc lint --lock` (Specs/model-lock.md). Oracles: the entity hashes of
/// `Mappings/shop/expected-v2.json` (computed by `Mappings/expected.py`, an independent Python
/// implementation of Core Data's hash); the checksum formula recomputed with python3's hashlib;
/// `NSStoreModelVersionChecksumKey` as Core Data wrote it in the real stores of ../shared/stores.
@Suite struct ModelLockTests {
  static let root = SharedPaths.packageRoot

  /// A copy of the Shop bundle in a temporary folder; the caller removes `work`.
  static func shopBundle() throws -> (work: URL, bundle: URL) {
    let work = try FileManagerTemp.folder("mapc-lock")
    let bundle = work.appendingPathComponent("Shop.xcdatamodeld")
    try FileManager.default.copyItem(at: root.appendingPathComponent("Mappings/shop/Shop.xcdatamodeld"), to: bundle)
    return (work, bundle)
  }

  static func python(_ script: String, _ arguments: [String] = []) throws -> String {
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + arguments)
    try #require(r.exitCode == 0, "python3 failed: \(r.stderr)")
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  static func lockJSON(_ url: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  @Test func theLockRecordsCoreDataHashesAndChecksums() throws {
    let (work, bundle) = try Self.shopBundle()
    defer { FileManagerTemp.remove(work.path) }
    let lockFile = work.appendingPathComponent("Shop.lock")
    let r = runMapc(["lock", bundle.path, "-o", lockFile.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let lock = try Self.lockJSON(lockFile)
    let versions = try #require(lock["versions"] as? [[String: Any]])
    #expect(versions.map { $0["name"] as? String } == ["Shop", "Shop 2"])
    // Shop 2's entity hashes are the ones expected.py computed for the expected store.
    let expected = try #require(
      (try JSONSerialization.jsonObject(
        with: Data(contentsOf: Self.root.appendingPathComponent("Mappings/shop/expected-v2.json")))
        as? [String: Any])?["metadata"] as? [String: Any])
    let hashes = try #require(expected["entityVersionHashes"] as? [String: String])
    let entities = try #require(versions[1]["entities"] as? [[String: Any]])
    var locked: [String: String] = [:]
    for e in entities { locked[e["name"] as! String] = e["versionHash"] as? String }
    #expect(locked == hashes)
    // The checksum: SHA-256 over the hashes in entity name order, recomputed in Python.
    let checksum = try Self.python(
      """
      import sys, json, hashlib, base64
      h = json.loads(sys.argv[1])
      print(base64.b64encode(hashlib.sha256(b"".join(base64.b64decode(h[k]) for k in sorted(h))).digest()).decode())
      """, [String(decoding: try JSONSerialization.data(withJSONObject: hashes), as: UTF8.self)])
    #expect(versions[1]["versionChecksum"] as? String == checksum)
    let printed = runMapc(["lock", bundle.path, "--print-checksums"])
    #expect(printed.exitCode == 0)
    #expect(printed.stdout.contains("Shop 2  \(checksum)"), "\(printed.stdout)")
  }

  @Test func lintPassesAnUnchangedCopyAndFailsAnEditedShippedVersion() throws {
    let (work, bundle) = try Self.shopBundle()
    defer { FileManagerTemp.remove(work.path) }
    let lockFile = work.appendingPathComponent("Shop.lock")
    #expect(runMapc(["lock", bundle.path, "-o", lockFile.path]).exitCode == 0)
    let clean = runMapc(["lint", bundle.path, "--lock", lockFile.path])
    #expect(clean.exitCode == 0, "\(clean.stderr)")
    #expect(!clean.stderr.contains("lock-version"), "\(clean.stderr)")
    // Lint of the folder that holds both finds the lock by itself.
    #expect(runMapc(["lint", work.path]).exitCode == 0)

    // Edit the shipped first version: email becomes optional, a phone attribute appears.
    let contents = bundle.appendingPathComponent("Shop.xcdatamodel/contents")
    let text = try String(contentsOf: contents, encoding: .utf8)
      .replacingOccurrences(
        of: #"<attribute name="email" attributeType="String"/>"#,
        with:
          #"<attribute name="email" optional="YES" attributeType="String"/><attribute name="phone" optional="YES" attributeType="String"/>"#
      )
    try Data(text.utf8).write(to: contents)
    let edited = runMapc(["lint", bundle.path, "--lock", lockFile.path])
    #expect(edited.exitCode == 1, "\(edited.stderr)")
    #expect(edited.stderr.contains("entity Customer of the shipped version 'Shop' changed"), "\(edited.stderr)")
    #expect(
      edited.stderr.contains("property email changed (was attribute String; now attribute String, optional)"),
      "\(edited.stderr)")
    #expect(edited.stderr.contains("property phone was added"), "\(edited.stderr)")
    #expect(edited.stderr.contains("[lock-version-changed]"))
    #expect(runMapc(["lint", work.path]).exitCode == 1)

    // Locking again refuses to record the edit and leaves the lock as it was.
    let before = try Data(contentsOf: lockFile)
    let relock = runMapc(["lock", bundle.path, "-o", lockFile.path])
    #expect(relock.exitCode == 1)
    #expect(relock.stderr.contains("[lock-version-changed]"))
    #expect(try Data(contentsOf: lockFile) == before)
  }

  @Test func aNewVersionIsNotShippedYet() throws {
    let (work, bundle) = try Self.shopBundle()
    defer { FileManagerTemp.remove(work.path) }
    let lockFile = work.appendingPathComponent("Shop.lock")
    #expect(runMapc(["lock", bundle.path, "-o", lockFile.path, "--through", "Shop"]).exitCode == 0)
    let r = runMapc(["lint", bundle.path, "--lock", lockFile.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("version 'Shop 2' is not shipped yet"), "\(r.stderr)")
    #expect(r.stderr.contains("[lock-version-not-shipped]"))
    // Locking it later adds it and keeps the first.
    #expect(runMapc(["lock", bundle.path, "-o", lockFile.path]).exitCode == 0)
    let versions = try #require(try Self.lockJSON(lockFile)["versions"] as? [[String: Any]])
    #expect(versions.map { $0["name"] as? String } == ["Shop", "Shop 2"])
  }

  @Test func aBrokenLockIsReported() throws {
    let (work, bundle) = try Self.shopBundle()
    defer { FileManagerTemp.remove(work.path) }
    let lockFile = work.appendingPathComponent("Shop.lock")
    try Data("{\"format\": \"something else\"}".utf8).write(to: lockFile)
    let r = runMapc(["lint", bundle.path, "--lock", lockFile.path])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("[lock-invalid]"), "\(r.stderr)")
  }

  /// The checksum Core Data wrote in a real store (`NSStoreModelVersionChecksumKey`), read with
  /// python3 from a copy opened with its -wal.
  static func storeChecksum(_ store: URL) throws -> String {
    try python(
      """
      import sys, sqlite3, plistlib, shutil, tempfile, os
      d = tempfile.mkdtemp()
      for s in ["", "-wal", "-shm"]:
          if os.path.exists(sys.argv[1] + s): shutil.copy(sys.argv[1] + s, d + "/s.sqlite" + s)
      row = sqlite3.connect(d + "/s.sqlite").execute("SELECT Z_PLIST FROM Z_METADATA").fetchone()
      print(plistlib.loads(row[0])["NSStoreModelVersionChecksumKey"])
      shutil.rmtree(d)
      """, [store.path])
  }

  @Test(
    .enabled(if: SharedPaths.stores != nil, Comment(rawValue: SharedPaths.absentMessage)),
    arguments: [
      (
        "duckduckgo+BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld", "BookmarksModel 4",
        "duckduckgo+BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V4.sqlite"
      ),
      (
        "contentful+contentful-persistence.swift/Tests/ContentfulPersistenceTests/Test.xcdatamodeld", "Test",
        "contentful+contentful-persistence.swift/Tests/ContentfulPersistenceTests/BundledPreseededDatabaseTests/Test.sqlite"
      ),
    ])
  func checksumsAreTheOnesCoreDataWroteInRealStores(_ bundle: String, _ version: String, _ store: String) throws {
    let stores = try #require(SharedPaths.stores)
    let want = try Self.storeChecksum(stores.appendingPathComponent(store))
    #expect(want.count == 44)
    let r = runMapc(["lock", stores.appendingPathComponent(bundle).path, "--print-checksums"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let line = r.stdout.split(separator: "\n").first { $0.hasPrefix(version + " ") }
    #expect(line?.hasSuffix("  " + want) == true, "\(version): \(r.stdout)")
  }
}
