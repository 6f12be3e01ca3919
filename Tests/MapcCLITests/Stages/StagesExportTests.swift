import Foundation
import MapTestSupport
import Testing

/// `mapc export --stages`: the NSStagedMigrationManager of a bundle's history. Checksums are
/// compared with what Core Data recorded in a real store (python3's sqlite3 and plistlib), the
/// Swift is parsed by swiftc, and steps a staged migration cannot take are refused by name.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct StagesExportTests {
  /// The toolchain's swiftc (the one running these tests is on the PATH, or at /opt/swift).
  static let swiftc =
    TestTools.onPath("swiftc")?.path
    ?? ["/opt/swift/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) }

  static func expectParses(_ file: String) {
    guard let swiftc else {
      Issue.record("swiftc is not on the PATH: the exported Swift cannot be parsed")
      return
    }
    let parsed = runExecutable(URL(fileURLWithPath: swiftc), ["-parse", file])
    #expect(parsed.exitCode == 0, "swiftc -parse: \(parsed.stderr)")
  }

  static let head =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n"

  /// A bundle of versions given as (name, entity body of `Item`), the last one current.
  static func bundle(_ dir: URL, _ versions: [(String, String)]) throws -> URL {
    let folder = try ModelBundles.bundle(
      versions: versions.map { ($0.0, head + "<entity name=\"Item\">" + $0.1 + "</entity>\n</model>\n") },
      named: "Shop",
      in: dir, current: versions.last!.0)
    try Data(versions.map(\.0).joined(separator: "\n").utf8).write(
      to: folder.appendingPathComponent(".mapc-version-order"))
    return folder
  }

  static func attribute(_ name: String, _ type: String = "String", renaming: String? = nil) -> String {
    "<attribute name=\"\(name)\" optional=\"YES\" attributeType=\"\(type)\""
      + (renaming.map { " elementID=\"\($0)\"" } ?? "") + "/>"
  }

  @Test func customStagesAndRunsOfLightweightSteps() throws {
    let dir = try FileManagerTemp.folder("stages-shop")
    defer { FileManagerTemp.remove(dir.path) }
    // V1 a; V2 a, b; V3 a, b, c; "V\"4\\" (a name to escape) a, b, c, d.
    let bundle = try Self.bundle(
      dir,
      [
        ("V1", Self.attribute("a")), ("V2", Self.attribute("a") + Self.attribute("b")),
        ("V3", Self.attribute("a") + Self.attribute("b") + Self.attribute("c")),
        ("V\"4\\", Self.attribute("a") + Self.attribute("b") + Self.attribute("c") + Self.attribute("d")),
      ])
    let out = dir.appendingPathComponent("Stages.swift").path
    let r = runMapc(["export", "--stages", bundle.path, "--custom", "V3", "-o", out])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    // Lightweight [V1, V2] would list V2, which the custom stage V2 → V3 names: only V1 is left;
    // then the custom stage, then a lightweight stage for the last version.
    #expect(text.components(separatedBy: "NSLightweightMigrationStage(").count == 3, "\(text)")
    #expect(text.components(separatedBy: "NSCustomMigrationStage(").count == 2)
    #expect(text.contains("willMigrateHandler") && text.contains("didMigrateHandler"))
    #expect(text.contains(#"("V\"4\\", "#), "the name is escaped in its literal")
    #expect(text.contains("enum ShopStages"))
    Self.expectParses(out)
  }

  #if canImport(CoreData)
    /// Where CoreData exists (the macOS job), the generated file type-checks against it.
    @Test func theStagesTypeCheckAgainstCoreData() throws {
      let dir = try FileManagerTemp.folder("stages-typecheck")
      defer { FileManagerTemp.remove(dir.path) }
      let bundle = try Self.bundle(
        dir, [("V1", Self.attribute("a")), ("V2", Self.attribute("a") + Self.attribute("b"))])
      let out = dir.appendingPathComponent("Stages.swift").path
      #expect(runMapc(["export", "--stages", bundle.path, "--custom", "V2", "-o", out]).exitCode == 0)
      let checked = runExecutable(URL(fileURLWithPath: "/usr/bin/xcrun"), ["swiftc", "-typecheck", out])
      #expect(checked.exitCode == 0, "swiftc -typecheck: \(checked.stderr)")
    }
  #endif

  @Test func aStepThatCannotBeInferredIsRefusedByName() throws {
    let dir = try FileManagerTemp.folder("stages-refused")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(dir, [("V1", Self.attribute("a")), ("V2", Self.attribute("a", "Date"))])
    let out = dir.appendingPathComponent("Stages.swift").path
    let r = runMapc(["export", "--stages", bundle.path, "-o", out])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("[stages-step-not-inferable]") && r.stderr.contains("'V1' → 'V2'"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let unknown = runMapc(["export", "--stages", bundle.path, "--custom", "V9", "-o", out])
    #expect(unknown.exitCode == 1 && unknown.stderr.contains("[stages-unknown-version]"), "\(unknown.stderr)")
    let mixed = runMapc(["export", "m.xml", "--stages", bundle.path, "-o", out])
    #expect(mixed.exitCode == 64, "\(mixed.stderr)")
  }

  @Test(.enabled(if: SharedPaths.stores != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func duckDuckGoChecksumsAreTheOnesCoreDataRecorded() throws {
    let root = SharedPaths.stores!.appendingPathComponent("duckduckgo+BrowserServicesKit")
    let bundle = root.appendingPathComponent("Sources/Bookmarks/BookmarksModel.xcdatamodeld").path
    let store = root.appendingPathComponent("Tests/BookmarksTests/Resources/Bookmarks_V4.sqlite")
    let recorded = try ModelLockTests.storeChecksum(store).trimmingCharacters(in: .whitespacesAndNewlines)
    let dir = try FileManagerTemp.folder("stages-ddg")
    defer { FileManagerTemp.remove(dir.path) }
    let out = dir.appendingPathComponent("Stages.swift").path
    let r = runMapc(["export", "--stages", bundle, "-o", out])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains("(\"BookmarksModel 4\", \"\(recorded)\")"), "\(recorded) not in \(text)")
    #expect(text.contains("NSLightweightMigrationStage([\"") && text.contains("\"\(recorded)\""))
    Self.expectParses(out)
  }

  @Test(.enabled(if: SharedPaths.stores != nil && SharedPaths.corpus != nil, "needs ../shared/stores and corpus"))
  func apptentiveStepsThatNeedItsMappingModelsAreRefused() throws {
    let bundle = SharedPaths.stores!.appendingPathComponent(
      "apptentive+apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld"
    ).path
    let mappings = SharedPaths.corpus!.appendingPathComponent("apptentive/apptentive-ios/Apptentive/Apptentive/Model")
      .path
    let dir = try FileManagerTemp.folder("stages-apptentive")
    defer { FileManagerTemp.remove(dir.path) }
    let out = dir.appendingPathComponent("Stages.swift").path
    let r = runMapc(["export", "--stages", bundle, "--mappings", mappings, "-o", out])
    #expect(r.exitCode == 1)
    let names = ["ATDataModel", "ATDataModel 2", "ATDataModel 3", "ATDataModel 4", "ATDataModel 5", "ATDataModel 6"]
    for (a, b) in zip(names, names.dropFirst()) {
      #expect(r.stderr.contains("the step '\(a)' → '\(b)' is covered by the mapping"), "\(a) → \(b): \(r.stderr)")
    }
    #expect(r.stderr.components(separatedBy: "[stages-mapping-step]").count == 6)
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
