#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import MapTestSupport
import Testing

/// Issue 40: `mapc test` writes nothing it was given to read. `--update` writes a case's expected
/// store only inside the fixture's folder (after links) and never over an input of the case;
/// `--junit` is a command-line output: never an input, written through links and FIFOs; an
/// interrupted run leaves no work folder and no child. Every input is compared byte for byte
/// before and after. Issue 38: `--update` writes the format the expected file's name says, and a
/// chain case may name a store Core Data wrote whose schema the result must have.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct TestCommandOutputTests {
  /// Every file under `folder` with its bytes (links as their target's text).
  static func snapshot(_ folder: URL) -> [String: Data] {
    var result: [String: Data] = [:]
    let e = FileManager.default.enumerator(atPath: folder.path)
    while let relative = e?.nextObject() as? String {
      let path = folder.appendingPathComponent(relative).path
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        result[relative] = Data(("link:" + target).utf8)
      } else if let data = FileManager.default.contents(atPath: path) {
        result[relative] = data
      }
    }
    return result
  }

  func shop() throws -> (work: URL, folder: URL) { try TestCommandTests.copyExample("shop") }

  func setExpected(_ folder: URL, _ expected: String) throws {
    try TestCommandTests.editJSON(folder.appendingPathComponent("fixture.json")) { json in
      var cases = json["cases"] as! [[String: Any]]
      cases[0]["expected"] = expected
      json["cases"] = cases
    }
  }

  @Test(arguments: [
    "store-v1.json", "ShopV1ToV2.xml", "fixture.json", "Shop.xcdatamodeld/Shop.xcdatamodel/contents", "../x.json",
    "link-out/x.json",
  ])
  func updateNeverWritesAnInputOrOutsideTheFolder(_ expected: String) throws {
    let (work, folder) = try shop()
    defer { FileManagerTemp.remove(work.path) }
    let outside = try FileManagerTemp.folder("mapc-test-outside")
    defer { FileManagerTemp.remove(outside.path) }
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("link-out").path, withDestinationPath: outside.path)
    try setExpected(folder, expected)
    let before = Self.snapshot(folder)
    let r = runMapc(["test", folder.path, "--update"], in: work)
    #expect(r.exitCode == 1, "\(r.stdout)\n\(r.stderr)")
    #expect(!r.stdout.contains("UPDATED"), "\(r.stdout)")
    #expect(r.stdout.contains("--update"), "\(r.stdout)")
    #expect(Self.snapshot(folder) == before)
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("x.json").path))
    #expect((try? FileManager.default.contentsOfDirectory(atPath: outside.path)) == [])
  }

  @Test func updateWritesThroughALinkInsideTheFolder() throws {
    let (work, folder) = try shop()
    defer { FileManagerTemp.remove(work.path) }
    let real = folder.appendingPathComponent("expected-v2.json")
    let original = try Data(contentsOf: real)
    try Data("{}".utf8).write(to: real)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("alias.json").path, withDestinationPath: "expected-v2.json")
    try setExpected(folder, "alias.json")
    let r = runMapc(["test", folder.path, "--update"], in: work)
    #expect(r.exitCode == 0, "\(r.stdout)\n\(r.stderr)")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("alias.json").path)
        == "expected-v2.json")
    #expect(try Data(contentsOf: real) == original)
  }

  @Test(arguments: [
    "store-v1.json", "ShopV1ToV2.xml", "expected-v2.json", "Shop.xcdatamodeld/Shop.xcdatamodel/contents",
  ])
  func junitIsNeverAnInput(_ name: String) throws {
    let (work, folder) = try shop()
    defer { FileManagerTemp.remove(work.path) }
    // A hard link under another name is the same file.
    let link = work.appendingPathComponent("hard")
    try FileManager.default.linkItem(atPath: folder.appendingPathComponent(name).path, toPath: link.path)
    let before = Self.snapshot(folder)
    for target in [folder.appendingPathComponent(name).path, link.path] {
      let r = runMapc(["test", folder.path, "--junit", target], in: work)
      #expect(r.exitCode == 64, "\(r.stdout)\n\(r.stderr)")
      #expect(r.stderr.contains("[io-output-is-input]"), "\(r.stderr)")
    }
    #expect(Self.snapshot(folder) == before)
  }

  @Test func junitIsWrittenThroughALinkAndAFIFO() throws {
    let (work, folder) = try shop()
    defer { FileManagerTemp.remove(work.path) }
    let report = work.appendingPathComponent("report.xml")
    try Data().write(to: report)
    let link = work.appendingPathComponent("link.xml")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: report.path)
    let r = runMapc(["test", folder.path, "--junit", link.path], in: work)
    #expect(r.exitCode == 0, "\(r.stdout)\n\(r.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == report.path)
    #expect(String(decoding: try Data(contentsOf: report), as: UTF8.self).contains("<testsuites"))
    // A FIFO is written to, not replaced: a reader (cat) gets the report.
    let fifo = work.appendingPathComponent("fifo.xml").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let cat = Process()
    cat.executableURL = URL(fileURLWithPath: "/bin/cat")
    cat.arguments = [fifo]
    let pipe = Pipe()
    cat.standardOutput = pipe
    try cat.run()
    let f = runMapc(["test", folder.path, "--junit", fifo], in: work)
    let read = pipe.fileHandleForReading.readDataToEndOfFile()
    cat.waitUntilExit()
    #expect(f.exitCode == 0, "\(f.stderr)")
    #expect(String(decoding: read, as: UTF8.self).contains("<testsuites"))
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
  }

  @Test(arguments: [
    #"{"store": "store-v1.json", "exitCode": -1}"#, #"{"store": "store-v1.json", "exitCode": 300}"#,
    #"{"store": "store-v1.json\u0000x", "expected": "expected-v2.json"}"#,
    #"{"store": "", "expected": "expected-v2.json"}"#,
  ])
  func aWrongCaseIsRefused(_ case: String) throws {
    let (work, folder) = try shop()
    defer { FileManagerTemp.remove(work.path) }
    try Data(#"{"mapping": "ShopV1ToV2.xml", "cases": [\#(`case`)]}"#.utf8).write(
      to: folder.appendingPathComponent("fixture.json"))
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 1, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("[test-fixture-invalid]"), "\(r.stderr)")
    #expect(!r.stdout.contains("PASS"))
  }

  @Test func anEmptyKnownIssueIsRefused() throws {
    let (work, folder) = try shop()
    defer { FileManagerTemp.remove(work.path) }
    try TestCommandTests.editJSON(folder.appendingPathComponent("fixture.json")) { $0["knownIssue"] = "" }
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("'knownIssue'"), "\(r.stderr)")
  }

  /// A chain case on an SQLite store whose expected file is named `.json`: `--update` writes JSON
  /// (python3's json reads it), and the case passes against it afterwards.
  @Test func updateWritesTheFormatTheNameSays() throws {
    let (work, folder) = try TestCommandTests.copyExample("notes")
    defer { FileManagerTemp.remove(work.path) }
    let mappings = folder.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    let text = try String(contentsOf: folder.appendingPathComponent("NotesV1ToV2.xml"), encoding: .utf8)
      .replacingOccurrences(of: "\"Notes.xcdatamodeld", with: "\"../Notes.xcdatamodeld")
    try Data(text.utf8).write(to: mappings.appendingPathComponent("NotesV1ToV2.xml"))
    let imported = runMapc(
      ["store", "import", "store-v1.json", "--model", "Notes.xcdatamodeld", "-o", "store-v1.sqlite"], in: folder)
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    try Data(
      #"{"model": "Notes.xcdatamodeld", "mappings": "mappings", "cases": [{"store": "store-v1.sqlite", "expected": "new.json"}]}"#
        .utf8
    ).write(to: folder.appendingPathComponent("fixture.json"))
    let u = runMapc(["test", folder.path, "--update"], in: work)
    #expect(u.exitCode == 0, "\(u.stdout)\n\(u.stderr)")
    let p = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c", "import json,sys; d=json.load(open(sys.argv[1])); print(sorted(d['objects']))",
        folder.appendingPathComponent("new.json").path,
      ])
    #expect(p.exitCode == 0, "\(p.stderr)")
    #expect(p.stdout.contains("Notebook"), "\(p.stdout)")
    #expect(runMapc(["test", folder.path], in: work).exitCode == 0)
  }
}

