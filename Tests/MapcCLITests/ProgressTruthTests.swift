import Foundation
import MapTestSupport
import Testing

/// Progress that tells the truth on a Core Data SQLite store of 200,100 rows (the notes example,
/// grown by python3): the read phase counts rows against the total python3's sqlite3 counts, no
/// line says 100% while its phase runs, every phase ends once and in order, the write phase
/// ends with the size the file has, and a store that is not there gets its error without any
/// phase reported. Through a pipe (plain lines) and a pseudo-terminal (one redrawn line).
@Suite(
  .enabled(if: python3 != nil, "python3 generates the store and counts its rows"),
  .enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct ProgressTruthTests {
  static let notes = SharedPaths.packageRoot.appendingPathComponent("Mappings/notes")
  static let phases = [
    "read store", "pass 1/3 (create instances)", "pass 2/3 (relationships)", "pass 3/3 (validate)", "write store",
  ]

  /// The store (made once for the suite) and its rows as python3's sqlite3 counts them.
  static let store = GeneratedSQLiteStore.make(
    name: "progress-truth", example: notes.appendingPathComponent("store-v1.json"),
    model: notes.appendingPathComponent("Notes.xcdatamodeld").path, generator: generator)

  /// 200,000 notes in 100 folders.
  static let generator = """
    import json, sys
    d = json.load(open(sys.argv[1]))
    folders = [{"id": "f-%d" % i, "name": "Folder %d" % i, "notes": []} for i in range(100)]
    notes = []
    for i in range(200000):
        f = folders[i % 100]
        f["notes"].append("n-%d" % i)
        notes.append({"id": "n-%d" % i, "title": ("Note %d" % i) if i % 7 else None, "text": "text %d" % i,
                      "created": "2024-03-01T09:00:00Z", "pinned": i % 3 == 0, "trashed": i % 11 == 0,
                      "folder": f["id"]})
    d["objects"] = {"Folder": folders, "Note": notes}
    json.dump(d, open(sys.argv[2], "w"))
    """

  /// `12.3 MB` as the progress lines write a byte count.
  static func megabytes(_ n: Int) -> String { String(format: "%.1f MB", Double(n) / 1_000_000) }

  /// What every run must show, from its lines (either form).
  static func check(_ lines: [Substring], store: GeneratedSQLiteStore, output: String, text: String) throws {
    // Each phase ends once, in order, and no line of a running phase claims 100%.
    let ends = lines.filter { $0.contains(": done, ") && $0.hasPrefix("mapc: ") }
    #expect(ends.map { $0.dropFirst(6).prefix { $0 != ":" } } == phases.map { Substring($0) }, "\(text)")
    #expect(!lines.contains { $0.contains("(100%)") }, "\(text)")
    // Read: rows against the store's total (a bar goes before the counts on a terminal); the
    // end line says the total.
    let rowsLine = "\(store.rows.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) rows"
    #expect(lines.contains { $0.hasPrefix("mapc: read store: done, \(rowsLine) in ") }, "\(text)")
    #expect(lines.contains { $0.hasPrefix("mapc: read store") && $0.contains("/\(rowsLine) (") }, "\(text)")
    // Write: the size of the file written.
    let size = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
    #expect(size > 1_000_000)
    #expect(lines.contains { $0.hasPrefix("mapc: write store: done, \(megabytes(size)) in ") }, "\(text)")
  }

  @Test func throughAPipe() throws {
    let store = try Self.store.get()
    let output = store.folder.appendingPathComponent("pipe-out.sqlite").path
    let process = Process()
    process.executableURL = mapcExecutable
    process.arguments = [
      "run", Self.notes.appendingPathComponent("NotesV1ToV2.xml").path, "--store", store.path, "--output", output,
      "--progress", "plain",
    ]
    process.environment = ProcessInfo.processInfo.environment.merging(["MAPC_PROGRESS_INTERVAL": "0.01"]) { $1 }
    let pipe = Pipe()
    process.standardError = pipe
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(!text.contains("\r"))
    try Self.check(text.split(separator: "\n"), store: store, output: output, text: text)
  }

  @Test func onAPseudoTerminal() throws {
    let store = try Self.store.get()
    let output = store.folder.appendingPathComponent("pty-out.sqlite").path
    let result = runMapcOnATerminal([
      "run", Self.notes.appendingPathComponent("NotesV1ToV2.xml").path, "--store", store.path, "--output", output,
    ])
    #expect(result.exitCode == 0, "\(result.stderr)")
    let text = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    #expect(text.contains("\r"), "the line was never redrawn")
    let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" }
      .map { Substring($0.trimmingCharacters(in: .whitespaces)) }
    try Self.check(lines, store: store, output: output, text: text)
  }

  @Test func aMissingStoreGetsItsErrorAndNoPhase() throws {
    let folder = try FileManagerTemp.folder("progress-missing")
    defer { FileManagerTemp.remove(folder.path) }
    let r = runMapc([
      "run", Self.notes.appendingPathComponent("NotesV1ToV2.xml").path, "--store",
      folder.appendingPathComponent("absent.sqlite").path, "--output", folder.appendingPathComponent("out.sqlite").path,
      "--progress", "plain",
    ])
    #expect(r.exitCode != 0)
    #expect(!r.stderr.contains("read store"), "\(r.stderr)")
    #expect(!r.stderr.contains(": done, "), "\(r.stderr)")
    #expect(r.stderr.contains("absent.sqlite"), "\(r.stderr)")
  }
}
