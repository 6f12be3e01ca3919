import Foundation
import MapJSON
import MapJSONText
import MapRuntime
import MapTestSupport
import Testing

@Suite struct InputBytesTests {
  @Test func readsWholeFile() throws {
    let folder = try TemporaryFolder()
    let text = String(repeating: "{\"a\": \"é😀\"}\n", count: 10_000)
    try folder.write("in.json", text)
    let input = try InputBytes(contentsOf: folder.path + "/in.json")
    #expect(input.count == text.utf8.count)
    #expect(input.withUnsafeBytes { Array($0) } == Array(text.utf8))
    #expect(input.path == folder.path + "/in.json")
  }

  /// Files from 16 MiB on are read in two halves at once: every byte lands where it belongs
  /// (an odd size, so the halves differ), with the padding after them zero.
  @Test func readsLargeFileInHalves() throws {
    let folder = try TemporaryFolder()
    let size = (16 << 20) + 4_093
    var data = Data(count: size)
    data.withUnsafeMutableBytes { b in
      var generator = SplitMix64(seed: 11)
      let words = b.baseAddress!.assumingMemoryBound(to: UInt64.self)
      for i in 0..<(size / 8) { words[i] = generator.next() }
      for i in (size / 8 * 8)..<size { b[i] = UInt8(i & 0xFF) }
    }
    try data.write(to: URL(fileURLWithPath: folder.path + "/big.bin"))
    let input = try InputBytes(contentsOf: folder.path + "/big.bin")
    #expect(input.count == size)
    let same = data.withUnsafeBytes { d in input.withUnsafeBytes { memcmp(d.baseAddress!, $0.baseAddress!, size) == 0 }
    }
    #expect(same)
    let padding = UnsafeRawBufferPointer(start: input.unsafeBytes.baseAddress! + size, count: InputBytes.paddingCount)
    #expect(padding.allSatisfy { $0 == 0 })
  }

  @Test func readsEmptyFileAndProcFiles() throws {
    let folder = try TemporaryFolder()
    try folder.write("empty.json", "")
    #expect(try InputBytes(contentsOf: folder.path + "/empty.json").count == 0)
    // /proc files report size 0 but have contents: the read loop grows its buffer.
    if FileManager.default.fileExists(atPath: "/proc/self/status") {
      let status = try InputBytes(contentsOf: "/proc/self/status")
      #expect(status.count > 0)
    }
  }

  @Test func errorsNameThePath() throws {
    let folder = try TemporaryFolder()
    let missing = folder.path + "/missing.json"
    let notFound = #expect(throws: StoreIOError.self) { try InputBytes(contentsOf: missing) }
    #expect(notFound?.code == .notFound)
    #expect(notFound?.description == "cannot read '\(missing)': no such file or directory")

    let isFolder = #expect(throws: StoreIOError.self) { try InputBytes(contentsOf: folder.path) }
    #expect(isFolder?.code == .isDirectory)
    #expect(isFolder?.description == "cannot read '\(folder.path)': it is a folder, not a file")

    if getuid() != 0 {  // root reads anything
      try folder.write("secret.json", "{}")
      chmod(folder.path + "/secret.json", 0)
      let denied = #expect(throws: StoreIOError.self) {
        try InputBytes(contentsOf: folder.path + "/secret.json")
      }
      #expect(denied?.code == .permissionDenied)
      #expect(denied?.description == "cannot read '\(folder.path)/secret.json': permission denied")
    }
  }
}

@Suite struct AtomicFileWriterTests {
  func writeAll(_ writer: borrowing AtomicFileWriter, _ text: String) throws {
    var output = JSONOutput(
      fileDescriptor: writer.fileDescriptor, path: writer.targetPath, style: .indented)
    output.writeString(text)
    try output.finishDocument()
  }

  @Test func commitReplacesTarget() throws {
    let folder = try TemporaryFolder()
    let target = folder.path + "/out.json"
    try folder.write("out.json", "old")
    let writer = try AtomicFileWriter(target: target)
    try writeAll(writer, "new")
    // Before the commit the target is untouched and the temporary file sits beside it.
    #expect(try folder.read("out.json") == "old")
    #expect(folder.entries().count == 2)
    #expect(writer.temporaryPath.hasPrefix(folder.path + "/.out.json.mapc-"))
    try writer.commit()
    #expect(try folder.read("out.json") == "\"new\"\n")
    #expect(folder.entries() == ["out.json"])
  }

  @Test func newTargetIsCreated() throws {
    let folder = try TemporaryFolder()
    let writer = try AtomicFileWriter(target: folder.path + "/fresh.json")
    try writeAll(writer, "x")
    try writer.commit()
    #expect(try folder.read("fresh.json") == "\"x\"\n")
    #expect(folder.entries() == ["fresh.json"])
  }

  @Test func abandonLeavesTargetAndNoTemporaryFile() throws {
    let folder = try TemporaryFolder()
    try folder.write("out.json", "old")
    let writer = try AtomicFileWriter(target: folder.path + "/out.json")
    try writeAll(writer, "half-written")
    writer.abandon()
    #expect(try folder.read("out.json") == "old")
    #expect(folder.entries() == ["out.json"])
  }

