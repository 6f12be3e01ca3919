import Foundation
import MapRuntime
import MapTestSupport
import MapcKit
import MapTools
import Testing

/// An app's own store format, added with one `StoreFormatRegistry.register` line: a JSON store
/// of `Mappings/tasks` converted to it and back with `StoreConverter`, the objects read by
/// Foundation's JSON reader from the original, from inside the envelope and from the store
/// written back.
@Suite(.serialized) struct StoreFormatRegistryTests {
  static let tasks = SharedPaths.packageRoot.appendingPathComponent("Mappings/tasks").path

  @Test func aRegisteredFormatConvertsToAndFromJSON() throws {
    try StoreFormatRegistry.register(EnvelopeStoreFormat())
    defer { StoreFormatRegistry.unregister("envelope") }
    // Detection tries it after SQLite and before JSON, the format of last resort (other suites
    // may register formats of their own meanwhile).
    #expect(Self.order() == ["sqlite", "envelope", "json"])

    let folder = try TemporaryFolder()
    let versions = try ModelVersions.load(bundle: "\(Self.tasks)/Tasks.xcdatamodeld")
    let original = "\(Self.tasks)/store-v1.json"
    let envelope = "\(folder.path)/Tasks.envelope"
    let back = "\(folder.path)/back.json"

    // The output's extension names the registered format.
    let toEnvelope = try #require(StoreConverter.destination(named: nil, output: envelope))
    #expect(toEnvelope.name == "envelope")
    let first = try StoreConverter().convert(
      .init(store: original, output: envelope, versions: versions, modelName: "Tasks", destination: toEnvelope))
    // store-v1.json holds 5 Task and 3 TaskList objects (counted by hand).
    #expect(first.objectCount == 8)
    #expect(first.notes.isEmpty)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: envelope)))
    #expect(bytes.starts(with: EnvelopeStoreFormat.header))
    let inside = try Self.objects(Data(bytes.dropFirst(EnvelopeStoreFormat.header.count)))
    #expect(StoreFormatChoice.detect(envelope).name == "envelope")

    let toJSON = try #require(StoreConverter.destination(named: "json", output: back))
    let second = try StoreConverter().convert(
      .init(store: envelope, output: back, versions: versions, modelName: "Tasks", destination: toJSON))
    #expect(second.objectCount == 8)

    let before = try Self.objects(Data(contentsOf: URL(fileURLWithPath: original)))
    let after = try Self.objects(Data(contentsOf: URL(fileURLWithPath: back)))
    #expect(before.values.reduce(0) { $0 + $1.count } == 8)
    for store in [inside, after] {
      #expect(Set(before.keys) == Set(store.keys))
      for entity in before.keys {
        #expect(Self.titles(before[entity]!) == Self.titles(store[entity] ?? []), "\(entity)")
      }
    }
  }

  @Test(arguments: ["json", "SQLite", "envelope", ""])
  func aNameTakenIsRefused(name: String) throws {
    try StoreFormatRegistry.register(EnvelopeStoreFormat())
    defer { StoreFormatRegistry.unregister("envelope") }
    #expect {
      try StoreFormatRegistry.register(EnvelopeStoreFormat(name: name))
    } throws: { error in
      guard let error = error as? MapcError else { return false }
      return error.ids == ["store-format-name-taken"] && error.status == .usage
    }
    #expect(Self.order() == ["sqlite", "envelope", "json"])
  }

  /// The names of the formats, of those this suite knows.
  static func order() -> [String] {
    StoreFormatChoice.formats.map(\.name).filter { ["sqlite", "envelope", "json"].contains($0) }
  }

  /// The store's objects per entity, as Foundation's JSON reader sees them.
  static func objects(_ data: Data) throws -> [String: [[String: Any]]] {
    let store = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(store["objects"] as? [String: [[String: Any]]])
  }

  /// What names an object to a person (its title, else its name), sorted: ids may be renumbered.
  static func titles(_ objects: [[String: Any]]) -> [String] {
    objects.map { ($0["title"] as? String) ?? ($0["name"] as? String) ?? "?" }.sorted()
  }
}
