import Foundation
import MapTestSupport
import Testing

/// `mapc run` on a store that is already at the plan's destination model (the notes example's
/// expected output, as JSON and as Core Data SQLite) says so, with one error, instead of
/// reporting every property the source model reads differently; nothing is written.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct AlreadyMigratedStoreTests {
  static let notes = SharedPaths.packageRoot.appendingPathComponent("Mappings/notes")

  @Test func aStoreAtTheDestinationVersionIsNamedAsSuch() throws {
    let folder = try FileManagerTemp.folder("already-migrated")
    defer { FileManagerTemp.remove(folder.path) }
    let json = Self.notes.appendingPathComponent("expected-v2.json").path
    let sqlite = folder.appendingPathComponent("v2.sqlite").path
    let imported = runMapc([
      "store", "import", json, "--model", Self.notes.appendingPathComponent("Notes.xcdatamodeld").path, "-o", sqlite,
    ])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    for store in [json, sqlite] {
      let output = folder.appendingPathComponent("out").path
      let r = runMapc([
        "run", Self.notes.appendingPathComponent("NotesV1ToV2.xml").path, "--store", store, "--output", output,
      ])
      #expect(r.exitCode == 2, "\(r.stderr)")
      let errors = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") || $0.hasPrefix("error: ") }
      #expect(errors.count == 1, "\(r.stderr)")
      #expect(r.stderr.contains("[run-store-already-migrated]") && r.stderr.contains("nothing to migrate"))
      #expect(!r.stderr.contains("read store"), "no phase runs: \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: output))
    }
    // The source store still runs.
    let v1 = runMapc([
      "run", Self.notes.appendingPathComponent("NotesV1ToV2.xml").path, "--store",
      Self.notes.appendingPathComponent("store-v1.json").path, "--dry-run",
    ])
    #expect(v1.exitCode == 0, "\(v1.stderr)")
  }
}
