import Foundation
import MapTestSupport
import Testing

/// wibosco's real version 2 store migrated to version 3 with `Examples/WiboscoPosts`: the text
/// mapping `Post2ToPost3.xml` (Post → Post, and Post → Section for the new entity) run by the
/// example's executable, which registers the policy that gives section titles. The result has
/// exactly the real version 3 store's tables, columns, declared types, indexes, `Z_PRIMARYKEY`
/// entities and hashes, and the rows the app's Post2ToPost3MigrationPolicy makes from the v2 rows
/// (computed by python3 from the v2 store, `wibosco_2to3_rows.py`); the real store stays untouched.
@Suite(
  .enabled(
    if: mapcExecutableProblem == nil && builtExecutable(named: "WiboscoPosts") != nil,
    "needs the built mapc and WiboscoPosts (swift build)"),
  .enabled(if: SharedPaths.stores != nil, Comment(rawValue: SharedPaths.absentMessage)))
struct WiboscoPostsMigrationTests {
  static let mapping = SharedPaths.packageRoot.appendingPathComponent("Examples/WiboscoPosts/Mapping/Post2ToPost3.xml")
    .path

  struct Rows: Decodable {
    var posts: Int
    var sections: Int
    var problems: [String]
  }

  func wibosco(_ arguments: [String]) -> MapcResult { runBuiltExecutable("WiboscoPosts", arguments) }

  @Test func realVersion2StoreMigratesToVersion3() throws {
    let v2 = try #require(SQLiteRunTests.store("CoreDataMigration_Example_2.sqlite"))
    let v3 = try #require(SQLiteRunTests.store("CoreDataMigration_Example_3.sqlite"))
    let dir = try FileManagerTemp.folder("wibosco-2to3")
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = v2.files()
    let copy = dir.appendingPathComponent("store.sqlite").path
    try FileManager.default.copyItem(atPath: v2.store.path, toPath: copy)
    let copied = FileManager.default.contents(atPath: copy)

    // Compiled against the project's own version 2 and 3 models.
    let plan = dir.appendingPathComponent("p.cdm").path
    let compile = wibosco([
      "compile", Self.mapping, "--source", v2.bundle.path, "--source-version", v2.version, "--destination",
      v3.bundle.path, "--destination-version", v3.version, "-o", plan,
    ])
    try #require(compile.exitCode == 0, "\(compile.stderr)")
    #expect(compile.stderr.contains("2 entity mappings, 0 warnings"), "\(compile.stderr)")

    // Plain mapc has no such policy: refused, nothing written.
    let refused = dir.appendingPathComponent("refused.sqlite").path
    let plain = runMapc(["run", plan, "--store", copy, "--output", refused])
    #expect(plain.exitCode == 2, "\(plain.stderr)")
    #expect(plain.stderr.contains("WiboscoPosts.SectionTitlePolicy"), "\(plain.stderr)")
    #expect(plain.stderr.contains("[run-unknown-policy]"), "\(plain.stderr)")
    #expect(!FileManager.default.fileExists(atPath: refused))

    let out = dir.appendingPathComponent("v3.sqlite").path
    let run = wibosco(["run", plan, "--store", copy, "--output", out, "--progress", "none"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stderr.contains("migrated 10 objects"), "\(run.stderr)")
    #expect(run.stderr.contains("created Post 10, Section 10"), "\(run.stderr)")
    #expect(FileManager.default.contents(atPath: copy) == copied)
    #expect(v2.files() == before)

    // Layout and hashes: the real version 3 store's; 10 posts and 10 sections.
    try SQLiteRunTests().expectLayout(out, like: v3, rows: 20)

    // Rows: what the app's policy makes from the version 2 rows (and what the real v3 store holds).
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/wibosco_2to3_rows.py")
    let check = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, v2.store.path, out, v3.store.path])
    try #require(check.exitCode == 0, "\(check.stderr)")
    let rows = try JSONDecoder().decode(Rows.self, from: Data(check.stdout.utf8))
    #expect(rows.posts == 10)
    #expect(rows.sections == 10)
    #expect(rows.problems.isEmpty, "\(rows.problems.joined(separator: "\n"))")
    #expect(v2.files() == before)
  }

  /// The mapping file as committed finds the models through its own relative paths (`../shared`
  /// beside the package), so it also runs directly.
  @Test(.enabled(if: SharedPaths.corpus != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func mappingFileRunsDirectly() throws {
    let v2 = try #require(SQLiteRunTests.store("CoreDataMigration_Example_2.sqlite"))
    let before = v2.files()
    let run = wibosco(["run", Self.mapping, "--store", v2.store.path, "--dry-run", "--progress", "none"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stderr.contains("created Post 10, Section 10; dry run, nothing written"), "\(run.stderr)")
    #expect(v2.files() == before)
  }
}
