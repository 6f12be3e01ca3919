import Foundation
import MapRuntime
import MapSwiftSchema
import MapTestSupport
import Testing

/// `#if` as for an Apple platform with SwiftData, changed by `--define`/`--undefine`; the
/// files a selection chooses (exclusions, the same file twice, an Xcode project's target).
/// Expected values are the table of Specs/swiftdata-schema.md §1 and files written here.
@Suite struct SwiftSourceSelectionTests {
  static func active(_ condition: String, _ conditions: SwiftBuildConditions = SwiftBuildConditions()) throws -> Bool {
    let text = "import SwiftData\n@Model final class A {\n#if \(condition)\nvar on = 1\n#endif\ninit() {}\n}"
    let schema = try SwiftSchema.read(sources: [(path: "A.swift", text: text)], name: "S", conditions: conditions)
    return schema.versions[0].model.entity(named: "A")?.attributes.isEmpty == false
  }

  @Test(arguments: [
    ("canImport(SwiftData)", true), ("canImport(Foundation)", true), ("canImport(CoreData)", true),
    ("canImport(UIKit)", true), ("canImport(Glibc)", false), ("canImport(FoundationNetworking)", false),
    ("os(iOS)", true), ("os(macOS)", true), ("os(Linux)", false), ("os(watchOS)", false), ("os(Windows)", false),
    ("DEBUG", false), ("swift(>=5.9)", true), ("compiler(>=6.0)", true), ("swift(<5)", false),
    ("targetEnvironment(simulator)", false), ("arch(arm64)", true), ("arch(x86_64)", false),
    ("_runtime(_ObjC)", true), ("canImport(SwiftData) && os(iOS)", true), ("!os(Linux)", true),
    ("os(Linux) || DEBUG", false),
  ])
  func conditionsAreThoseOfAnApplePlatform(_ condition: String, _ expected: Bool) throws {
    #expect(try Self.active(condition) == expected, "\(condition)")
  }

  @Test func conditionsCanBeSetAndCleared() throws {
    var c = SwiftBuildConditions()
    #expect(c.set("DEBUG", to: true) == nil)
    #expect(c.set("os(Linux)", to: true) == nil)
    #expect(c.set("os(iOS)", to: false) == nil)
    #expect(c.set("canImport(SwiftData)", to: false) == nil)
    #expect(try Self.active("DEBUG", c))
    #expect(try Self.active("os(Linux)", c))
    #expect(try !Self.active("os(iOS)", c))
    #expect(try !Self.active("canImport(SwiftData)", c))
    for bad in ["os(", "nothing(x)", "1abc", "os(a.b)", ""] {
      #expect(c.set(bad, to: true) != nil, "\(bad)")
    }
  }

  static func files(_ folder: TemporaryFolder, _ paths: [String], excludes: [String] = [], target: String? = nil)
    throws -> [String]
  {
    try SwiftSourceSelection(paths: paths.map { folder.path + "/" + $0 }, excludes: excludes, xcodeTarget: target)
      .files().files.map { String($0.dropFirst(folder.path.count + 1)) }
  }

  static func write(_ folder: TemporaryFolder, _ names: [String]) throws {
    for name in names {
      let dir = (name as NSString).deletingLastPathComponent
      if !dir.isEmpty {
        try FileManager.default.createDirectory(atPath: folder.path + "/" + dir, withIntermediateDirectories: true)
      }
      try folder.write(name, "// \(name)\n")
    }
  }