/// SIGTERM, SIGINT or SIGHUP to `mapc test` while a case's child runs: the child ends, and the
/// case's work folder (with the child's files) is removed.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct TestCommandSignalTests {
  @Test(arguments: [SIGTERM, SIGINT, SIGHUP]) func aSignalLeavesNoWorkFolderOrChild(_ sig: Int32) throws {
    let (work, folder) = try TestCommandTests.copyExample("shop")
    defer { FileManagerTemp.remove(work.path) }
    // 200,000 customers (python3): the child runs for a while.
    let p = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        """
        import json,sys
        d=json.load(open(sys.argv[1]))
        d['objects']['Customer']=[{'id':'c%d'%i,'email':'x%d@example.org'%i,'name':'N%d'%i,'orders':[]} for i in range(200000)]
        d['objects']['Order']=[]
        json.dump(d,open(sys.argv[1],'w'))
        """,
        folder.appendingPathComponent("store-v1.json").path,
      ])
    try #require(p.exitCode == 0, "\(p.stderr)")
    let tmp = try FileManagerTemp.folder("mapc-test-signal-tmp")
    defer { FileManagerTemp.remove(tmp.path) }
    let process = Process()
    process.executableURL = mapcExecutable
    process.arguments = ["test", folder.path]
    process.currentDirectoryURL = work
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = tmp.path
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait for the case's work folder and its child (at most 20 s).
    var child: pid_t = 0
    for _ in 0..<400 {
      usleep(50_000)
      child = Self.child(of: process.processIdentifier)
      if child != 0, (try? FileManager.default.contentsOfDirectory(atPath: tmp.path))?.isEmpty == false { break }
    }
    try #require(child != 0, "no child started")
    usleep(300_000)
    kill(process.processIdentifier, sig)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(kill(child, 0) != 0, "the child \(child) is still running")
    #expect((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) == [])
  }

  /// A child process of `parent` (its parent id in /proc/PID/stat), or 0.
  static func child(of parent: pid_t) -> pid_t {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 1, pid_t(fields[1]) == parent { return pid }
    }
    return 0
  }
}

