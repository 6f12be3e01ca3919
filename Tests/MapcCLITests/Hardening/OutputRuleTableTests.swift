#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import MapTestSupport
import Testing

/// Issue 40: one rule for every file mapc writes, walked over every command and output option
/// from one table. An output given on the command line is the user's choice: written through a
/// symbolic link (the link stays, the file it names gets the contents) and through a FIFO
/// (written to, never replaced; refused with `io-not-regular-file` where a regular file is
/// needed), and refused (exit 64, `io-output-is-input`, nothing written) when it is an input of
/// the run, by device and inode (a hard link under another name).
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct OutputRuleTableTests {
  /// One command and output option: its arguments with `OUT` where the output goes, an input
  /// it reads (relative to the tasks folder), and whether a FIFO may take its output.
  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var input: String
    var streams: Bool
    var testDescription: String { name }
  }

  static let mapping = "mappings/TasksV3ToV4.xml"
  static let contents = "Tasks.xcdatamodeld/Tasks 2.xcdatamodel/contents"
  static let rows: [Row] = [
    Row(name: "compile -o", arguments: ["compile", mapping, "-o", "OUT", "--quiet"], input: mapping, streams: true),
    Row(
      name: "run --output",
      arguments: ["run", mapping, "--store", "store-v3.json", "--output", "OUT", "--quiet"], input: "store-v3.json",
      streams: true),
    Row(
      name: "run --report",
      arguments: ["run", mapping, "--store", "store-v3.json", "--output", "o.json", "--report", "OUT", "--quiet"],
      input: mapping, streams: true),
    Row(
      name: "migrate --output",
      arguments: [
        "migrate", "--model", "Tasks.xcdatamodeld", "--store", "store-v1.json", "--mappings", "mappings", "--output",
        "OUT", "--quiet",
      ], input: "store-v1.json", streams: true),
    Row(
      name: "migrate --report",
      arguments: [
        "migrate", "--model", "Tasks.xcdatamodeld", "--store", "store-v1.json", "--mappings", "mappings", "--output",
        "o.json", "--report", "OUT", "--quiet",
      ], input: contents, streams: true),
    Row(
      name: "infer -o",
      arguments: [
        "infer", "Tasks.xcdatamodeld", "Tasks.xcdatamodeld", "--source-version", "Tasks", "--destination-version",
        "Tasks 2", "-o", "OUT",
      ], input: contents, streams: true),
    Row(
      name: "lint --write-baseline", arguments: ["lint", "mappings", "--write-baseline", "OUT"], input: mapping,
      streams: true),
    Row(name: "lock -o", arguments: ["lock", "Tasks.xcdatamodeld", "-o", "OUT"], input: contents, streams: true),
    Row(
      name: "diff -o",
      arguments: ["diff", "Tasks.xcdatamodeld", "--from", "Tasks", "--to", "Tasks 2", "-o", "OUT"], input: contents,
      streams: true),
    Row(
      name: "store convert -o (json)",
      arguments: [
        "store", "convert", "store-v1.json", "--model", "Tasks.xcdatamodeld", "--to", "json", "-o", "OUT", "--quiet",
      ],
      input: "store-v1.json", streams: true),
    Row(
      name: "store import -o (sqlite)",
      arguments: ["store", "import", "store-v1.json", "--model", "Tasks.xcdatamodeld", "-o", "OUT", "--quiet"],
      input: "store-v1.json", streams: false),
    Row(
      name: "migrate --output (sqlite)",
      arguments: [
        "migrate", "--model", "Tasks.xcdatamodeld", "--store", "s.sqlite", "--to", "Tasks 2", "--output", "OUT",
        "--quiet",
      ],
      input: "s.sqlite", streams: false),
    Row(
      name: "run --output (sqlite)",
      arguments: ["run", "mappings/TasksV3ToV4.xml", "--store", "s3.sqlite", "--output", "OUT", "--quiet"],
      input: "s3.sqlite",
      streams: false),
    Row(
      name: "store repair -o",
      arguments: ["store", "repair", "s.sqlite", "--model", "Tasks.xcdatamodeld", "-o", "OUT"], input: "s.sqlite",
      streams: false),
    Row(
      name: "store export -o",
      arguments: ["store", "export", "s.sqlite", "--model", "Tasks.xcdatamodeld", "-o", "OUT", "--quiet"],
      input: "s.sqlite", streams: true),
  ]

  /// The tasks example, with an SQLite copy of its first store (`s.sqlite`).
  static func folder(_ label: String) throws -> URL {
    let dir = try InputClashTests.tasks(label)
    for (json, sqlite) in [("store-v1.json", "s.sqlite"), ("store-v3.json", "s3.sqlite")] {
      let r = runMapc(["store", "import", json, "--model", "Tasks.xcdatamodeld", "-o", sqlite, "--quiet"], in: dir)
      try #require(r.exitCode == 0, "\(r.stderr)")
    }
    return dir
  }

  static func arguments(_ row: Row, _ out: String) -> [String] { row.arguments.map { $0 == "OUT" ? out : $0 } }

  @Test(arguments: rows) func anInputUnderAnotherNameIsRefused(_ row: Row) throws {
    let dir = try Self.folder("rule-input")
    defer { FileManagerTemp.remove(dir.path) }
    #expect(link(dir.appendingPathComponent(row.input).path, dir.appendingPathComponent("hard").path) == 0)
    let before = InputClashTests.snapshot(dir)
    let r = runMapc(Self.arguments(row, "hard"), in: dir)
    #expect(r.exitCode == 64, "\(row.name): \(r.stderr)")
    #expect(r.stderr.contains("[io-output-is-input]"), "\(row.name): \(r.stderr)")
    #expect(InputClashTests.snapshot(dir) == before, "\(row.name): a file changed")
  }

  @Test(arguments: rows) func aLinkIsWrittenThroughAndKept(_ row: Row) throws {
    let dir = try Self.folder("rule-link")
    defer { FileManagerTemp.remove(dir.path) }
    let target = dir.appendingPathComponent("target.out")
    try Data().write(to: target)
    #expect(symlink("target.out", dir.appendingPathComponent("link.out").path) == 0)
    let r = runMapc(Self.arguments(row, "link.out"), in: dir)
    #expect(r.exitCode == 0, "\(row.name): \(r.stderr)")
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.out").path))
        == "target.out", "\(row.name): the link was replaced")
    #expect(((try? Data(contentsOf: target))?.count ?? 0) > 0, "\(row.name): nothing written through the link")
  }

  @Test(arguments: rows) func aFIFOIsWrittenToOrRefused(_ row: Row) throws {
    let dir = try Self.folder("rule-fifo")
    defer { FileManagerTemp.remove(dir.path) }
    let fifo = dir.appendingPathComponent("fifo.out").path
    #expect(mkfifo(fifo, 0o600) == 0)
    var reader: Process? = nil
    let pipe = Pipe()
    if row.streams {
      let cat = Process()
      cat.executableURL = URL(fileURLWithPath: "/bin/cat")
      cat.arguments = [fifo]
      cat.standardOutput = pipe
      try cat.run()
      reader = cat
    }
    let r = runMapc(Self.arguments(row, "fifo.out"), in: dir)
    // A command that never opened the FIFO leaves the reader waiting for a writer: release it.
    let release = open(fifo, O_WRONLY | O_NONBLOCK)
    if release >= 0 { close(release) }
    if let reader {
      let read = pipe.fileHandleForReading.readDataToEndOfFile()
      reader.waitUntilExit()
      #expect(r.exitCode == 0, "\(row.name): \(r.stderr)")
      #expect(!read.isEmpty, "\(row.name): nothing came through the FIFO")
    } else {
      #expect(r.exitCode == 64, "\(row.name): \(r.stderr)")
      #expect(r.stderr.contains("[io-not-regular-file]"), "\(row.name): \(r.stderr)")
    }
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "\(row.name): the FIFO was replaced")
  }
}