  @Test func exclusionsMatchThePathBelowTheFolderOrAnyPartOfIt() throws {
    let folder = try TemporaryFolder()
    try Self.write(folder, ["App/A.swift", "App/Old/B.swift", "App/Old/Deep/C.swift", "App/Legacy.swift"])
    let all = ["App/A.swift", "App/Legacy.swift", "App/Old/B.swift", "App/Old/Deep/C.swift"]
    #expect(try Self.files(folder, ["App"]) == all)
    #expect(try Self.files(folder, ["App"], excludes: ["Old"]) == ["App/A.swift", "App/Legacy.swift"])
    #expect(try Self.files(folder, ["App"], excludes: ["Old/*.swift"]) == all.filter { $0 != "App/Old/B.swift" })
    #expect(try Self.files(folder, ["App"], excludes: ["Old/**.swift"]) == ["App/A.swift", "App/Legacy.swift"])
    #expect(
      try Self.files(folder, ["App"], excludes: ["Leg?cy.swift", "C.swift"]) == ["App/A.swift", "App/Old/B.swift"])
    let (_, notes) = try SwiftSourceSelection(paths: [folder.path + "/App"], excludes: ["Nothing*"]).files()
    #expect(notes.map(\.message) == ["the exclusion 'Nothing*' matched no Swift file"])
  }

  @Test func theSameFileTwiceIsAnError() throws {
    let folder = try TemporaryFolder()
    try Self.write(folder, ["App/A.swift", "B.swift"])
    #expect(try Self.files(folder, ["App", "B.swift"]) == ["App/A.swift", "B.swift"])
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/Link.swift", withDestinationPath: "B.swift")
    for paths in [["App", "App/A.swift"], ["B.swift", "Link.swift"], ["B.swift", "B.swift"]] {
      #expect(throws: SwiftSchemaError.self, "\(paths)") { try Self.files(folder, paths) }
      do {
        _ = try Self.files(folder, paths)
      } catch let error as SwiftSchemaError {
        #expect(error.diagnostics.map(\.id) == ["swift-duplicate-file"])
      }
    }
    // Left out by an exclusion, the second path is no repeat.
    #expect(try Self.files(folder, ["App", "App/A.swift"], excludes: ["A.swift"]).isEmpty)
  }

  static let project = """
    // !$*UTF8*$!
    {
      archiveVersion = 1;
      objectVersion = 77;
      objects = {
        B1 /* A.swift in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* A.swift */; };
        B2 = {isa = PBXBuildFile; fileRef = F2; };
        B3 = {isa = PBXBuildFile; fileRef = F3; };
        B4 = {isa = PBXBuildFile; fileRef = F4; };
        F1 = {isa = PBXFileReference; path = A.swift; sourceTree = "<group>"; };
        F2 = {isa = PBXFileReference; path = "Old/B.swift"; sourceTree = SOURCE_ROOT; };
        F3 = {isa = PBXFileReference; name = "Asset"; path = Assets.xcassets; sourceTree = "<group>"; };
        F4 = {isa = PBXFileReference; path = "Shared \\"Q\\".swift"; sourceTree = "<group>"; };
        G0 = {isa = PBXGroup; children = (G1, S1, ); sourceTree = "<group>"; };
        G1 /* App */ = {isa = PBXGroup; children = (F1, F3, F4, ); path = App; sourceTree = "<group>"; };
        S1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (X1, ); path = Synced; sourceTree = "<group>"; };
        X1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Skip.swift, ); target = T1; };
        P1 = {isa = PBXSourcesBuildPhase; files = (B1, B3, B4, ); };
        P2 = {isa = PBXSourcesBuildPhase; files = (B2, ); };
        T1 = {isa = PBXNativeTarget; buildPhases = (P1, ); fileSystemSynchronizedGroups = (S1, ); name = App; };
        T2 = {isa = PBXNativeTarget; buildPhases = (P2, ); name = "Old App"; };
        R1 = {isa = PBXProject; mainGroup = G0; projectDirPath = ""; targets = (T1, T2, ); };
      };
      rootObject = R1;
    }
    """

  @Test func anXcodeProjectGivesItsTargetsFiles() throws {
    let folder = try TemporaryFolder()
    try Self.write(
      folder,
      [
        "App/A.swift", "App/Shared \"Q\".swift", "App/Stray.swift", "Old/B.swift", "Synced/S.swift",
        "Synced/Skip.swift",
      ])
    try FileManager.default.createDirectory(atPath: folder.path + "/App.xcodeproj", withIntermediateDirectories: true)
    try folder.write("App.xcodeproj/project.pbxproj", Self.project)
    #expect(
      try Self.files(folder, ["App.xcodeproj"], target: "App") == [
        "App/A.swift", "App/Shared \"Q\".swift", "Synced/S.swift",
      ])
    #expect(try Self.files(folder, ["App.xcodeproj"], target: "Old App") == ["Old/B.swift"])
    for target in [nil, "Nope"] {
      do {
        _ = try Self.files(folder, ["App.xcodeproj"], target: target)
        Issue.record("no error for target \(target ?? "nil")")
      } catch let error as SwiftSchemaError {
        #expect(error.diagnostics.map(\.id) == ["swift-xcode-project"])
        #expect(error.diagnostics.first?.message.contains("'App', 'Old App'") == true)
      }
    }
    try folder.write("App.xcodeproj/project.pbxproj", "{ objects = { A = (1, 2; }; }")
    do {
      _ = try Self.files(folder, ["App.xcodeproj"], target: "App")
      Issue.record("no error for a broken project")
    } catch let error as SwiftSchemaError {
      #expect(error.diagnostics.map(\.id) == ["swift-xcode-project"])
      #expect(error.diagnostics.first?.location?.line == 1)
    }
  }
}
