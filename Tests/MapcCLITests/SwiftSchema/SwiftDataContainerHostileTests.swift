import Foundation
import MapTestSupport
import Testing

/// Hostile container declarations and options on the command line: each ends in a clear
/// message with its place and the documented exit status (1 for swift-* input errors, 64 for
/// usage), control characters escaped.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SwiftDataContainerHostileTests {
  static let models = """
    import SwiftData
    @Model final class Trip { var name = ""; var stops: [Stop] = []; init() {} }
    @Model final class Stop { var trip: Trip?; var next: Stop?; init() {} }
    """

  @Test func aContainerNamingAMissingTypeIsAnErrorAtItsPlace() throws {
    let folder = try TemporaryFolder()
    try folder.write("Models.swift", Self.models)
    try folder.write("App.swift", "import SwiftData\n\nlet c = try ModelContainer(for: Trip.self, Ghost.self)\n")
    let r = runMapc(["hash", folder.path])
    #expect(r.exitCode == 1)
    #expect(
      r.stderr.contains(
        "App.swift:3:44: error: the model container names 'Ghost', which is no @Model class of the given files [swift-container-type]"
      ), "\(r.stderr)")
  }

  @Test func controlCharactersInPathsAreEscaped() throws {
    let folder = try TemporaryFolder()
    try folder.write("Models.swift", Self.models)
    try folder.write("App.swift", "import SwiftData\nlet c = try ModelContainer(for: Trip.self)\n")
    try folder.write("Old\u{1B}[31m.swift", "import SwiftData\n@Model final class Old { init() {} }\n")
    let r = runMapc(["hash", folder.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("note: @Model class Old is not reached"), "\(r.stderr)")
    #expect(!r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(r.stderr)")
  }

  @Test(arguments: [
    ["--define", "os("], ["--undefine", "nothing(x)"], ["--xcode-target", "App"],
  ])
  func badOptionsAreUsageErrors(_ options: [String]) throws {
    let folder = try TemporaryFolder()
    try folder.write("Models.swift", Self.models)
    let r = runMapc(["hash", folder.path] + options)
    #expect(r.exitCode == 64, "\(options): \(r.stderr)")
  }

  @Test func aConditionWithControlCharactersIsEscaped() throws {
    let folder = try TemporaryFolder()
    try folder.write("Models.swift", Self.models)
    let r = runMapc(["hash", folder.path, "--define", "os(\u{1B}[31m)"])
    #expect(r.exitCode == 64)
    #expect(!r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(r.stderr)")
  }

  @Test func swiftOptionsWithAnXcodeModelAreUsageErrors() throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/M.xcdatamodeld/M.xcdatamodel", withIntermediateDirectories: true)
    let r = runMapc(["hash", folder.path + "/M.xcdatamodeld", "--define", "DEBUG"])
    #expect(r.exitCode == 64, "\(r.stderr)")
    #expect(r.stderr.contains("apply to a SwiftData schema"), "\(r.stderr)")
    let twice = runMapc(["store", "info", "x.sqlite", "--model", folder.path + "/M.xcdatamodeld", "--model", "A.swift"])
    #expect(twice.exitCode == 64, "\(twice.stderr)")
  }

  @Test func aRepeatedModelReadsTheUnionOfTheFiles() throws {
    let folder = try TemporaryFolder()
    try folder.write("Models.swift", Self.models)
    try folder.write("App.swift", "import SwiftData\nlet c = try ModelContainer(for: Stop.self)\n")
    let output = folder.path + "/Out.xcdatamodel"
    let r = runMapc(["model", folder.path + "/Models.swift", folder.path + "/App.swift", "-o", output])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let contents = try String(contentsOfFile: output + "/contents", encoding: .utf8)
    #expect(contents.contains("name=\"Trip\"") && contents.contains("name=\"Stop\""))
  }
}
