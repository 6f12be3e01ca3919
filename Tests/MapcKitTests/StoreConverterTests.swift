import Foundation
import MapRuntime
import MapTestSupport
import MapcKit
import MapTools
import Testing

/// `StoreConverter` used from Swift, without the CLI: a JSON store of `Mappings/tasks` to SQLite
/// and back, checked against the store's own JSON as Foundation reads it.
@Suite struct StoreConverterTests {
  static let tasks = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks").path

  @Test func jsonToSQLiteAndBackKeepsEveryObject() throws {
    let folder = try TemporaryFolder()
    let versions = try ModelVersions.load(bundle: "\(Self.tasks)/Tasks.xcdatamodeld")
    let original = "\(Self.tasks)/store-v1.json"
    let sqlite = "\(folder.path)/Tasks.sqlite"
    let back = "\(folder.path)/back.json"
    let converter = StoreConverter()

    let toSQLite = try #require(StoreConverter.destination(named: nil, output: sqlite))
    #expect(toSQLite.name == "sqlite")
    let first = try converter.convert(
      .init(store: original, output: sqlite, versions: versions, modelName: "Tasks", destination: toSQLite))
    // store-v1.json holds 5 Task and 3 TaskList objects (counted by hand), at version 'Tasks'.
    #expect(first.objectCount == 8)
    #expect(first.version == "Tasks")
    #expect(first.notes.isEmpty)

    let toJSON = try #require(StoreConverter.destination(named: "json", output: back))
    let second = try converter.convert(
      .init(store: sqlite, output: back, versions: versions, modelName: "Tasks", destination: toJSON))
    #expect(second.objectCount == 8)

    let before = try Self.objects(original)
    let after = try Self.objects(back)
    #expect(Set(before.keys) == Set(after.keys))
    for entity in before.keys {
      #expect(Self.titles(before[entity]!) == Self.titles(after[entity]!), "\(entity)")
    }
  }

  @Test func aStoreOfNoVersionIsATypedError() throws {
    let folder = try TemporaryFolder()
    // Notes' model does not describe the tasks store.
    let versions = try ModelVersions.load(
      bundle: SharedPaths.packageRoot.appendingPathComponent("Mappings/notes/Notes.xcdatamodeld").path)
    let output = "\(folder.path)/out.sqlite"
    #expect {
      try StoreConverter().convert(
        .init(
          store: "\(Self.tasks)/store-v1.json", output: output, versions: versions, modelName: "Notes",
          destination: StoreConverter.destination(named: "sqlite", output: output)!))
    } throws: { error in
      guard let error = error as? MapcError else { return false }
      return error.ids == ["store-unknown-version"] && error.status == .runFailed
        && error.notes == ["nothing was written"]
    }
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  /// A real Core Data store of `../shared` (DuckDuckGo's bookmarks, model version 1), exported
  /// with the model it carries: its 10 rows (counted with python3's sqlite3 module) become 10
  /// objects of the JSON store.
  @Test(.enabled(if: SharedPaths.stores != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func aRealSQLiteStoreExportsWithItsOwnModel() throws {
    let store = try #require(SharedPaths.stores).appendingPathComponent(
      "duckduckgo+BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V1.sqlite"
    ).path
    let folder = try TemporaryFolder()
    let output = "\(folder.path)/bookmarks.json"
    let (versions, notes) = try StoreModelCache.versions(store: store, command: "export")
    #expect(notes.first?.hasPrefix("export: no --model given; using the model the store carries") == true)
    let report = try StoreConverter().convert(
      .init(
        store: store, output: output, versions: versions, modelName: "the store's own model",
        destination: StoreConverter.destination(named: "json", output: output)!))
    #expect(report.objectCount == 10)
    #expect(try Self.objects(output).values.reduce(0) { $0 + $1.count } == 10)
  }

  /// The store's objects per entity, as Foundation's JSON reader sees them.
  static func objects(_ path: String) throws -> [String: [[String: Any]]] {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    let store = try #require(json as? [String: Any])
    return try #require(store["objects"] as? [String: [[String: Any]]])
  }

  /// What names an object to a person (its title, else its name), sorted: ids may be renumbered.
  static func titles(_ objects: [[String: Any]]) -> [String] {
    objects.map { ($0["title"] as? String) ?? ($0["name"] as? String) ?? "?" }.sorted()
  }
}