  @Test func droppingTheWriterCleansUp() throws {
    let folder = try TemporaryFolder()
    func failingRun() throws {
      let writer = try AtomicFileWriter(target: folder.path + "/out.json")
      try writeAll(writer, "partial")
      throw StoreValueError(.invalidDate, "validation failed")
    }
    #expect(throws: StoreValueError.self) { try failingRun() }
    #expect(folder.entries().isEmpty)
  }

  @Test func failedCommitLeavesTargetUnchanged() throws {
    let folder = try TemporaryFolder()
    try folder.write("out.json", "old")
    let writer = try AtomicFileWriter(target: folder.path + "/out.json")
    try writeAll(writer, "new")
    // The backup cannot be made (its folder does not exist): the commit fails before the rename.
    var failure: StoreIOError?
    do {
      try writer.commit(backupPath: folder.path + "/no/such/folder/backup.json")
    } catch {
      failure = error
    }
    #expect(failure?.code == .notFound)
    #expect(try folder.read("out.json") == "old")
    #expect(folder.entries() == ["out.json"])
  }

  @Test func symbolicLinkTargetReplacesTheLinkedFile() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/data", withIntermediateDirectories: false)
    try folder.write("data/store.json", "old")
    _ = symlink("data/store.json", folder.path + "/link.json")
    let writer = try AtomicFileWriter(target: folder.path + "/link.json")
    #expect(
      writer.temporaryPath.hasPrefix(writer.resolvedTargetPath.dropLast("store.json".count) + ".store.json.mapc-"))
    try writeAll(writer, "new")
    try writer.commit()
    #expect(try folder.read("data/store.json") == "\"new\"\n")
    #expect(try folder.read("link.json") == "\"new\"\n")
    var info = stat()
    lstat(folder.path + "/link.json", &info)
    #expect(info.st_mode & S_IFMT == S_IFLNK)
    #expect(folder.entries() == ["data", "link.json"])
  }

  @Test func keepsPermissionsOfExistingTarget() throws {
    let folder = try TemporaryFolder()
    try folder.write("out.json", "old")
    chmod(folder.path + "/out.json", 0o640)
    let writer = try AtomicFileWriter(target: folder.path + "/out.json")
    try writeAll(writer, "new")
    try writer.commit()
    var info = stat()
    stat(folder.path + "/out.json", &info)
    #expect(info.st_mode & 0o777 == 0o640)
  }

  @Test func refusesFolderAndMissingFolder() throws {
    let folder = try TemporaryFolder()
    let isFolder = #expect(throws: StoreIOError.self) { _ = try AtomicFileWriter(target: folder.path) }
    #expect(isFolder?.code == .isDirectory)
    let missing = folder.path + "/nope/out.json"
    let notFound = #expect(throws: StoreIOError.self) { _ = try AtomicFileWriter(target: missing) }
    #expect(notFound?.code == .notFound)
    #expect(
      notFound?.description
        == "cannot create a temporary file beside '\(missing)': no such file or directory")
  }

  @Test func backupKeepsOldContents() throws {
    let folder = try TemporaryFolder()
    try folder.write("store.json", "v1")
    try folder.write("store.bak", "older backup")
    let writer = try AtomicFileWriter(target: folder.path + "/store.json")
    try writeAll(writer, "v2")
    try writer.commit(backupPath: folder.path + "/store.bak")
    #expect(try folder.read("store.json") == "\"v2\"\n")
    #expect(try folder.read("store.bak") == "v1")
    #expect(folder.entries() == ["store.bak", "store.json"])
  }

  @Test func backupOntoExistingHardLinkLeavesNoTemporaryFile() throws {
    let folder = try TemporaryFolder()
    try folder.write("store.json", "v1")
    _ = link(folder.path + "/store.json", folder.path + "/store.bak")
    try FileBackup.backUp(folder.path + "/store.json", to: folder.path + "/store.bak")
    #expect(folder.entries() == ["store.bak", "store.json"])
    #expect(try folder.read("store.bak") == "v1")
  }

  @Test func backupByCopy() throws {
    let folder = try TemporaryFolder()
    try folder.write("a.json", String(repeating: "data ", count: 500_000))
    try FileBackup.copyFile(folder.path + "/a.json", to: folder.path + "/b.json")
    #expect(try folder.read("b.json") == folder.read("a.json"))
    #expect(folder.entries() == ["a.json", "b.json"])
  }

  @Test func backupErrors() throws {
    let folder = try TemporaryFolder()
    let missing = folder.path + "/missing.json"
    let error = #expect(throws: StoreIOError.self) {
      try FileBackup.backUp(missing, to: folder.path + "/b.json")
    }
    #expect(error?.description == "cannot back up '\(missing)': no such file or directory")
    try folder.write("a.json", "x")
    #expect(throws: StoreIOError.self) {
      try FileBackup.backUp(folder.path + "/a.json", to: folder.path + "/a.json")
    }
    #expect(folder.entries() == ["a.json"])
  }
}
