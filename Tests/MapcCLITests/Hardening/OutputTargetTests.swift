import Foundation
import MapRuntime
import MapTestSupport
import Testing
import MapcKit

#if canImport(Glibc)
  import Glibc
#endif

/// Outputs that would lose or damage a file are refused with exit 64 and nothing written; only
/// regular files are ever replaced; a symlinked store keeps its link (issue 17).
@Suite struct OutputTargetTests {
  /// Runs mapc in `dir` and checks the store, the mapping and the models are byte-identical after.
  func refused(
    _ arguments: [String], in dir: URL, mentioning text: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let files = ["s.json", "m.xml", "v1.xcdatamodel/contents", "v2.xcdatamodel/contents"]
    let before = files.map { Hardening.bytes(dir.appendingPathComponent($0).path) }
    let r = runMapc(arguments, in: dir)
    #expect(r.exitCode == 64, "\(r.stderr)", sourceLocation: sourceLocation)
    #expect(r.stderr.contains(text), "\(r.stderr)", sourceLocation: sourceLocation)
    let after = files.map { Hardening.bytes(dir.appendingPathComponent($0).path) }
    #expect(before == after, "an input changed", sourceLocation: sourceLocation)
    let leftovers =
      (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.filter { $0.hasSuffix(".tmp") } ?? []
    #expect(leftovers.isEmpty, sourceLocation: sourceLocation)
  }

  @Test func backupNamingTheStoreUnderAnotherSpelling() throws {
    let dir = try Hardening.folder("backup-spelling")
    defer { FileManagerTemp.remove(dir.path) }
    _ = link(dir.appendingPathComponent("s.json").path, dir.appendingPathComponent("hard.json").path)
    _ = symlink("s.json", dir.appendingPathComponent("soft.json").path)
    for backup in ["./s.json", "../\(dir.lastPathComponent)/s.json", dir.path + "/s.json", "hard.json", "soft.json"] {
      refused(
        ["run", "m.xml", "--store", "s.json", "--in-place", "--backup", backup], in: dir,
        mentioning: "is the input store s.json")
    }
  }

  @Test func outputNamingTheInput() throws {
    let dir = try Hardening.folder("output-input")
    defer { FileManagerTemp.remove(dir.path) }
    _ = link(dir.appendingPathComponent("s.json").path, dir.appendingPathComponent("hard.json").path)
    _ = symlink("s.json", dir.appendingPathComponent("soft.json").path)
    for output in ["./s.json", "hard.json", "soft.json"] {
      refused(["run", "m.xml", "--store", "s.json", "--output", output], in: dir, mentioning: "is the input store")
    }
    refused(
      ["run", "m.xml", "--store", "s.json", "--output", "./m.xml"], in: dir, mentioning: "is the input plan m.xml")
  }

  /// A FIFO or a character device as an output is written to, never renamed over (it stays what
  /// it is); a symbolic link to one too.
  @Test func outputThatIsNotARegularFileIsWrittenTo() throws {
    let dir = try Hardening.folder("output-device")
    defer { FileManagerTemp.remove(dir.path) }
    let fifo = dir.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // Never the real /dev/null: a mapc that renamed over it (as root) would replace it.
    if Self.makeNullDevice(dir.appendingPathComponent("null").path) {
      _ = symlink("null", dir.appendingPathComponent("null-link").path)
      for output in ["null", "null-link"] {
        let r = runMapc(["run", "m.xml", "--store", "s.json", "--output", output, "--quiet"], in: dir)
        #expect(r.exitCode == 0, "\(r.stderr)")
      }
      var device = stat()
      #expect(lstat(dir.appendingPathComponent("null").path, &device) == 0 && (device.st_mode & S_IFMT) == S_IFCHR)
    }
    for arguments in [["run", "m.xml", "--store", "s.json", "--output", "fifo"], ["compile", "m.xml", "-o", "fifo"]] {
      let expected = dir.appendingPathComponent("expected").path
      let direct = runMapc(Array(arguments.dropLast()) + [expected, "--quiet"], in: dir)
      try #require(direct.exitCode == 0, "\(direct.stderr)")
      let received = Self.readingFIFO(fifo) { runMapc(arguments + ["--quiet"], in: dir) }
      #expect(received.result.exitCode == 0, "\(received.result.stderr)")
      #expect(received.bytes == Hardening.bytes(expected))
    }
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
  }

  /// Runs `body` while another thread reads everything written to the FIFO `path`.
  static func readingFIFO(_ path: String, _ body: () -> MapcResult) -> (result: MapcResult, bytes: [UInt8]) {
    final class Box: @unchecked Sendable { var bytes: [UInt8] = [] }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let fd = open(path, O_RDONLY)
      var buffer = [UInt8](repeating: 0, count: 65536)
      while fd >= 0 {
        let n = read(fd, &buffer, buffer.count)
        if n <= 0 { break }
        box.bytes += buffer[..<n]
      }
      if fd >= 0 { close(fd) }
      done.signal()
    }
    thread.start()
    let result = body()
    // Releases a reader still waiting to open the FIFO (when mapc never opened it).
    let writer = open(path, O_WRONLY | O_NONBLOCK)
    if writer >= 0 { close(writer) }
    done.wait()
    return (result, box.bytes)
  }

