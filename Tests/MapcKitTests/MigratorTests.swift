import Foundation
import MapCompiler
import MapRuntime
import MapTestSupport
import MapcKit
import MapTools
import Testing

/// `Migrator` used from Swift, without the CLI, on the worked examples of `Mappings/`: results
/// compared with the stores `Mappings/expected.py` computes in Python, independently of mapc.
@Suite struct MigratorTests {
  static let mappings = SharedPaths.packageRoot.appendingPathComponent("Mappings").path

  /// A copy of `name` of `Mappings/tasks` in `folder`.
  static func copy(_ name: String, into folder: TemporaryFolder) throws -> String {
    let path = "\(folder.path)/\(name)"
    try FileManager.default.copyItem(atPath: "\(mappings)/tasks/\(name)", toPath: path)
    return path
  }

  static func tasksOptions(store: String) throws -> Migrator.Options {
    let bundle = "\(mappings)/tasks/Tasks.xcdatamodeld"
    var options = Migrator.Options(
      store: store, versions: try ModelVersions.load(bundle: bundle), modelName: bundle)
    options.mappings = "\(mappings)/tasks/mappings"
    return options
  }

  static func json(_ path: String) throws -> NSDictionary {
    let value = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    return try #require(value as? NSDictionary)
  }

  @Test func migratesAlongTheChainToWhatPythonComputes() throws {
    let folder = try TemporaryFolder()
    let store = try Self.copy("store-v1.json", into: folder)
    var options = try Self.tasksOptions(store: store)
    options.output = "\(folder.path)/v4.json"
    let migrator = Migrator()
    guard case .steps(let steps) = try migrator.prepare(options) else {
      Issue.record("expected steps to run")
      return
    }
    // Tasks → Tasks 2 → Tasks 3 inferred, Tasks 3 → Tasks 4 with mappings/TasksV3ToV4.xml.
    #expect(steps.chain.steps.count == 3)
    #expect((steps.from, steps.to) == ("Tasks", "Tasks 4"))
    #expect((0..<3).map(steps.mappingName) == ["inferred", "inferred", "TasksV3ToV4.xml"])
    let events = EventLog()
    let report = try migrator.migrate(steps, options, observer: events.record)
    #expect(report.steps.count == 3)
    #expect(report.resumedSteps == 0)
    #expect(report.writtenTo == options.output)
    // 5 tasks and 3 lists read by the first step (store-v1.json, counted by hand).
    #expect(report.steps[0].objectsRead == 8)
    #expect(events.finished == [0, 1, 2])
    #expect(try Self.json(options.output!) == Self.json("\(Self.mappings)/tasks/expected-from-v1.json"))
    // --output leaves the store as it was.
    #expect(try Self.json(store) == Self.json("\(Self.mappings)/tasks/store-v1.json"))
  }

  /// `Options.checkpoints`: the intermediate stores are kept in the work folder beside the
  /// store while the chain runs (seen after its first step), and not at all by default (fused);
  /// either way the result is the same bytes, the store Python computes.
  @Test func checkpointsKeepAWorkFolderForTheSameBytes() throws {
    var results: [Data] = []
    for checkpoints in [false, true] {
      let folder = try TemporaryFolder()
      let store = try Self.copy("store-v1.json", into: folder)
      var options = try Self.tasksOptions(store: store)
      options.output = "\(folder.path)/v4.json"
      options.checkpoints = checkpoints
      guard case .steps(let steps) = try Migrator().prepare(options) else {
        Issue.record("expected steps to run")
        return
      }
      let seen = EventLog()
      let work = "\(folder.path)/.store-v1.json.mapc-migrate"
      let report = try Migrator().migrate(steps, options) { event in
        if case .stepFinished(0, _) = event {
          seen.record(.note(FileManager.default.fileExists(atPath: work) ? "work folder" : "none"))
        }
      }
      #expect(report.steps.count == 3)
      #expect(seen.notes == [checkpoints ? "work folder" : "none"])
      #expect(folder.entries() == ["store-v1.json", "v4.json"])
      #expect(try Self.json(options.output!) == Self.json("\(Self.mappings)/tasks/expected-from-v1.json"))
      results.append(try Data(contentsOf: URL(fileURLWithPath: options.output!)))
    }
    #expect(results[0] == results[1])
  }

