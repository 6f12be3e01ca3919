import Foundation
import MapTestSupport
import Testing

/// `mapc migrate` on the `Mappings/tasks` chain (Tasks → Tasks 2 → Tasks 3 inferred, Tasks 3 →
/// Tasks 4 explicit): from each of the first three versions to the expected stores that
/// `Mappings/expected.py` computes by hand.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct MigrateChainTests {
  static let folder = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks")
  static let bundle = folder.appendingPathComponent("Tasks.xcdatamodeld").path
  static let mappings = folder.appendingPathComponent("mappings").path

  /// A copy of a fixture store in a new folder; the caller removes the folder.
  static func copy(_ name: String, as target: String = "store.json") throws -> (URL, String) {
    let work = try FileManagerTemp.folder("migrate")
    let store = work.appendingPathComponent(target).path
    try FileManager.default.copyItem(atPath: folder.appendingPathComponent(name).path, toPath: store)
    return (work, store)
  }

  static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  @Test(arguments: [1, 2, 3]) func migratesFromEveryVersionToTheExpectedStore(version: Int) throws {
    let (work, store) = try Self.copy("store-v\(version).json")
    defer { FileManagerTemp.remove(work.path) }
    let r = runMapc(["migrate", "--model", Self.bundle, "--store", store, "--mappings", Self.mappings])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(
      try Self.bytes(store) == Self.bytes(Self.folder.appendingPathComponent("expected-from-v\(version).json").path))
    #expect(r.stderr.contains("in \(4 - version) step"))
    // Nothing is left beside the store.
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["store.json"])
  }

  @Test func withoutTheMappingTheLastStepIsInferredAndDiffers() throws {
    let (work, store) = try Self.copy("store-v3.json")
    defer { FileManagerTemp.remove(work.path) }
    // The inferred step drops Task.priority (2 values): accepted here.
    let r = runMapc(["migrate", "--model", Self.bundle, "--store", store, "--allow-data-loss"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let text = String(decoding: try Self.bytes(store), as: UTF8.self)
    #expect(text.contains("\"mapping\": \"inferred\""))
    #expect(!text.contains("\"high\""))  // the inferred step keeps priorityLabel's default
  }

  @Test func aStoreAtTheTargetIsLeftAloneWithAMessage() throws {
    let (work, store) = try Self.copy("expected-from-v1.json")
    defer { FileManagerTemp.remove(work.path) }
    let before = try Self.bytes(store)
    let r = runMapc(["migrate", "--model", Self.bundle, "--store", store, "--mappings", Self.mappings])
    #expect(r.exitCode == 0)
    #expect(r.stderr.contains("is already at version 'Tasks 4', the target; nothing to do"))
    #expect(try Self.bytes(store) == before)
    // --to an earlier version steps back: Tasks 3 → 4 is the mapping's, so it has no
    // automatic reverse (refused by name, exit 1); without the mappings it is inferred, and
    // its reverse would drop what Tasks 4 added (refused without consent, exit 2).
    let explicit = runMapc(
      ["migrate", "--model", Self.bundle, "--store", store, "--to", "Tasks 2", "--mappings", Self.mappings])
    #expect(explicit.exitCode == 1)
    #expect(explicit.stderr.contains("is covered by the mapping \(Self.mappings)/TasksV3ToV4.xml, not inferred"))
    #expect(explicit.stderr.contains("[chain-step-irreversible]"))
    let back = runMapc(["migrate", "--model", Self.bundle, "--store", store, "--to", "Tasks 2"])
    #expect(back.exitCode == 2)
    #expect(
      back.stderr.contains(
        "step 1 'Tasks 4' → 'Tasks 3' (inferred, reverse) would drop data the store holds: Task.priorityLabel: 5 values; Project.taskCount: 3 values [migrate-data-loss]"
      ), "\(back.stderr)")
    #expect(try Self.bytes(store) == before)
  }

  @Test func unknownHashesNameTheClosestVersionAndTheDifferingEntities() throws {
    let (work, store) = try Self.copy("store-v2.json")
    defer { FileManagerTemp.remove(work.path) }
    var text = String(decoding: try Self.bytes(store), as: UTF8.self)
    let hash = try #require(text.range(of: #""TaskList": ""#))
    text.replaceSubrange(hash.upperBound..<text.index(hash.upperBound, offsetBy: 4), with: "AAAA")
    try Data(text.utf8).write(to: URL(fileURLWithPath: store))
    let r = runMapc(["migrate", "--model", Self.bundle, "--store", store])
    #expect(r.exitCode == 2)
    #expect(
      r.stderr.contains(
        "match no version of \(Self.bundle); the closest is 'Tasks 2', which differs in TaskList [migrate-unknown-version]"
      ), "\(r.stderr)")
    #expect(r.stderr.contains("is unchanged"))
    #expect(String(decoding: try Self.bytes(store), as: UTF8.self) == text)
  }

  @Test func planListsTheStepsAndRunsNothing() throws {
    let (work, store) = try Self.copy("store-v1.json")
    defer { FileManagerTemp.remove(work.path) }
    let before = try Self.bytes(store)
    let r = runMapc(["migrate", "--model", Self.bundle, "--store", store, "--mappings", Self.mappings, "--plan"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stdout.contains("1. 'Tasks' → 'Tasks 2' (inferred)"))
    #expect(r.stdout.contains("2. 'Tasks 2' → 'Tasks 3' (inferred)"))
    #expect(r.stdout.contains("3. 'Tasks 3' → 'Tasks 4' (mapping \(Self.mappings)/TasksV3ToV4.xml)"))
    #expect(try Self.bytes(store) == before)
  }

  @Test func backupKeepsTheOriginalAndToStopsEarly() throws {
    let (work, store) = try Self.copy("store-v1.json")
    defer { FileManagerTemp.remove(work.path) }
    let before = try Self.bytes(store)
    let backup = work.appendingPathComponent("old.json").path
    let r = runMapc([
      "migrate", "--model", Self.bundle, "--store", store, "--to", "Tasks 3", "--backup", backup, "--quiet",
    ])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    #expect(try Self.bytes(backup) == before)
    let text = String(decoding: try Self.bytes(store), as: UTF8.self)
    #expect(text.contains("\"tasks-3\"") && text.contains("\"to\": \"Tasks 3\""))
  }

  @Test func twoMappingsForOneStepAreAnError() throws {
    let work = try FileManagerTemp.folder("migrate-dup")
    defer { FileManagerTemp.remove(work.path) }
    let original = try String(contentsOfFile: "\(Self.mappings)/TasksV3ToV4.xml", encoding: .utf8)
      .replacingOccurrences(of: "../Tasks.xcdatamodeld", with: Self.bundle)
    for name in ["A.xml", "B.xml"] {
      try original.replacingOccurrences(of: "name=\"TasksV3ToV4\"", with: "name=\"\(name)\"")
        .write(toFile: work.appendingPathComponent(name).path, atomically: false, encoding: .utf8)
    }
    let store = work.appendingPathComponent("store.json").path
    try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("store-v3.json").path, toPath: store)
    let r = runMapc(["migrate", "--model", Self.bundle, "--store", store, "--mappings", work.path])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("2 mappings cover the step Tasks 3 → Tasks 4"), "\(r.stderr)")
  }

  @Test func inferWritesAMappingThatCompilesAndNamesTheRenames() throws {
    let work = try FileManagerTemp.folder("infer")
    defer { FileManagerTemp.remove(work.path) }
    let out = work.appendingPathComponent("m.xml").path
    let r = runMapc([
      "infer", Self.bundle, Self.bundle, "--source-version", "Tasks 2", "--destination-version", "Tasks 3", "-o", out,
    ])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains("<attribute name=\"body\">$source.details</attribute>"))
    #expect(text.contains("renamed TaskList → Project, Task.details → Task.body, Task.list → Task.project"))
    let compiled = runMapc(["compile", out, "-o", work.appendingPathComponent("m.cdm").path])
    #expect(compiled.exitCode == 0, "\(compiled.stderr)")
    // Tasks 3 → Tasks 4 is inferable (with defaults), Tasks → Tasks 3 directly loses `note`:
    // `body`'s renaming identifier is `details`, which Tasks does not have.
    let direct = runMapc([
      "infer", Self.bundle, Self.bundle, "--source-version", "Tasks", "--destination-version", "Tasks 3", "-o", out,
    ])
    #expect(direct.exitCode == 0)
    #expect(!(try String(contentsOfFile: out, encoding: .utf8)).contains("body"))
  }
}