  /// A private character device like /dev/null at `path` (needs root; false otherwise).
  static func makeNullDevice(_ path: String) -> Bool {
    mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0  // major 1, minor 3
  }

  @Test func inPlaceKeepsTheLinkAndRefusesANonRegularTarget() throws {
    let dir = try Hardening.folder("in-place-link")
    defer { FileManagerTemp.remove(dir.path) }
    _ = symlink("s.json", dir.appendingPathComponent("link.json").path)
    let r = runMapc(["run", "m.xml", "--store", "link.json", "--in-place", "--quiet"], in: dir)
    #expect(r.exitCode == 0, "\(r.stderr)")
    var info = stat()
    #expect(lstat(dir.appendingPathComponent("link.json").path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    #expect(
      String(decoding: Hardening.bytes(dir.appendingPathComponent("s.json").path), as: UTF8.self).contains("\"label\""))
    _ = symlink("fifo", dir.appendingPathComponent("fifo.json").path)
    #expect(mkfifo(dir.appendingPathComponent("fifo").path, 0o600) == 0)
    refused(["run", "m.xml", "--store", "fifo.json", "--in-place"], in: dir, mentioning: "a FIFO")
    if Self.makeNullDevice(dir.appendingPathComponent("null").path) {
      _ = symlink("null", dir.appendingPathComponent("null.json").path)
      refused(["run", "m.xml", "--store", "null.json", "--in-place"], in: dir, mentioning: "a character device")
    }
  }

  @Test func compileOntoItsInputs() throws {
    let dir = try Hardening.folder("compile-self")
    defer { FileManagerTemp.remove(dir.path) }
    refused(["compile", "m.xml", "-o", "m.xml"], in: dir, mentioning: "is the input mapping m.xml")
    refused(["compile", "m.xml", "-o", "./m.xml"], in: dir, mentioning: "is the input mapping m.xml")
    refused(["compile", "m.xml", "-o", "v1.xcdatamodel/contents"], in: dir, mentioning: "is the input model")
    refused(["compile", "m.xml", "-o", "v2.xcdatamodel/new.cdm"], in: dir, mentioning: "lies inside the input model")
    #expect(runMapc(["compile", "m.xml", "-o", "m.cdm", "--quiet"], in: dir).exitCode == 0)
  }

  @Test func importAndExportOntoTheirInputs() throws {
    let dir = try Hardening.folder("import-export-self")
    defer { FileManagerTemp.remove(dir.path) }
    refused(["import", "m.xml", "-o", "./m.xml"], in: dir, mentioning: "is the input mapping model m.xml")
    let export = runMapc(["export", "m.xml", "-o", "M.xcmappingmodel"], in: dir)
    try #require(export.exitCode == 0, "\(export.stderr)")
    let xml = "M.xcmappingmodel/xcmapping.xml"
    let before = Hardening.bytes(dir.appendingPathComponent(xml).path)
    let r = runMapc(["export", xml, "-o", "M.xcmappingmodel"], in: dir)
    #expect(r.exitCode == 64 && r.stderr.contains("holds the input"), "\(r.stderr)")
    #expect(Hardening.bytes(dir.appendingPathComponent(xml).path) == before)
    let i = runMapc(["import", "M.xcmappingmodel", "-o", xml], in: dir)
    #expect(i.exitCode == 64, "\(i.stderr)")
    #expect(Hardening.bytes(dir.appendingPathComponent(xml).path) == before)
  }

  /// A FIFO, a device or a file larger than memory as the store: refused at once with the reason.
  @Test func storesThatAreNotRegularFilesOrTooLarge() throws {
    let dir = try Hardening.folder("store-kinds")
    defer { FileManagerTemp.remove(dir.path) }
    #expect(mkfifo(dir.appendingPathComponent("fifo.json").path, 0o600) == 0)
    let huge = dir.appendingPathComponent("huge.json").path
    let fd = open(huge, O_CREAT | O_WRONLY, 0o600)
    #expect(ftruncate(fd, off_t(Limits.physicalMemory) * 2) == 0)  // sparse: no disk used
    close(fd)
    let clock = ContinuousClock()
    for (store, text) in [("fifo.json", "a FIFO"), ("/dev/zero", "a character device"), ("huge.json", "more than the")]
    {
      let start = clock.now
      let r = runMapc(["run", "m.xml", "--store", store, "--output", "out.json"], in: dir)
      #expect(r.exitCode == 2, "\(store): \(r.stderr)")
      #expect(r.stderr.contains(text), "\(r.stderr)")
      #expect(clock.now - start < .seconds(20))
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.json").path))
  }

  @Test func migrateBackupNamingTheStore() throws {
    let dir = try FileManagerTemp.folder("migrate-backup")
    defer { FileManagerTemp.remove(dir.path) }
    try Data("{}".utf8).write(to: dir.appendingPathComponent("s.json"))
    let bundle = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks/Tasks.xcdatamodeld").path
    let r = runMapc(["migrate", "--model", bundle, "--store", "s.json", "--backup", "./s.json"], in: dir)
    #expect(r.exitCode == 64 && r.stderr.contains("is the input store s.json"), "\(r.stderr)")
    #expect(Hardening.bytes(dir.appendingPathComponent("s.json").path) == Array("{}".utf8))
  }
}