  @Test func previewCountsTheStoreAndRunsNothing() throws {
    let folder = try TemporaryFolder()
    let store = try Self.copy("store-v1.json", into: folder)
    let options = try Self.tasksOptions(store: store)
    guard case .steps(let steps) = try Migrator().prepare(options) else {
      Issue.record("expected steps to run")
      return
    }
    let preview = try Migrator().preview(steps, options)
    #expect(preview.tables.count == 3)
    #expect(preview.missingPolicyClasses == [[], [], []])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(preview.json.utf8)) as? [String: Any])
    #expect(json["from"] as? String == "Tasks")
    #expect(json["to"] as? String == "Tasks 4")
    let first = try #require((json["steps"] as? [[String: Any]])?.first)
    let entities = try #require(first["sourceEntities"] as? [[String: Any]])
    var objects: [String: Int] = [:]
    for e in entities { objects[e["name"] as? String ?? "?"] = e["objects"] as? Int }
    // store-v1.json: 5 Task and 3 TaskList objects (counted by hand).
    #expect(objects == ["Task": 5, "TaskList": 3])
    #expect(folder.entries() == ["store-v1.json"])
  }

  @Test func dryRunWritesNothing() throws {
    let folder = try TemporaryFolder()
    let store = try Self.copy("store-v2.json", into: folder)
    let options = try Self.tasksOptions(store: store)
    guard case .steps(let steps) = try Migrator().prepare(options) else {
      Issue.record("expected steps to run")
      return
    }
    let report = try Migrator().dryRun(steps, options)
    #expect(report.writtenTo == nil)
    #expect(report.steps.map(\.to) == ["Tasks 3", "Tasks 4"])
    #expect(folder.entries() == ["store-v2.json"])
    #expect(try Self.json(store) == Self.json("\(Self.mappings)/tasks/store-v2.json"))
  }

  @Test func aStoreAtTheTargetNeedsNothing() throws {
    let folder = try TemporaryFolder()
    var options = try Self.tasksOptions(store: try Self.copy("store-v3.json", into: folder))
    options.target = "Tasks 3"
    guard case .atTarget(let version) = try Migrator().prepare(options) else {
      Issue.record("expected the store to be at the target")
      return
    }
    #expect(version == "Tasks 3")
  }

  @Test func steppingBackThatLosesDataIsRefusedWithoutConsent() throws {
    let folder = try TemporaryFolder()
    let store = try Self.copy("store-v3.json", into: folder)
    var options = try Self.tasksOptions(store: store)
    options.target = "Tasks"
    let events = EventLog()
    guard case .steps(let steps) = try Migrator().prepare(options, observer: events.record) else {
      Issue.record("expected steps to run")
      return
    }
    #expect(events.notes.contains { $0.contains("stepping back") })
    #expect {
      try Migrator().migrate(steps, options)
    } throws: { error in
      guard let error = error as? MapcError else { return false }
      return error.ids == ["migrate-data-loss"] && error.status == .runFailed
        && error.description.contains("Task.tag: 2 values")
        && error.notes.last == "nothing was written; \(store) is unchanged"
    }
    #expect(try Self.json(store) == Self.json("\(Self.mappings)/tasks/store-v3.json"))
  }

  @Test func runsOneMappingOverAStore() throws {
    let folder = try TemporaryFolder()
    let compiled = MappingCompilation.compile(mappingPath: "\(Self.mappings)/notes/NotesV1ToV2.xcmappingmodel")
    let plan = try #require(compiled.plan)
    let output = "\(folder.path)/v2.json"
    let report = try Migrator().run(
      .init(
        plan: plan, planName: "NotesV1ToV2.xcmappingmodel", store: "\(Self.mappings)/notes/store-v1.json",
        output: .file(output)))
    // store-v1.json: 3 folders and 6 notes; expected-v2.json: 3 notebooks and 5 notes.
    #expect(report.step.objectsRead == 9)
    #expect(report.step.objectsMade == 8)
    #expect(report.step.summary.writtenTo == output)
    #expect(try Self.json(output) == Self.json("\(Self.mappings)/notes/expected-v2.json"))
  }
}

/// The events a migrator reported.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [MigrationEvent] = []

  var record: MigrationObserver { { [self] event in lock.withLock { events.append(event) } } }

  var finished: [Int] {
    lock.withLock {
      events.compactMap { if case .stepFinished(let k, _) = $0 { k } else { nil } }
    }
  }

  var notes: [String] {
    lock.withLock {
      events.compactMap { if case .note(let note) = $0 { note } else { nil } }
    }
  }
}