/// The migrate work folder is mapc's: a report into it is refused before anything runs, with
/// `--dry-run` and `--plan` too (it exited 1, a failed write, where 64 is documented).
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct WorkFolderOutputTests {
  @Test(arguments: ["--dry-run", "--plan"]) func aReportIntoTheWorkFolderIsRefused(_ mode: String) throws {
    let dir = try InputClashTests.tasks("rule-work-folder")
    defer { FileManagerTemp.remove(dir.path) }
    let before = InputClashTests.snapshot(dir)
    let r = runMapc(
      [
        "migrate", "--model", "Tasks.xcdatamodeld", "--store", "store-v1.json", "--mappings", "mappings", mode,
        "--report", ".store-v1.json.mapc-migrate/r.json",
      ], in: dir)
    #expect(r.exitCode == 64, "\(r.stderr)")
    #expect(r.stderr.contains("[io-output-is-input]"), "\(r.stderr)")
    #expect(InputClashTests.snapshot(dir) == before)
  }
}

/// The outputs that are folders (`export -o X.xcmappingmodel`, `store model -o X.xcdatamodeld`,
/// `model -o X.xcdatamodeld`) under the same rule: a link to a folder is written through and
/// kept, a FIFO is refused (`io-not-regular-file`, exit 64), and the input folder under another
/// name is refused (`io-output-is-input`, exit 64); nothing else in the folder changes.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct FolderOutputRuleTests {
  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    /// The file the command writes inside the folder.
    var inside: String
    var testDescription: String { name }
  }

  static let trips = SharedPaths.packageRoot.appendingPathComponent("Examples/SwiftDataTrips/Trips.swift").path
  static let rows: [Row] = [
    Row(name: "export -o", arguments: ["export", "mappings/TasksV3ToV4.xml", "-o", "OUT"], inside: "xcmapping.xml"),
    Row(
      name: "store model -o", arguments: ["store", "model", "s.sqlite", "-o", "OUT"],
      inside: "OUT.xcdatamodel/contents"),
    Row(name: "model -o", arguments: ["model", trips, "-o", "OUT"], inside: "TripsV2.xcdatamodel/contents"),
  ]

  static func name(_ row: Row) -> String { row.name == "export -o" ? "X.xcmappingmodel" : "X.xcdatamodeld" }

  static func arguments(_ row: Row, _ out: String) -> [String] { row.arguments.map { $0 == "OUT" ? out : $0 } }

  @Test(arguments: rows) func aLinkToAFolderIsWrittenThroughAndKept(_ row: Row) throws {
    let dir = try OutputRuleTableTests.folder("folder-link")
    defer { FileManagerTemp.remove(dir.path) }
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("real"), withIntermediateDirectories: true)
    let out = Self.name(row)
    #expect(symlink("real", dir.appendingPathComponent(out).path) == 0)
    let r = runMapc(Self.arguments(row, out), in: dir)
    #expect(r.exitCode == 0, "\(row.name): \(r.stderr)")
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent(out).path)) == "real",
      "\(row.name): the link was replaced")
    let inside = row.inside.replacingOccurrences(of: "OUT", with: "X")
    #expect(
      FileManager.default.fileExists(atPath: dir.appendingPathComponent("real/\(inside)").path),
      "\(row.name): nothing written through the link")
  }

  @Test(arguments: rows) func aFIFOIsRefused(_ row: Row) throws {
    let dir = try OutputRuleTableTests.folder("folder-fifo")
    defer { FileManagerTemp.remove(dir.path) }
    let out = Self.name(row)
    #expect(mkfifo(dir.appendingPathComponent(out).path, 0o600) == 0)
    let before = InputClashTests.snapshot(dir)
    let r = runMapc(Self.arguments(row, out), in: dir)
    #expect(r.exitCode == 64, "\(row.name): \(r.stderr)")
    #expect(r.stderr.contains("[io-not-regular-file]"), "\(row.name): \(r.stderr)")
    #expect(InputClashTests.snapshot(dir) == before, "\(row.name): a file changed")
  }

  @Test func theInputFolderUnderAnotherNameIsRefused() throws {
    let dir = try OutputRuleTableTests.folder("folder-input")
    defer { FileManagerTemp.remove(dir.path) }
    #expect(runMapc(["export", "mappings/TasksV3ToV4.xml", "-o", "T.xcmappingmodel"], in: dir).exitCode == 0)
    #expect(symlink("T.xcmappingmodel", dir.appendingPathComponent("L.xcmappingmodel").path) == 0)
    let before = InputClashTests.snapshot(dir)
    let r = runMapc(["export", "T.xcmappingmodel", "-o", "L.xcmappingmodel"], in: dir)
    #expect(r.exitCode == 64, "\(r.stderr)")
    #expect(r.stderr.contains("[io-output-is-input]"), "\(r.stderr)")
    #expect(InputClashTests.snapshot(dir) == before)
  }
}
