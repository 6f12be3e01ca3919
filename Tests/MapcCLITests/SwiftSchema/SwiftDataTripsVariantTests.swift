import Foundation
import MapTestSupport
import Testing

/// `Examples/SwiftDataTrips` given as an app holds it: with an unused `@Model` class (of a
/// type mapc does not map), inside `#if canImport(SwiftData)`, beside a file to leave out. Each
/// gives the versions and hashes of the plain example (the acceptance of issue 39).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SwiftDataTripsVariantTests {
  static let trips = SharedPaths.packageRoot.appendingPathComponent("Examples/SwiftDataTrips/Trips.swift").path

  /// `mapc hash --format json` of every version, as one text.
  static func hashes(_ paths: [String], _ options: [String] = [], versions: [String] = ["TripsV1", "TripsV2"]) throws
    -> String
  {
    var out = ""
    for v in versions {
      let r = runMapc(["hash"] + paths + options + ["--model-version", v, "--format", "json"])
      try #require(r.exitCode == 0, "\(r.stderr)")
      out += r.stdout
    }
    return out
  }

  static let unused = """
    import SwiftData

    @Model final class Archive {
      var byYear: [Int: String] = [:]
      init() {}
    }
    """

  @Test func anUnusedClassChangesNothing() throws {
    let folder = try TemporaryFolder()
    try folder.write("Trips.swift", try String(contentsOfFile: Self.trips, encoding: .utf8))
    try folder.write("Archive.swift", Self.unused)
    let r = runMapc(["hash", folder.path])
    #expect(r.stderr.contains("swift-model-outside-schema"), "\(r.stderr)")
    #expect(try Self.hashes([folder.path]) == (try Self.hashes([Self.trips])))
  }

  /// A stale version the migration plan does not list (with a type mapc does not map) is left
  /// out: otherwise it would be a version, and the current one.
  @Test func aVersionOutsideThePlanChangesNothing() throws {
    let folder = try TemporaryFolder()
    try folder.write("Trips.swift", try String(contentsOfFile: Self.trips, encoding: .utf8))
    try folder.write(
      "Draft.swift",
      """
      import SwiftData

      enum TripsV3Draft: VersionedSchema {
        static var versionIdentifier = Schema.Version(3, 0, 0)
        static var models: [any PersistentModel.Type] { [Trip.self] }
        @Model final class Trip {
          var legs: Set<String> = []
          init() {}
        }
      }
      """)
    let r = runMapc(["hash", folder.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stdout.contains("version name:         TripsV2"), "\(r.stdout)")
    #expect(
      r.stderr.contains(
        "Draft.swift:3:6: note: VersionedSchema TripsV3Draft is not in the schemas of the migration plan TripsPlan"),
      "\(r.stderr)")
    #expect(!r.stderr.contains("swift-model-outside-schema"), "\(r.stderr)")
    #expect(try Self.hashes([folder.path]) == (try Self.hashes([Self.trips])))
  }

  @Test func modelsInsideIfCanImportSwiftDataAreRead() throws {
    let folder = try TemporaryFolder()
    let text = try String(contentsOfFile: Self.trips, encoding: .utf8)
    try folder.write("Trips.swift", "#if canImport(SwiftData) && (os(iOS) || os(macOS))\n" + text + "\n#endif\n")
    #expect(try Self.hashes([folder.path + "/Trips.swift"]) == (try Self.hashes([Self.trips])))
    // Read as on Linux, the file holds no schema.
    let linux = runMapc(["hash", folder.path + "/Trips.swift", "--undefine", "canImport(SwiftData)"])
    #expect(linux.exitCode == 1)
    #expect(linux.stderr.contains("[swift-no-model]"), "\(linux.stderr)")
  }

  @Test func anExcludedFileChangesNothing() throws {
    let folder = try TemporaryFolder()
    try folder.write("Trips.swift", try String(contentsOfFile: Self.trips, encoding: .utf8))
    try FileManager.default.createDirectory(atPath: folder.path + "/Old", withIntermediateDirectories: true)
    // A stale copy of the schema: without the exclusion it declares every version twice.
    try folder.write("Old/TripsCopy.swift", try String(contentsOfFile: Self.trips, encoding: .utf8))
    #expect(runMapc(["hash", folder.path]).exitCode != 0)
    #expect(try Self.hashes([folder.path], ["--exclude", "Old"]) == (try Self.hashes([Self.trips])))
    #expect(try Self.hashes([folder.path], ["--exclude", "*Copy.swift"]) == (try Self.hashes([Self.trips])))
  }

  @Test func theSamePathTwiceIsRefused() throws {
    let r = runMapc(["hash", Self.trips, Self.trips])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("[swift-duplicate-file]"), "\(r.stderr)")
  }
}