/// Issue 38: a chain case that names a store Core Data wrote at the target version passes only
/// when the result's `sqlite_master` is that store's (DuckDuckGo's Bookmarks V4 → V5).
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct TestAgainstCoreDataStoreTests {
  @Test func aChainCaseIsComparedWithTheStoreCoreDataWrote() throws {
    let root = SharedPaths.stores!.appendingPathComponent("duckduckgo+BrowserServicesKit")
    let bundle = root.appendingPathComponent("Sources/Bookmarks/BookmarksModel.xcdatamodeld").path
    let v4 = root.appendingPathComponent("Tests/BookmarksTests/Resources/Bookmarks_V4.sqlite").path
    let v5 = root.appendingPathComponent("Tests/BookmarksTests/Resources/Bookmarks_V5.sqlite").path
    let work = try FileManagerTemp.folder("mapc-test-core-data")
    defer { FileManagerTemp.remove(work.path) }
    func fixture(_ coreData: String) throws {
      let text = """
        {"model": "\(bundle)", "cases": [{"store": "\(v4)", "to": "BookmarksModel 5", "expected": "v5.json",
          "coreDataStore": "\(coreData)"}]}
        """
      try Data(text.utf8).write(to: work.appendingPathComponent("fixture.json"))
    }
    try fixture(v5)
    let u = runMapc(["test", work.path, "--update"], in: work)
    #expect(u.exitCode == 0, "\(u.stdout)\n\(u.stderr)")
    let r = runMapc(["test", work.path], in: work)
    #expect(r.exitCode == 0, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stdout.contains("1 passed"), "\(r.stdout)")
    // The V4 store's schema is not V5's: the case fails, naming what differs.
    try fixture(v4)
    let wrong = runMapc(["test", work.path], in: work)
    #expect(wrong.exitCode == 1, "\(wrong.stdout)")
    #expect(wrong.stdout.contains("which Core Data wrote"), "\(wrong.stdout)")
  }
}
