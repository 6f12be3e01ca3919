import Foundation
import MapTestSupport
import Testing

/// `mapc migrate` on a bundle whose first version is named like the bundle and the later ones
/// `2`, `3`, …: a store at the first version migrates forwards; a declared order is used; an
/// ordering error says which order was assumed and how to declare another.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct VersionOrderMigrateTests {
  /// Version `k` (0-based) has attributes a0 … ak, each optional (every step adds one).
  static func contents(_ k: Int) -> String {
    let attributes = (0...k).map { "<attribute name=\"a\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
    return """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
      userDefinedModelVersionIdentifier="v\(k)">
          <entity name="E" representedClassName="E">\(attributes.joined())</entity>
      </model>
      """
  }

  /// Bundle `Model.xcdatamodeld` with `names[k]` holding `contents(k)`, and a JSON store at
  /// version `at`.
  static func setUp(_ names: [String], storeAt at: Int, in dir: URL) throws -> (bundle: String, store: String) {
    let metadata = try ModelBundles.storeMetadata(
      ModelBundles.bundle(contents(at), named: "Model", in: dir.appendingPathComponent("single")))
    let bundle = dir.appendingPathComponent("Model.xcdatamodeld")
    for (k, name) in names.enumerated() {
      let version = bundle.appendingPathComponent("\(name).xcdatamodel")
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try contents(k).write(to: version.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    var object: [String: Any] = ["id": "E/1"]
    for i in 0...at { object["a\(i)"] = "v\(i)" }
    let store = dir.appendingPathComponent("store.json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": ["E": [object]]]).write(to: store)
    return (bundle.path, store.path)
  }

  static func steps(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").filter { $0.contains(" → ") && $0.contains("step") }.map(String.init)
  }

  @Test func aStoreAtTheFirstVersionMigratesThroughEveryNumberedOne() throws {
    let dir = try FileManagerTemp.folder("order-migrate")
    defer { FileManagerTemp.remove(dir.path) }
    let names = ["Model"] + (2...13).map(String.init)
    let (bundle, store) = try Self.setUp(names, storeAt: 0, in: dir)
    let r = runMapc(["migrate", "--model", bundle, "--store", store])
    try #require(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("in 12 steps"), "\(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store)))
    let metadata = try #require((json as? [String: Any])?["metadata"] as? [String: Any])
    #expect(metadata["modelVersionIdentifiers"] as? [String] == ["v12"])
    let applied = (metadata["mapcMigrations"] as? [[String: Any]])?.map { "\($0["from"]!)→\($0["to"]!)" }
    #expect(applied == zip(names, names.dropFirst()).map { "\($0)→\($1)" })
  }

  @Test func backwardsSaysWhichOrderWasAssumedAndADeclaredOneIsUsed() throws {
    let dir = try FileManagerTemp.folder("order-declared")
    defer { FileManagerTemp.remove(dir.path) }
    // Names that do not tell: "Old" holds version 0, "New" version 1; by name New comes first.
    let (bundle, store) = try Self.setUp(["Old", "New"], storeAt: 0, in: dir)
    // By name the store's 'Old' comes after 'New': the run steps back, and says which order
    // it assumed (nothing is lost: the way back from 'Old' adds an optional attribute).
    let back = runMapc(
      [
        "migrate", "--model", bundle, "--store", store, "--to", "New", "--output",
        dir.appendingPathComponent("b.json").path,
      ])
    #expect(back.exitCode == 0, "\(back.stderr)")
    #expect(back.stderr.contains("after the target 'New': stepping back"))
    #expect(
      back.stderr.contains(
        "versions in the order of their names: 'New', 'Old' (names do not tell 'New' before 'Old': ordered by full name); to declare another, list the versions one a line in .mapc-version-order in the bundle (or give mapc migrate --version-order A,B,C)"
      ), "\(back.stderr)")
    let option = runMapc(["migrate", "--model", bundle, "--store", store, "--to", "New", "--version-order", "Old,New"])
    #expect(option.exitCode == 0, "\(option.stderr)")
    // The same through the file, back at the start.
    let (bundle2, store2) = try Self.setUp(["Old", "New"], storeAt: 0, in: dir.appendingPathComponent("again"))
    try "Old\nNew\n".write(toFile: bundle2 + "/.mapc-version-order", atomically: false, encoding: .utf8)
    let file = runMapc(["migrate", "--model", bundle2, "--store", store2, "--to", "New"])
    #expect(file.exitCode == 0, "\(file.stderr)")
    let bad = runMapc(["migrate", "--model", bundle, "--store", store, "--version-order", "Old"])
    #expect(bad.exitCode == 1)
    #expect(bad.stderr.contains("it leaves out 'New' [model-version-order]"), "\(bad.stderr)")
  }
}
