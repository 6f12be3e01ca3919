import Foundation
@testable import MapRuntime
import MapTestSupport
import Testing

/// The header checks of `PlanReader`, on files assembled by hand (MapRuntime has no writer).
@Suite struct PlanEnvelopeTests {
  /// magic, version, flags, body length, SHA-256 of the body, body.
  static func file(version: UInt16 = 1, flags: UInt16 = 0, body: [UInt8], length: UInt64? = nil) -> [UInt8] {
    var w = BinaryWriter()
    w.writeRaw(PlanFormat.magic)
    w.writeU16(version)
    w.writeU16(flags)
    w.writeU64(length ?? UInt64(body.count))
    w.writeRaw(PlanFormat.checksum(of: body))
    w.writeRaw(body)
    return w.bytes
  }

  @Test func headerLayout() throws {
    let bytes = Self.file(body: [1, 2, 3])
    #expect(bytes.count == 55)
    #expect(Array(bytes[0..<8]) == [0x89, 0x43, 0x44, 0x4D, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(Array(bytes[8..<20]) == [1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0])
    // SHA-256 of 01 02 03, computed independently (`printf '\x01\x02\x03' | sha256sum`).
    let sha = "039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81"
    #expect(bytes[20..<52].map { String(format: "%02x", $0) }.joined() == sha)
    let header = try PlanReader.verify(bytes)
    #expect(header == PlanHeader(formatVersion: 1, flags: 0, bodyLength: 3, checksum: Array(bytes[20..<52])))
  }

  @Test func emptyFileIsTruncated() {
    #expect(
      throws: PlanFormatError(
        code: .truncated, message: "plan is truncated: expected a 52-byte header, found 0 bytes",
        offset: 0, path: "p.cdm")
    ) { try PlanReader.decode([], path: "p.cdm") }
  }

  @Test func appleCompiledMappingModelIsNotAPlan() {
    // Xcode's .cdm files are binary property lists.
    let error = #expect(throws: PlanFormatError.self) {
      try PlanReader.decode(Array("bplist00".utf8) + [UInt8](repeating: 0, count: 60), path: "Model.cdm")
    }
    #expect(error?.description == "Model.cdm: not a mapc plan (bad magic bytes)")
    #expect(error?.code.rawValue == "plan-bad-magic")
  }

  @Test func versionsOtherThanOneAreRefused() {
    for version: UInt16 in [0, 2, 7, 0xffff] {
      let error = #expect(throws: PlanFormatError.self) {
        try PlanReader.decode(Self.file(version: version, body: [1, 0]))
      }
      #expect(error?.code == .unsupportedVersion)
      #expect(error?.offset == 8)
      #expect(error?.message.contains("version \(version)") == true)
    }
  }

  @Test func checksumMismatch() {
    var bytes = Self.file(body: [1, 0, 2, 0])
    bytes[bytes.count - 1] = 9
    #expect(
      throws: PlanFormatError(
        code: .checksumMismatch, message: "plan is damaged: checksum mismatch", offset: 20, path: "x.cdm")
    ) { try PlanReader.decode(bytes, path: "x.cdm") }
  }

  @Test func hugeBodyLengthIsTruncatedNotATrap() {
    let bytes = Self.file(body: [1, 0], length: UInt64.max)
    let error = #expect(throws: PlanFormatError.self) { try PlanReader.decode(bytes) }
    #expect(error?.code == .truncated)
    #expect(error?.message == "plan is truncated: expected 18446744073709551615 bytes of body, found 2")
  }

  @Test func validEnvelopeWithBadSectionsIsMalformed() {
    // An empty body: the string table section is missing.
    let e1 = #expect(throws: PlanFormatError.self) { try PlanReader.decode(Self.file(body: [])) }
    #expect(e1?.code == .malformed)
    #expect(e1?.offset == 52)
    // Sections out of order: the plan info section (2) first.
    let e2 = #expect(throws: PlanFormatError.self) { try PlanReader.decode(Self.file(body: [2, 0])) }
    #expect(e2?.message == "plan is malformed at byte 52: expected the string table (tag 1), found tag 2")
    // A string table that says it holds more than it does.
    let e3 = #expect(throws: PlanFormatError.self) { try PlanReader.decode(Self.file(body: [1, 1, 5])) }
    #expect(e3?.code == .malformed)
  }

  @Test func readingAMissingFileIsUnreadable() {
    let path = FileManagerTemp.path("none.cdm")
    #expect(
      throws: PlanFormatError(
        code: .unreadable, message: "cannot read plan: no such file", path: path)
    ) { try PlanReader.read(contentsOf: path) }
    let dir = FileManagerTemp.path("dir.cdm")
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { FileManagerTemp.remove(dir) }
    let error = #expect(throws: PlanFormatError.self) { try PlanReader.read(contentsOf: dir) }
    #expect(error?.code == .unreadable)
  }

  @Test func tagTablesAreOneToOne() {
    #expect(Set(AttributeType.allCases.map(\.planTag)).count == AttributeType.allCases.count)
    for t in AttributeType.allCases { #expect(AttributeType(planTag: t.planTag) == t) }
    for t in DeleteRule.allCases { #expect(DeleteRule(planTag: t.planTag) == t) }
    for t in ComparisonOperator.allCases { #expect(ComparisonOperator(planTag: t.planTag) == t) }
    for t in ComparisonModifier.allCases { #expect(ComparisonModifier(planTag: t.planTag) == t) }
    for t in EntityMappingType.allCases { #expect(EntityMappingType(planTag: t.planTag) == t) }
    #expect(AttributeType(planTag: 0) == nil)
    #expect(AttributeType(planTag: 17) == nil)
    #expect(EntityMappingType(planTag: 6) == nil)
  }
}
