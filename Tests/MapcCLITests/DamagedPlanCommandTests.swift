import Foundation
import MapCompiler
import MapTestSupport
import Testing

/// Every command that reads a plan reports each kind of damaged plan with the same line,
/// `PATH: error: MESSAGE [plan-…]` with the documented id (`Specs/diagnostics.md`), and its
/// documented exit status: `mapc dump` 1, `mapc run` 2 (nothing written).
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct DamagedPlanCommandTests {
  static func damaged() throws -> [(String, [UInt8], String)] {
    let bytes = PlanWriter.encode(SamplePlans.small)
    var flipped = bytes
    flipped[flipped.count - 3] ^= 0x20
    return [
      ("truncated", Array(bytes.prefix(100)), "plan-truncated"),
      ("bit-flipped", flipped, "plan-checksum-mismatch"),
      ("foreign", Array("bplist00".utf8) + bytes.dropFirst(8), "plan-bad-magic"),
      ("empty", [], "plan-truncated"),
    ]
  }

  @Test func runAndDumpPrintTheSameLineWithTheDocumentedId() throws {
    let work = try FileManagerTemp.folder("damaged")
    defer { FileManagerTemp.remove(work.path) }
    let store = SharedPaths.packageRoot.appendingPathComponent("Mappings/bookshelf/store-v1.json").path
    for (name, bytes, id) in try Self.damaged() {
      let path = work.appendingPathComponent("\(name).cdm").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let dump = runMapc(["dump", path])
      let run = runMapc(["run", path, "--store", store, "--output", work.appendingPathComponent("out.json").path])
      #expect(dump.exitCode == 1, "\(name)")
      #expect(run.exitCode == 2, "\(name)")
      let line = dump.stderr.split(separator: "\n").first.map(String.init) ?? ""
      #expect(line.hasPrefix("\(path): error: ") && line.hasSuffix(" [\(id)]"), "\(name): \(dump.stderr)")
      #expect(run.stderr.split(separator: "\n").contains { $0 == line }, "\(name): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out.json").path))
    }
  }
}
