import Foundation
import MapTestSupport
import Testing

/// The worked example of custom policies (Examples/SongbookSimple): an executable that registers
/// `LegacyToModernPolicy` and `LibraryPolicy` and then runs as mapc.
@Suite struct SongbookSimpleExampleTests {
  static let folder = SharedPaths.packageRoot.appendingPathComponent("Examples/SongbookSimple/Mapping")
  static let mapping = folder.appendingPathComponent("SongbookSimple1_2.xml").path
  static let store = folder.appendingPathComponent("store-v1.json").path
  static let duplicateSlugStore = folder.appendingPathComponent("store-v1-duplicate-slug.json").path
  static let expected = folder.appendingPathComponent("expected-v2.json").path

  func songbook(_ arguments: [String], in directory: URL? = nil) -> MapcResult {
    runBuiltExecutable("SongbookSimple", arguments, in: directory)
  }

  func bytes(_ path: String) -> Data? { try? Data(contentsOf: URL(fileURLWithPath: path)) }

  /// A scratch folder holding a copy of the example's mapping folder (models included).
  func copyOfExample() throws -> URL {
    let work = try FileManagerTemp.folder("songbook-simple")
    for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path) {
      try FileManager.default.copyItem(
        at: Self.folder.appendingPathComponent(name), to: work.appendingPathComponent(name))
    }
    return work
  }

  @Test func compiledPlanGivesTheExpectedBytes() throws {
    let work = try copyOfExample()
    defer { FileManagerTemp.remove(work.path) }
    let plan = work.appendingPathComponent("s.cdm").path
    let compile = songbook(["compile", Self.mapping, "-o", plan])
    try #require(compile.exitCode == 0, "\(compile.stderr)")
    // a name no file of the example can have
    let out = work.appendingPathComponent("out-\(UUID().uuidString).json").path
    let run = songbook(["run", plan, "--store", Self.store, "--output", out])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let got = bytes(out) ?? Data()
    let want = try #require(bytes(Self.expected))
    #expect(got == want, "\(firstDifference(got, want))")
    #expect(run.stderr.contains("created Artist 2, Library 1, Song 4, Tag 4"), "\(run.stderr)")
  }

  @Test func mappingFileRunsDirectly() throws {
    let work = try copyOfExample()
    defer { FileManagerTemp.remove(work.path) }
    // a name no file of the example can have
    let out = work.appendingPathComponent("out-\(UUID().uuidString).json").path
    let run = songbook(["run", Self.mapping, "--store", Self.store, "--output", out, "--quiet"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(bytes(out) == bytes(Self.expected))
  }

  /// The expected store is what the independent Python version of the migration computes.
  @Test(.enabled(if: python3 != nil, "python3 is not installed"))
  func expectedStoreMatchesTheIndependentScript() throws {
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/ExampleData/songbook_simple_expected.py").path
    let out = FileManagerTemp.path("py-expected.json")
    defer { FileManagerTemp.remove(out) }
    let ok = runTool(python3!, [script, Self.store, out])
    #expect(ok.exitCode == 0, "\(ok.stderr)")
    #expect(bytes(out) == bytes(Self.expected), "expected-v2.json is not what the script computes")
    let refused = runTool(python3!, [script, Self.duplicateSlugStore, out + "-dup"])
    #expect(refused.exitCode == 2)
    #expect(refused.stderr.contains("Song/5"))
  }

  @Test func plainMapcRefusesTheMappingAndNamesBothPolicies() throws {
    let work = try copyOfExample()
    defer { FileManagerTemp.remove(work.path) }
    let plan = work.appendingPathComponent("s.cdm").path
    // Compiling needs no policy: the compiler only checks that a policy is named.
    let compile = runMapc(["compile", Self.mapping, "-o", plan])
    try #require(compile.exitCode == 0, "\(compile.stderr)")
    // a name no file of the example can have
    let out = work.appendingPathComponent("out-\(UUID().uuidString).json").path
    let run = runMapc(["run", plan, "--store", Self.store, "--output", out])
    #expect(run.exitCode == 2)
    #expect(
      run.stderr.contains(
        "SongbookSimple1_2.xml:28:3: error: Couldn't create mapping policy for class named SongbookSimple.LegacyToModernPolicy"
      ),
      "\(run.stderr)")
    #expect(run.stderr.contains("Couldn't create mapping policy for class named SBLibraryPolicy"), "\(run.stderr)")
    #expect(run.stderr.contains("[run-unknown-policy]"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func bareClassNameResolvesWhenUnambiguous() throws {
    let work = try copyOfExample()
    defer { FileManagerTemp.remove(work.path) }
    let xml = work.appendingPathComponent("SongbookSimple1_2.xml")
    let text = try String(contentsOf: xml, encoding: .utf8)
    try #require(text.contains("policy=\"SongbookSimple.LegacyToModernPolicy\""))
    try text.replacingOccurrences(
      of: "policy=\"SongbookSimple.LegacyToModernPolicy\"", with: "policy=\"LegacyToModernPolicy\""
    )
    .write(to: xml, atomically: false, encoding: .utf8)
    // a name no file of the example can have
    let out = work.appendingPathComponent("out-\(UUID().uuidString).json").path
    let run = songbook(["run", xml.path, "--store", Self.store, "--output", out, "--quiet"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(bytes(out) == bytes(Self.expected))

    // A name nobody registered is refused, bare or qualified.
    for name in ["NoSuchPolicy", "SongbookSimple.NoSuchPolicy", "Other.LegacyToModernPolicy"] {
      try text.replacingOccurrences(of: "SongbookSimple.LegacyToModernPolicy", with: name)
        .write(to: xml, atomically: false, encoding: .utf8)
      let bad = songbook(["run", xml.path, "--store", Self.store, "--output", out + "-2", "--quiet"])
      #expect(bad.exitCode == 2)
      #expect(bad.stderr.contains("Couldn't create mapping policy for class named \(name):"), "\(bad.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out + "-2"))
    }
  }

  @Test func customValidationErrorFailsTheRunAndWritesNothing() throws {
    let work = try copyOfExample()
    defer { FileManagerTemp.remove(work.path) }
    // a name no file of the example can have
    let out = work.appendingPathComponent("out-\(UUID().uuidString).json").path
    try Data("old output\n".utf8).write(to: URL(fileURLWithPath: out))
    let run = songbook(["run", Self.mapping, "--store", Self.duplicateSlugStore, "--output", out])
    #expect(run.exitCode == 2)
    #expect(
      run.stderr.contains(
        "SongbookSimple1_2.xml:28:3: error: Song/5 (created by LegacySongToSong from LegacySong/6): slug \"amazing-grace-john-newton\" is already used by Song/1 [songbook-duplicate-slug]"
      ),
      "\(run.stderr)")
    #expect(bytes(out) == Data("old output\n".utf8), "an existing output was changed")

    // In place: the store stays as it was, and no temporary file is left.
    let store = work.appendingPathComponent("store-v1-duplicate-slug.json").path
    let before = bytes(store)
    let inPlace = songbook(["run", Self.mapping, "--store", store, "--in-place"])
    #expect(inPlace.exitCode == 2)
    #expect(bytes(store) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  /// An error thrown by a policy function is placed at the calling expression and names the
  /// source object being migrated (`manager.currentFrame`).
  @Test func policyFunctionErrorNamesTheSourceObject() throws {
    let work = try copyOfExample()
    defer { FileManagerTemp.remove(work.path) }
    let store = work.appendingPathComponent("store-v1.json")
    let text = try String(contentsOf: store, encoding: .utf8)
    try #require(text.contains("\"duration\": \"3:59\""))
    try text.replacingOccurrences(of: "\"duration\": \"3:59\"", with: "\"duration\": \"3:75\"")
      .write(to: store, atomically: false, encoding: .utf8)
    // a name no file of the example can have
    let out = work.appendingPathComponent("out-\(UUID().uuidString).json").path
    let run = songbook(["run", Self.mapping, "--store", store.path, "--output", out])
    #expect(run.exitCode == 2)
    #expect(
      run.stderr.contains(
        "SongbookSimple1_2.xml:32:31: error: source object LegacySong/2: duration \"3:75\" is not minutes:seconds [songbook-duration]"
      ),
      "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// The example executable is a whole mapc: other commands work as usual.
  @Test func otherCommandsWork() {
    let hash = songbook(["hash", Self.folder.appendingPathComponent("SongbookSimple.xcdatamodeld").path])
    #expect(hash.exitCode == 0)
    #expect(
      hash.stdout.contains("Song                  Ag/0SU6VVPdfUM9z52eQn9NQqf3iK7wNinnYtnVOfG8="), "\(hash.stdout)")
  }
}

/// `python3` on the PATH, if any.
let python3: URL? = TestTools.python3

/// Runs a tool that is not part of the package.
func runTool(_ executable: URL, _ arguments: [String]) -> MapcResult {
  runExecutable(executable, arguments)
}

/// Runs the built mapc on a pseudo-terminal (python3's pty module), returning what it wrote to
/// the terminal as stdout: how progress looks to a user at a terminal.
func runMapcOnATerminal(_ arguments: [String]) -> MapcResult {
  let script = """
    import os, pty, sys
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.argv[1], sys.argv[1:])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(out)
    sys.exit(os.waitstatus_to_exitcode(status))
    """
  return runTool(python3!, ["-c", script, mapcExecutable!.path] + arguments)
}
