import Foundation
import MapRuntime
import MapTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// No command writes over a file it reads (issue 25): every output is checked against every
/// input (models and their `contents`, mappings, stores with their `-wal`/`-shm`, baselines,
/// files in `--mappings`) after resolving links and `..`, and against the other outputs; a
/// clash is exit 64 with both paths named, and every input keeps its bytes.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct InputClashTests {
  /// Every regular file under `dir` with its bytes (hidden work folders included).
  static func snapshot(_ dir: URL) -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    let enumerator = FileManager.default.enumerator(atPath: dir.path)
    while let relative = enumerator?.nextObject() as? String {
      var info = stat()
      let path = dir.appendingPathComponent(relative).path
      if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { files[relative] = Hardening.bytes(path) }
    }
    return files
  }

  /// Runs mapc in `dir`: exit 64, the message names `output` and `input`, and every file in
  /// `dir` has the bytes it had (none added, none removed).
  func refused(
    _ arguments: [String], in dir: URL, naming texts: [String],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let before = Self.snapshot(dir)
    let r = runMapc(arguments, in: dir)
    #expect(r.exitCode == 64, "\(arguments): \(r.stderr)", sourceLocation: sourceLocation)
    #expect(r.stderr.contains("[io-output-is-input]"), "\(r.stderr)", sourceLocation: sourceLocation)
    for text in texts {
      #expect(r.stderr.contains(text), "\(arguments): \(r.stderr)", sourceLocation: sourceLocation)
    }
    #expect(Self.snapshot(dir) == before, "\(arguments): a file changed", sourceLocation: sourceLocation)
  }

  /// The tasks example (bundle, stores, one mapping) copied into a new folder.
  static func tasks(_ label: String) throws -> URL {
    let dir = try FileManagerTemp.folder(label)
    let source = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks")
    for name in ["Tasks.xcdatamodeld", "mappings", "store-v1.json", "store-v3.json"] {
      try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    return dir
  }

  @Test func inferOntoItsOwnModel() throws {
    let dir = try Self.tasks("clash-infer")
    defer { FileManagerTemp.remove(dir.path) }
    let contents = "Tasks.xcdatamodeld/Tasks 2.xcdatamodel/contents"
    _ = link(dir.appendingPathComponent(contents).path, dir.appendingPathComponent("hard").path)
    _ = symlink(contents, dir.appendingPathComponent("soft").path)
    for output in [contents, "./Tasks.xcdatamodeld/../\(contents)", "hard", "soft"] {
      refused(
        [
          "infer", "Tasks.xcdatamodeld", "Tasks.xcdatamodeld", "--source-version", "Tasks", "--destination-version",
          "Tasks 2", "-o", output,
        ], in: dir, naming: ["--output \(output) is the input model", "Tasks 2.xcdatamodel/contents"])
    }
    refused(
      ["infer", "Tasks.xcdatamodeld", "Tasks.xcdatamodeld", "--source-version", "Tasks", "-o", "Tasks.xcdatamodeld/x"],
      in: dir, naming: ["lies inside the input model Tasks.xcdatamodeld"])
  }

  @Test func lintBaselineOntoALintedMapping() throws {
    let dir = try Self.tasks("clash-lint")
    defer { FileManagerTemp.remove(dir.path) }
    refused(
      ["lint", "mappings", "--write-baseline", "mappings/TasksV3ToV4.xml"], in: dir,
      naming: ["--write-baseline mappings/TasksV3ToV4.xml is the input mapping mappings/TasksV3ToV4.xml"])
    refused(
      ["lint", "Tasks.xcdatamodeld", "mappings", "--write-baseline", "Tasks.xcdatamodeld/Tasks.xcdatamodel/contents"],
      in: dir, naming: ["is the input model"])
    // The models the linted mapping names, known once it is read.
    refused(
      ["lint", "mappings", "--write-baseline", "Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents"], in: dir,
      naming: ["--write-baseline Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents is the input model"])
    // Rewriting the baseline given with --baseline is what --write-baseline is for.
    let first = runMapc(["lint", "mappings", "--write-baseline", "b.json"], in: dir)
    #expect(first.exitCode == 0, "\(first.stderr)")
    let again = runMapc(["lint", "mappings", "--baseline", "b.json", "--write-baseline", "b.json"], in: dir)
    #expect(again.exitCode == 0, "\(again.stderr)")
  }

  @Test func migrateBackupOntoAMappingOrIntoTheWorkFolder() throws {
    let dir = try Self.tasks("clash-migrate")
    defer { FileManagerTemp.remove(dir.path) }
    let base = ["migrate", "--model", "Tasks.xcdatamodeld", "--store", "store-v1.json", "--mappings", "mappings"]
    refused(
      base + ["--backup", "mappings/TasksV3ToV4.xml"], in: dir,
      naming: ["--backup mappings/TasksV3ToV4.xml is the input mapping mappings/TasksV3ToV4.xml"])
    refused(
      base + ["--backup", ".store-v1.json.mapc-migrate/old.json"], in: dir,
      naming: [".store-v1.json.mapc-migrate holds --backup .store-v1.json.mapc-migrate/old.json"])
    refused(base + ["--backup", "store-v1.json-wal"], in: dir, naming: ["is the input store store-v1.json-wal"])
    refused(
      base + ["--report", "Tasks.xcdatamodeld/Tasks.xcdatamodel/contents"], in: dir, naming: ["is the input model"])
    refused(
      base + ["--output", "out.json", "--report", "./out.json"], in: dir,
      naming: ["--report ./out.json is also written by --output out.json"])
    // Mappings kept in the work folder would be removed with it.
    let work = dir.appendingPathComponent(".store-v1.json.mapc-migrate")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
    try FileManager.default.copyItem(
      at: dir.appendingPathComponent("mappings/TasksV3ToV4.xml"), to: work.appendingPathComponent("M.xml"))
    refused(
      [
        "migrate", "--model", "Tasks.xcdatamodeld", "--store", "store-v1.json", "--mappings",
        ".store-v1.json.mapc-migrate",
      ], in: dir, naming: ["holds the input mapping .store-v1.json.mapc-migrate/M.xml"])
  }

  @Test func runOutputOrBackupOntoAModel() throws {
    let dir = try Hardening.folder("clash-run")
    defer { FileManagerTemp.remove(dir.path) }
    refused(
      ["run", "m.xml", "--store", "s.json", "--output", "v2.xcdatamodel/contents"], in: dir,
      naming: ["--output v2.xcdatamodel/contents is the input model"])
    refused(
      ["run", "m.xml", "--store", "s.json", "--in-place", "--backup", "sub/../v1.xcdatamodel/contents"], in: dir,
      naming: ["--backup sub/../v1.xcdatamodel/contents is the input model"])
    let compiled = runMapc(["compile", "m.xml", "-o", "p.cdm", "--quiet"], in: dir)
    try #require(compiled.exitCode == 0, "\(compiled.stderr)")
    refused(
      ["run", "p.cdm", "--store", "s.json", "--output", "v1.xcdatamodel/contents"], in: dir,
      naming: ["--output v1.xcdatamodel/contents is the input model"])
  }

  /// The models a mapping names are inputs too, known once the mapping is read (still before
  /// anything is written): `import -o` onto the model an `.xcmappingmodel` names, `export -o`
  /// into a model folder.
  @Test func importAndExportOntoTheModelsTheMappingNames() throws {
    let dir = try FileManagerTemp.folder("clash-import-models")
    defer { FileManagerTemp.remove(dir.path) }
    let notes = SharedPaths.packageRoot.appendingPathComponent("Mappings/notes")
    for name in ["Notes.xcdatamodeld", "NotesV1ToV2.xcmappingmodel", "NotesV1ToV2.xml"] {
      try FileManager.default.copyItem(at: notes.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    refused(
      ["import", "NotesV1ToV2.xcmappingmodel", "-o", "Notes.xcdatamodeld/Notes 2.xcdatamodel/contents"], in: dir,
      naming: ["--output Notes.xcdatamodeld/Notes 2.xcdatamodel/contents is the input model"])
    refused(
      ["export", "NotesV1ToV2.xml", "-o", "Notes.xcdatamodeld/Notes.xcdatamodel/N.xcmappingmodel"], in: dir,
      naming: ["lies inside the input model"])
    refused(
      ["compile", "NotesV1ToV2.xml", "-o", "Notes.xcdatamodeld/Notes.xcdatamodel/contents"], in: dir,
      naming: ["is the input model"])
  }

  /// A Core Data store with a `-wal`, and its bundle, copied from ../shared.
  static func walStore(_ label: String) throws -> URL? {
    guard let stores = SharedPaths.stores else { return nil }
    let root = stores.appendingPathComponent("apptentive+apptentive-ios/Apptentive")
    let dir = try FileManagerTemp.folder(label)
    let data = root.appendingPathComponent("ApptentiveTests/data/v2WALDatabase")
    for name in ["ATDataModel.sqlite", "ATDataModel.sqlite-wal", "ATDataModel.sqlite-shm"] {
      try FileManager.default.copyItem(at: data.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    try FileManager.default.copyItem(
      at: root.appendingPathComponent("Apptentive/Model/ATDataModel.xcdatamodeld"),
      to: dir.appendingPathComponent("M.xcdatamodeld"))
    return dir
  }

  @Test(.enabled(if: SharedPaths.stores != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func storeExportAndImportOntoTheirInputs() throws {
    let dir = try #require(try Self.walStore("clash-store"))
    defer { FileManagerTemp.remove(dir.path) }
    let export = ["store", "export", "ATDataModel.sqlite", "--model", "M.xcdatamodeld", "-o"]
    refused(export + ["ATDataModel.sqlite"], in: dir, naming: ["is the input store ATDataModel.sqlite"])
    refused(export + ["./ATDataModel.sqlite-wal"], in: dir, naming: ["is the input store ATDataModel.sqlite-wal"])
    refused(export + ["ATDataModel.sqlite-shm"], in: dir, naming: ["is the input store ATDataModel.sqlite-shm"])
    refused(
      export + ["M.xcdatamodeld/ATDataModel.xcdatamodel/contents"], in: dir,
      naming: ["is the input model M.xcdatamodeld/ATDataModel.xcdatamodel/contents"])
    let made = runMapc(export + ["s.json"], in: dir)
    try #require(made.exitCode == 0, "\(made.stderr)")
    let importing = ["store", "import", "s.json", "--model", "M.xcdatamodeld", "-o"]
    refused(importing + ["s.json"], in: dir, naming: ["--output s.json is the input store s.json"])
    _ = symlink("s.json", dir.appendingPathComponent("link.sqlite").path)
    refused(importing + ["link.sqlite"], in: dir, naming: ["(the same file under another name)"])
    // The SQLite store written replaces its -wal too: that may not be the input either.
    try FileManager.default.copyItem(
      at: dir.appendingPathComponent("s.json"), to: dir.appendingPathComponent("new.sqlite-wal"))
    refused(
      ["store", "import", "new.sqlite-wal", "--model", "M.xcdatamodeld", "-o", "new.sqlite"], in: dir,
      naming: ["--output new.sqlite (its new.sqlite-wal) is the input store new.sqlite-wal"])
  }

  /// `-o /dev/stdout` with standard output redirected to a file with earlier contents: the
  /// output is appended at the descriptor's offset, never renamed over the file.
  @Test func standardOutputRedirectedToAFileKeepsItsEarlierLines() throws {
    let dir = try Hardening.folder("clash-stdout")
    defer { FileManagerTemp.remove(dir.path) }
    let mapc = try #require(mapcExecutable).path
    // A migrated JSON store names no paths: its bytes do not depend on where it is written.
    let direct = runMapc(["run", "m.xml", "--store", "s.json", "--output", "direct.json", "--quiet"], in: dir)
    try #require(direct.exitCode == 0, "\(direct.stderr)")
    let plan = Hardening.bytes(dir.appendingPathComponent("direct.json").path)
    // Appended to a log (`>>`), and between two writes of the shell to one descriptor (`>`).
    let log = dir.appendingPathComponent("appended.log")
    try Data("earlier line 1\nearlier line 2\n".utf8).write(to: log)
    let appended = runExecutable(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "'\(mapc)' run m.xml --store s.json --output /dev/stdout --quiet >> appended.log"],
      in: dir)
    #expect(appended.exitCode == 0, "\(appended.stderr)")
    let kept = Hardening.bytes(log.path) == Array("earlier line 1\nearlier line 2\n".utf8) + plan
    #expect(kept, "appended.log: \(String(decoding: Hardening.bytes(log.path).prefix(200), as: UTF8.self))")
    let grouped = runExecutable(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c",
        "{ echo before; '\(mapc)' run m.xml --store s.json --output /dev/stdout --quiet; echo after; } > grouped.log",
      ], in: dir)
    #expect(grouped.exitCode == 0, "\(grouped.stderr)")
    // --report too (it was written with Foundation's atomic write, renamed over the link).
    let report = runExecutable(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "'\(mapc)' run m.xml --store s.json --dry-run --quiet --report /dev/stdout >> appended.log"], in: dir)
    #expect(report.exitCode == 0, "\(report.stderr)")
    let log2 = Hardening.bytes(log.path)
    let prefix = Array("earlier line 1\nearlier line 2\n".utf8) + plan
    #expect(Array(log2.prefix(prefix.count)) == prefix)
    #expect(String(decoding: log2.dropFirst(prefix.count), as: UTF8.self).hasPrefix("{\n  \"command\" : \"run\""))
    var link = stat()
    #expect(lstat("/dev/stdout", &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK)
    let between =
      Hardening.bytes(dir.appendingPathComponent("grouped.log").path)
      == Array("before\n".utf8) + plan + Array("after\n".utf8)
    #expect(between)
  }
}
