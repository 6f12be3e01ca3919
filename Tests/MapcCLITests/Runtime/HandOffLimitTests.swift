import Foundation
import MapCompiler
import MapRuntime
import MapSQLite
import MapTestSupport
import Testing

/// Under a memory limit, a step hands its result on in memory (`Specs/limits.md`, "Memory")
/// only when it has no more objects than the step read: the graph handed on is made beside
/// the destination and the next step takes it without weighing it against the limit. A result
/// with more objects is written instead; without a limit, or with as many objects, it is
/// handed on.
@Suite struct HandOffLimitTests {
  /// Each Pet also makes a Person: 1 + `pets` objects read, 1 + 2 × `pets` made.
  static let growing = """
    <mappingModel name="People" formatVersion="1">
      <sourceModel path="v1.xcdatamodel"/>
      <destinationModel path="v2.xcdatamodel"/>
      <entityMapping name="PetToPet" type="transform" source="Pet" destination="Pet"/>
      <entityMapping name="PetToPerson" type="transform" source="Pet" destination="Person">
        <attribute name="name">$source.name</attribute>
      </entityMapping>
      <entityMapping name="PersonToPerson" type="transform" source="Person" destination="Person">
        <attribute name="name">$source.name</attribute>
        <relationship name="pets">FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "pets", $source.pets)</relationship>
      </entityMapping>
    </mappingModel>
    """

  /// The SQLite store of one Person with `pets` Pets, in `dir` (made with `mapc store import`).
  static func store(in dir: URL, pets: Int) throws -> String {
    let version = try writeModelFolder(
      Hardening.sourceModel, named: "v1", in: dir.appendingPathComponent("b.xcdatamodeld"))
    let metadata = try JSONSerialization.data(withJSONObject: try ModelBundles.storeMetadata(version))
    let list = (0..<pets).map { "\"x\($0)\"" }.joined(separator: ",")
    let objects = (0..<pets).map { "{\"id\":\"x\($0)\",\"name\":\"Pet \($0)\"}" }.joined(separator: ",")
    let json =
      "{\"metadata\":\(String(decoding: metadata, as: UTF8.self)),\"objects\":{\"Person\":[{\"id\":\"p1\",\"name\":\"Ann\",\"pets\":[\(list)]}],\"Pet\":[\(objects)]}}"
    try json.write(to: dir.appendingPathComponent("in.json"), atomically: false, encoding: .utf8)
    let imported = runMapc(
      ["store", "import", "in.json", "--model", "b.xcdatamodeld", "-o", "s.sqlite", "--quiet"], in: dir)
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    return dir.appendingPathComponent("s.sqlite").path
  }

  /// Runs `mapping` over the store asking for a hand-off; whether it was handed on, and
  /// whether the output file was written.
  static func run(_ mapping: String, limit: Int?) throws -> (handed: Bool, written: Bool, made: Int) {
    let dir = try Hardening.folder("hand-off-limit", mapping: mapping)
    defer { FileManagerTemp.remove(dir.path) }
    let store = try Self.store(in: dir, pets: 40)
    let compiled = MappingCompilation.compile(mappingPath: dir.appendingPathComponent("m.xml").path)
    #expect(!compiled.diagnostics.hasErrors, "\(compiled.diagnostics)")
    let plan = try #require(compiled.plan)
    let out = dir.appendingPathComponent("out.sqlite").path
    var options = MigrationRun.Options(output: .file(out), storeFormat: SQLiteStoreFormat())
    options.memoryLimit = limit
    options.handOffLayout = StoreLayout(model: plan.destinationModel)
    let (summary, handed) = try MigrationRun.runHandingOff(plan: plan, storePath: store, options: options)
    return (handed != nil, FileManager.default.fileExists(atPath: out), summary.created.map(\.count).reduce(0, +))
  }

  @Test func moreObjectsThanReadAreWrittenUnderALimit() throws {
    let limited = try Self.run(Self.growing, limit: 1 << 30)
    #expect(limited.made == 81)
    #expect(!limited.handed && limited.written)
    let unlimited = try Self.run(Self.growing, limit: nil)
    #expect(unlimited.handed && !unlimited.written)
  }

  @Test func asManyObjectsAsReadAreHandedOnUnderALimit() throws {
    let limited = try Self.run(Hardening.mapping(), limit: 1 << 30)
    #expect(limited.made == 41)
    #expect(limited.handed && !limited.written)
  }
}
