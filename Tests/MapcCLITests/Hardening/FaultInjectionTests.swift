import Foundation
import MapTestSupport
import Testing

/// Writes that fail through the one seam (`WriteCalls`, `MAPC_FAULT`): for each fault the
/// store and an existing target stay byte-identical, no temporary file is left, and the error
/// says what happened.
@Suite struct FaultInjectionTests {
  /// Runs the built mapc in `dir` with `MAPC_FAULT=fault`.
  static func runMapc(_ arguments: [String], in dir: URL, fault: String) throws -> (code: Int32, stderr: String) {
    let exe = try #require(mapcExecutable, "\(mapcExecutableProblem ?? "")")
    let p = Process()
    p.executableURL = exe
    p.arguments = arguments
    p.currentDirectoryURL = dir
    var env = ProcessInfo.processInfo.environment
    env["MAPC_FAULT"] = fault
    p.environment = env
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    let data = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let fault: String
    let message: String
    var testDescription: String { fault }
  }

  static let cases = [
    Case(fault: "write-at=0", message: "cannot write 'out.json': input/output error"),
    Case(fault: "write-at=100", message: "cannot write 'out.json': input/output error"),
    Case(fault: "full-at=150", message: "cannot write 'out.json': no space left on device"),
    Case(fault: "fsync", message: "cannot write 'out.json': input/output error"),
    Case(fault: "rename", message: "cannot replace 'out.json': input/output error"),
    Case(fault: "folder-fsync", message: "cannot flush the folder of 'out.json': input/output error"),
  ]

  @Test(arguments: cases)
  func outputUnchanged(_ c: Case) throws {
    let dir = try Hardening.folder("fault-output")
    defer { FileManagerTemp.remove(dir.path) }
    let old = Array("previous contents\n".utf8)
    try Data(old).write(to: dir.appendingPathComponent("out.json"))
    let store = Hardening.bytes(dir.appendingPathComponent("s.json").path)
    let r = try Self.runMapc(
      ["run", "m.xml", "--store", "s.json", "--output", "out.json", "--quiet"], in: dir, fault: c.fault)
    #expect(r.code == 2, "\(r.stderr)")
    #expect(r.stderr.contains(c.message), "\(r.stderr)")
    #expect(Hardening.bytes(dir.appendingPathComponent("out.json").path) == old)
    #expect(Hardening.bytes(dir.appendingPathComponent("s.json").path) == store)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
  }

  @Test(arguments: cases)
  func inPlaceWithBackupUnchanged(_ c: Case) throws {
    let dir = try Hardening.folder("fault-in-place")
    defer { FileManagerTemp.remove(dir.path) }
    let store = Hardening.bytes(dir.appendingPathComponent("s.json").path)
    let r = try Self.runMapc(
      ["run", "m.xml", "--store", "s.json", "--in-place", "--backup", "old.json", "--quiet"], in: dir, fault: c.fault)
    #expect(r.code == 2, "\(r.stderr)")
    // The backup is made by a rename before the store's, so that one fails first.
    let message =
      c.fault == "rename"
      ? "cannot create the backup 'old.json': input/output error"
      : c.message.replacingOccurrences(of: "out.json", with: "s.json")
    #expect(r.stderr.contains(message), "\(r.stderr)")
    #expect(
      !FileManager.default.fileExists(atPath: dir.appendingPathComponent("old.json").path) || c.fault == "folder-fsync"
        || c.fault == "rename")
    #expect(Hardening.bytes(dir.appendingPathComponent("s.json").path) == store)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
  }

  /// Without a fault the same runs write (the seam is transparent).
  @Test func noFaultWrites() throws {
    let dir = try Hardening.folder("fault-none")
    defer { FileManagerTemp.remove(dir.path) }
    let r = try Self.runMapc(
      ["run", "m.xml", "--store", "s.json", "--output", "out.json", "--quiet"], in: dir, fault: "")
    #expect(r.code == 0, "\(r.stderr)")
    #expect(
      String(decoding: Hardening.bytes(dir.appendingPathComponent("out.json").path), as: UTF8.self).contains(
        "\"label\""))
  }
}
