import Foundation
import MapTestSupport
import Testing

/// `--progress` and `--quiet` mean the same on every long command (`run`, `migrate`, `store
/// import/export/convert`, `test`): progress only on a terminal unless `--progress` asks for
/// it, and nothing at all on standard error with `--quiet`, whatever `--progress` says. On the
/// examples' small stores.
@Suite(
  .serialized,
  .enabled(if: python3 != nil, "python3 runs the pseudo-terminal"),
  .enabled(if: mapcExecutable != nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ProgressOptionsTests {
  static let mappings = SharedPaths.packageRoot.appendingPathComponent("Mappings")
  static let tasks = mappings.appendingPathComponent("tasks")
  static let notes = mappings.appendingPathComponent("notes")

  /// Each long command on the examples, writing into `work`, and the progress phases it has.
  static func commands(in work: URL) throws -> [(name: String, arguments: [String], phases: [String])] {
    let fm = FileManager.default
    let copy = work.appendingPathComponent("tasks-v1.json")
    if !fm.fileExists(atPath: copy.path) {
      try fm.copyItem(at: tasks.appendingPathComponent("store-v1.json"), to: copy)
    }
    let model = tasks.appendingPathComponent("Tasks.xcdatamodeld").path
    let sqlite = work.appendingPathComponent("imported.sqlite").path
    let out = { (name: String) in work.appendingPathComponent("\(UUID().uuidString)-\(name)").path }
    let runPhases = [
      "read store", "pass 1/3 (create instances)", "pass 2/3 (relationships)", "pass 3/3 (validate)", "write store",
    ]
    return [
      (
        "run",
        [
          "run", notes.appendingPathComponent("NotesV1ToV2.xml").path, "--store",
          notes.appendingPathComponent("store-v1.json").path, "--output", out("run.json"),
        ], runPhases
      ),
      (
        "migrate",
        [
          "migrate", "--model", model, "--mappings", tasks.appendingPathComponent("mappings").path, "--store",
          copy.path, "--output", out("migrated.json"),
        ], ["step 1/3 Tasks→Tasks 2: read store", "step 3/3 Tasks 3→Tasks 4: write store"]
      ),
      ("store import", ["store", "import", copy.path, "--model", model, "-o", sqlite], ["read store", "write store"]),
      (
        "store export", ["store", "export", sqlite, "--model", model, "-o", out("exported.json")],
        ["read store", "write store"]
      ),
      (
        "store convert", ["store", "convert", copy.path, "--model", model, "-o", out("converted.sqlite")],
        ["read store", "write store"]
      ),
      ("test", ["test", tasks.path], ["test"]),
    ]
  }

  /// The phases that ended in `text`: `mapc: PHASE: done, …`.
  static func ended(_ text: String) -> [String] {
    text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" }.compactMap { line in
      let line = line.trimmingCharacters(in: .whitespaces)
      guard line.hasPrefix("mapc: "), let r = line.range(of: ": done, ") else { return nil }
      return String(line[line.index(line.startIndex, offsetBy: 6)..<r.lowerBound])
    }
  }

  @Test func offATerminalOnlyWhenAskedAndNeverWithQuiet() throws {
    let work = try FileManagerTemp.folder("progress-options")
    defer { FileManagerTemp.remove(work.path) }
    // In order: export reads what import wrote.
    for c in try Self.commands(in: work) {
      let silent = runMapc(c.arguments)
      #expect(silent.exitCode == 0, "\(c.name): \(silent.stderr)")
      #expect(Self.ended(silent.stderr).isEmpty, "\(c.name) showed progress off a terminal:\n\(silent.stderr)")
      #expect(!silent.stderr.contains("%)"), "\(c.name):\n\(silent.stderr)")

      let asked = runMapc(c.arguments + ["--progress", "plain"])
      #expect(asked.exitCode == 0, "\(c.name): \(asked.stderr)")
      let ended = Self.ended(asked.stderr)
      #expect(c.phases.allSatisfy(ended.contains), "\(c.name) --progress plain:\n\(asked.stderr)")
      #expect(!asked.stderr.contains("\r"), "\(c.name)")

      let quiet = runMapc(c.arguments + ["--progress", "plain", "--quiet"])
      #expect(quiet.exitCode == 0, "\(c.name): \(quiet.stderr)")
      #expect(quiet.stderr.isEmpty, "\(c.name) --quiet wrote on standard error:\n\(quiet.stderr)")
    }
  }

  @Test func onATerminalByDefaultAndNeverWithQuiet() throws {
    let work = try FileManagerTemp.folder("progress-options-pty")
    defer { FileManagerTemp.remove(work.path) }
    for c in try Self.commands(in: work) {
      let shown = runMapcOnATerminal(c.arguments)
      #expect(shown.exitCode == 0, "\(c.name): \(shown.stdout)")
      let ended = Self.ended(shown.stdout)
      #expect(c.phases.allSatisfy(ended.contains), "\(c.name) on a terminal:\n\(shown.stdout)")

      let quiet = runMapcOnATerminal(c.arguments + ["--quiet"])
      #expect(quiet.exitCode == 0, "\(c.name): \(quiet.stdout)")
      #expect(Self.ended(quiet.stdout).isEmpty, "\(c.name) --quiet on a terminal:\n\(quiet.stdout)")
      #expect(
        !quiet.stdout.replacingOccurrences(of: "\r\n", with: "\n").contains("\r"),
        "\(c.name) --quiet drew a bar:\n\(quiet.stdout)")
      // Only `test` has something to say when quiet: its summary, on standard output.
      let said = quiet.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(
        c.name == "test" ? said.hasPrefix("mapc: ") && said.hasSuffix("failed") : said.isEmpty, "\(c.name): \(said)")
    }
  }

  /// A dry run writes no store but still checks that the last step's store could be written (in
  /// memory): that phase has its own name, so that no line says the store was written. JSON and
  /// SQLite.
  @Test func aDryRunChecksTheWriteUnderItsOwnName() throws {
    let work = try FileManagerTemp.folder("progress-options-dry")
    defer { FileManagerTemp.remove(work.path) }
    let model = Self.tasks.appendingPathComponent("Tasks.xcdatamodeld").path
    let json = work.appendingPathComponent("tasks-v1.json")
    try FileManager.default.copyItem(at: Self.tasks.appendingPathComponent("store-v1.json"), to: json)
    let sqlite = work.appendingPathComponent("tasks-v1.sqlite").path
    #expect(runMapc(["store", "convert", json.path, "--model", model, "-o", sqlite, "--quiet"]).exitCode == 0)
    for store in [json.path, sqlite] {
      let before = try Data(contentsOf: URL(fileURLWithPath: store))
      let r = runMapc([
        "migrate", "--model", model, "--mappings", Self.tasks.appendingPathComponent("mappings").path, "--store",
        store, "--dry-run", "--progress", "plain",
      ])
      #expect(r.exitCode == 0, "\(r.stderr)")
      let ended = Self.ended(r.stderr)
      // The steps before the last write their intermediate stores (in the work folder).
      #expect(ended.last == "step 3/3 Tasks 3→Tasks 4: check write (dry run)", "\(r.stderr)")
      #expect(!ended.contains("step 3/3 Tasks 3→Tasks 4: write store"), "\(r.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
  }

  /// A store that is not there gets its error and no phase, on every command that reads one.
  @Test func aMissingStoreStartsNoPhase() throws {
    let work = try FileManagerTemp.folder("progress-options-missing")
    defer { FileManagerTemp.remove(work.path) }
    let missing = work.appendingPathComponent("absent.sqlite").path
    let model = Self.tasks.appendingPathComponent("Tasks.xcdatamodeld").path
    let out = work.appendingPathComponent("out.json").path
    for arguments in [
      ["migrate", "--model", model, "--store", missing, "--output", out],
      ["migrate", "--model", model, "--store", missing, "--plan"],
      ["store", "convert", missing, "--model", model, "-o", out],
      ["store", "export", missing, "--model", model, "-o", out],
      ["store", "import", missing, "--model", model, "-o", work.appendingPathComponent("out.sqlite").path],
    ] {
      let r = runMapc(arguments + ["--progress", "plain"])
      #expect(r.exitCode != 0, "\(arguments)")
      #expect(r.stderr.contains("absent.sqlite"), "\(arguments): \(r.stderr)")
      #expect(!r.stderr.contains("read store") && !r.stderr.contains(": done, "), "\(arguments): \(r.stderr)")
    }
  }

  /// `mapc test` on a terminal: cases done against the total the fixture file lists (read
  /// here with JSONSerialization), and each result line whole, never mixed into the bar.
  @Test func testCountsCasesAndKeepsResultLinesWhole() throws {
    let fixture = try JSONSerialization.jsonObject(
      with: Data(contentsOf: Self.tasks.appendingPathComponent("fixture.json")))
    let cases = try #require(((fixture as? [String: Any])?["cases"] as? [Any])?.count)
    let r = runMapcOnATerminal(["test", Self.tasks.path])
    #expect(r.exitCode == 0, "\(r.stdout)")
    let text = r.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    #expect(text.contains("mapc: test: done, \(cases) cases in "), "\(text)")
    #expect(text.contains("/\(cases) cases ("), "\(text)")
    let pieces = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" }
      .map { $0.trimmingCharacters(in: .whitespaces) }
    let results = pieces.filter { $0.contains("PASS ") }
    #expect(results.count == cases, "\(text)")
    #expect(results.allSatisfy { $0.hasPrefix("PASS ") && !$0.contains("mapc: test") }, "\(text)")
  }
}
