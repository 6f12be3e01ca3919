import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import Testing

@Suite struct DumpTests {
  @Test func theBuiltMapcIsThere() {
    #expect(mapcExecutableProblem == nil)
  }

  /// Writes `bytes` to a temporary `.cdm` file, runs `body` with its path, removes it.
  func withPlanFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
    let path = FileManagerTemp.path("dump.cdm")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { FileManagerTemp.remove(path) }
    return try body(path)
  }

  /// Runs `mapc dump` on `bytes` written as `dump.cdm` in a temporary folder, from that folder,
  /// so the relative paths the plan holds are printed as they are (resolved against `.`).
  func dumpInPlace(_ bytes: [UInt8]) throws -> MapcResult {
    let folder = try FileManagerTemp.folder("dump")
    defer { FileManagerTemp.remove(folder.path) }
    try Data(bytes).write(to: folder.appendingPathComponent("dump.cdm"))
    return runMapc(["dump", "dump.cdm"], in: folder)
  }

  @Test func listsEveryMappingExpressionAndHash() throws {
    let plan = SamplePlans.full
    let result = try dumpInPlace(PlanWriter.encode(plan))
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    let out = result.stdout
    #expect(out.hasPrefix("plan SQADMappingModel1_2\n  format version: 1\n"))
    #expect(out.contains("  mapping: Mappings/diary/diary-mapping.xml\n"))
    #expect(out.contains("  user info:\n    modelVersion = \"2\"\n    \"\" = \"\"\n"))
    #expect(
      out.contains("source model: Diary\n  path: Diary.xcdatamodeld/Diary.xcdatamodel\n  version identifiers: \"1\"\n"))
    #expect(out.contains("destination model: Diary 2\n"))
    #expect(out.contains("  version identifiers: \"2\", \"\", \"beta\"\n"))
    let lines = out.split(separator: "\n").map { $0.drop(while: { $0 == " " }) }
    for h in plan.sourceEntityHashes + plan.destinationEntityHashes {
      let base64 = Data(h.hash).base64EncodedString()
      #expect(base64.count == 44)
      #expect(
        lines.contains { $0.hasPrefix("\(h.entity) ") && $0.contains("  \(base64)  (") },
        "hash of \(h.entity)")
    }
    #expect(out.contains("entity mappings (\(plan.entityMappings.count)):\n"))
    for (i, m) in plan.entityMappings.enumerated() {
      let source = m.sourceEntity ?? "(none)", destination = m.destinationEntity ?? "(none)"
      #expect(out.contains("  \(i + 1). \(m.name) (\(m.type.rawValue)): \(source) -> \(destination)\n"))
      var expressions: [(String, CompiledExpression)] = []
      if let e = m.sourceExpression { expressions.append(("source", e)) }
      if let e = m.forEach { expressions.append(("forEach", e)) }
      for p in m.attributeMappings + m.relationshipMappings {
        if let e = p.valueExpression { expressions.append((p.name, e)) }
      }
      for (label, e) in expressions {
        // Control characters a string literal holds (a line feed, NUL) are escaped in the listing.
        let printed = String(describing: e.expression).unicodeScalars.map { s in
          switch s {
          case "\n": "\\n"
          case "\r": "\\r"
          default: s.value < 0x20 && s != "\t" ? "\\u{\(String(s.value, radix: 16, uppercase: true))}" : String(s)
          }
        }.joined()
        #expect(out.contains("\(label) = \(printed)\n"), "\(m.name).\(label)")
        if let source = e.source { #expect(out.contains("expression at \(source.location)\n")) }
      }
    }
    #expect(out.contains("    policy: App.DiaryPolicy\n"))
    #expect(out.contains("      none: (no expression)\n"))
    #expect(out.contains("    defined at Mappings/diary/diary-mapping.xml:10:3\n"))
  }

  @Test func theListingIsTheSameEachTime() throws {
    let bytes = PlanWriter.encode(SamplePlans.small)
    let first = try withPlanFile(bytes) { runMapc(["dump", $0]).stdout }
    let second = try withPlanFile(bytes) { runMapc(["dump", $0]).stdout }
    #expect(!first.isEmpty)
    #expect(first == second)
  }

  @Test func damagedPlanExitsOneWithTheReadersMessage() throws {
    var bytes = PlanWriter.encode(SamplePlans.small)
    bytes[bytes.count - 5] ^= 0x20
    let result = try withPlanFile(bytes) { path in (path, runMapc(["dump", path])) }
    #expect(result.1.exitCode == 1)
    #expect(result.1.stdout == "")
    #expect(result.1.stderr == "\(result.0): error: plan is damaged: checksum mismatch [plan-checksum-mismatch]\n")
  }

  @Test func truncatedAndForeignFilesExitOne() throws {
    let bytes = PlanWriter.encode(SamplePlans.small)
    let truncated = try withPlanFile(Array(bytes.prefix(100))) { runMapc(["dump", $0]) }
    #expect(truncated.exitCode == 1)
    #expect(
      truncated.stderr.contains(
        ": error: plan is truncated: expected \(bytes.count - 52) bytes of body, found 48 [plan-truncated]\n"))
    let foreign = try withPlanFile(Array("bplist00".utf8) + bytes.dropFirst(8)) { runMapc(["dump", $0]) }
    #expect(foreign.exitCode == 1)
    #expect(foreign.stderr.hasSuffix(": error: not a mapc plan (bad magic bytes) [plan-bad-magic]\n"))
  }

  @Test func missingFileExitsOne() {
    let path = FileManagerTemp.path("absent.cdm")
    let result = runMapc(["dump", path])
    #expect(result.exitCode == 1)
    #expect(result.stderr == "\(path): error: cannot read plan: no such file [plan-unreadable]\n")
  }

  @Test func usageErrorsExitSixtyFour() {
    #expect(runMapc(["dump"]).exitCode == 64)
    #expect(runMapc(["dump", "a.cdm", "b.cdm"]).exitCode == 64)
  }
}
