import Foundation
import MapTestSupport
import Testing

/// `mapc model` on Swift source past mapc's limits (Specs/limits.md, "Swift source"): exit 1 with
/// the place and id, nothing written, never a crash (these inputs crashed with exit 139).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SwiftSourceLimitCommandTests {
  static let model = "import SwiftData\n@Model final class A {\n  var x: Int = 0\n}\n"

  static func model(of text: String) throws -> (MapcResult, [String]) {
    let folder = try TemporaryFolder()
    try folder.write("Deep.swift", text)
    let result = runMapc(["model", "Deep.swift", "-o", "Out.xcdatamodel"], in: URL(fileURLWithPath: folder.path))
    return (result, folder.entries())
  }

  @Test func arrayTypeAThousandDeep() throws {
    let text =
      Self.model + "struct S {\n  var y: " + String(repeating: "[", count: 1000) + "Int"
      + String(repeating: "]", count: 1000) + "\n}\n"
    let (result, entries) = try Self.model(of: text)
    #expect(result.exitCode == 1)
    #expect(result.stderr.hasPrefix("Deep.swift:6:109: error: "))
    #expect(result.stderr.contains("[swift-too-deep]"))
    #expect(entries == ["Deep.swift"])
  }

  @Test func fiftyThousandQuestionMarks() throws {
    let text = Self.model + "struct S {\n  var y: Int" + String(repeating: "?", count: 50_000) + "\n}\n"
    let (result, entries) = try Self.model(of: text)
    #expect(result.exitCode == 1)
    #expect(result.stderr.hasPrefix("Deep.swift:6:"))
    #expect(result.stderr.contains("[swift-too-deep]"))
    #expect(entries == ["Deep.swift"])
  }

  /// Depth 30 in a struct outside any @Model: written, in well under a second.
  @Test func depthThirtyOutsideAnyModel() throws {
    let text =
      Self.model + "struct S {\n  var y: " + String(repeating: "[", count: 30) + "Int"
      + String(repeating: "]", count: 30) + "\n}\n"
    let start = Date()
    let (result, entries) = try Self.model(of: text)
    #expect(result.exitCode == 0, "\(result.stderr)")
    #expect(Date().timeIntervalSince(start) < 1)
    #expect(entries == ["Deep.swift", "Out.xcdatamodel"])
  }
}
