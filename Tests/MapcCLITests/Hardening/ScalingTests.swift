import Foundation
import MapTestSupport
import Testing

/// Inputs that took quadratic or worse time (issue 17), at sizes where the old code took tens
/// of seconds and the new takes well under one: each must finish within a generous bound of
/// CPU time.
@Suite struct ScalingTests {
  /// The run's result and its CPU time (user + system, `measuredRunMapc`): the bounds below are
  /// on CPU time, so a machine loaded by other builds does not fail them but a slower algorithm
  /// does.
  static func timed(_ arguments: [String], in dir: URL) -> (MapcResult, Duration) {
    let run = measuredRunMapc(arguments, in: dir)
    return (run.result, run.cpu)
  }

  static func model(_ dir: URL, _ name: String, _ body: String) throws {
    try writeModelFolder(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n\(body)</model>\n",
      named: name, in: dir)
  }

  /// A 1,500-entity inheritance cycle (was about 50 s in a debug build) and a 20,000-attribute
  /// element (was about 10 s).
  @Test func deepInheritanceAndManyAttributes() throws {
    let dir = try FileManagerTemp.folder("scaling-model")
    defer { FileManagerTemp.remove(dir.path) }
    let n = 1500
    try Self.model(
      dir, "cycle", (0..<n).map { "<entity name=\"E\($0)\" parentEntity=\"E\(($0 + n - 1) % n)\"/>\n" }.joined())
    try Self.model(
      dir, "attrs", "<entity name=\"E\" " + (0..<20_000).map { "a\($0)=\"x\"" }.joined(separator: " ") + "/>\n")
    let (cycle, t1) = Self.timed(["hash", "cycle.xcdatamodel"], in: dir)
    #expect(cycle.exitCode == 1 && cycle.stderr.contains("[model-inheritance-cycle]"), "\(cycle.stderr.prefix(300))")
    #expect(t1 < .seconds(8), "\(t1)")
    let (_, t2) = Self.timed(["hash", "attrs.xcdatamodel"], in: dir)
    #expect(t2 < .seconds(4), "\(t2)")
  }

  /// A to-many of 20,000 members through destinationInstancesForSourceRelationshipNamed: (was
  /// about 30 s), and 20,000 store errors collected with --max-errors 0 (was about 35 s).
  @Test func largeToManyAndManyErrors() throws {
    let n = 20_000
    let pets = (0..<n).map { "\"x\($0)\"" }.joined(separator: ",")
    let objects = (0..<n).map { "{\"id\":\"x\($0)\",\"name\":\"P\($0)\"}" }.joined(separator: ",")
    let store = "{\"objects\":{\"Person\":[{\"id\":\"p1\",\"pets\":[\(pets)]}],\"Pet\":[\(objects)]}}"
    let dir = try Hardening.folder("scaling-run", store: store)
    defer { FileManagerTemp.remove(dir.path) }
    let (run, t1) = Self.timed(["run", "m.xml", "--store", "s.json", "--output", "out.json", "--quiet"], in: dir)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(t1 < .seconds(10), "\(t1)")
    let bad =
      "{\"objects\":{\"Pet\":[" + (0..<n).map { "{\"id\":\"x\($0)\",\"name\":\($0)}" }.joined(separator: ",") + "]}}"
    try bad.write(to: dir.appendingPathComponent("bad.json"), atomically: false, encoding: .utf8)
    let (errors, t2) = Self.timed(
      ["run", "m.xml", "--store", "bad.json", "--dry-run", "--max-errors", "0", "--quiet"], in: dir)
    #expect(errors.exitCode == 2)
    #expect(errors.stderr.components(separatedBy: "[store-wrong-type]").count == n + 1)
    #expect(t2 < .seconds(10), "\(t2)")
  }

  /// replace:with:in: nested four times would build 10 GB from 1 KB of text.
  @Test func expressionThatWouldBuildAHugeValue() throws {
    let a = String(repeating: "a", count: 100)
    var e = "\"\(a)\""
    for _ in 0..<4 { e = "FUNCTION($entityPolicy, \"replace:with:in:\", \"a\", \"\(a)\", \(e))" }
    let (r, t) = Self.timed(["eval", "--expression", e], in: FileManager.default.temporaryDirectory)
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("[run-value-too-large]"), "\(r.stderr)")
    #expect(t < .seconds(10))
  }
}

/// Models large in one direction (issue 27): inference, lint and hashing are near-linear in a
/// model's size, and what cannot be (libxml2 with one element's attributes, hierarchies that
/// every check walks) is refused early at a documented limit (Specs/limits.md).
@Suite struct ModelScalingTests {
  static let head =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    + "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n"

  /// A bundle `G.xcdatamodeld` of versions V1 and V2 (current), V2 with one more entity.
  static func bundle(_ dir: URL, _ v1: String) throws {
    let extra = "<entity name=\"Extra\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>\n"
    _ = try ModelBundles.bundle(
      versions: [("V1", head + v1 + "</model>\n"), ("V2", head + v1 + extra + "</model>\n")], named: "G", in: dir,
      current: "V2")
  }

  static func attribute(_ i: Int) -> String { "<attribute name=\"a\(i)\" optional=\"YES\" attributeType=\"String\"/>" }

  /// 20,000 attributes in one entity (infer and lint took 37 s in a release build, quadratic in
  /// the attributes) and 10,000 entities (44 s): a few seconds in a debug build.
  @Test(arguments: ["attributes", "entities"])
  func largeModels(_ label: String) throws {
    let body =
      label == "attributes"
      ? "<entity name=\"E\">" + (0..<20_000).map(Self.attribute).joined() + "</entity>\n"
      : (0..<10_000).map { "<entity name=\"E\($0)\">\(Self.attribute(0))</entity>\n" }.joined()
    let dir = try FileManagerTemp.folder("scaling-\(label)")
    defer { FileManagerTemp.remove(dir.path) }
    try Self.bundle(dir, body)
    let versions = "G.xcdatamodeld/"
    let (infer, t1) = ScalingTests.timed(
      ["infer", versions + "V1.xcdatamodel", versions + "V2.xcdatamodel", "-o", "m.xml"], in: dir)
    #expect(infer.exitCode == 0, "\(infer.stderr.prefix(500))")
    #expect(t1 < .seconds(12), "infer: \(t1)")
    let (lint, t2) = ScalingTests.timed(["lint", "G.xcdatamodeld"], in: dir)
    #expect(lint.exitCode == 0, "\(lint.stderr.prefix(500))")
    #expect(t2 < .seconds(12), "lint: \(t2)")
    // migrate a one-object JSON store from V1 (its hashes from `mapc hash`) to V2: model reading,
    // hashing, inference and the run (about 3 s of CPU at 20,000 attributes in a debug build,
    // linear from 5,000; the quadratic code took 37 s in a release build).
    let hashes = runMapc(["hash", "G.xcdatamodeld", "--model-version", "V1", "--format", "json"], in: dir)
    #expect(hashes.exitCode == 0, "\(hashes.stderr.prefix(500))")
    let json = try JSONSerialization.jsonObject(with: Data(hashes.stdout.utf8)) as? [String: Any]
    let entity = label == "attributes" ? "E" : "E5"
    let store: [String: Any] = [
      "metadata": ["entityVersionHashes": json?["entityVersionHashes"] ?? [:]],
      "objects": [entity: [["id": "x1", "a0": "kept"]]],
    ]
    try JSONSerialization.data(withJSONObject: store).write(to: dir.appendingPathComponent("s.json"))
    let (migrate, t3) = ScalingTests.timed(
      ["migrate", "--store", "s.json", "--model", "G.xcdatamodeld", "--quiet"], in: dir)
    #expect(migrate.exitCode == 0, "\(migrate.stderr.prefix(500))")
    #expect(t3 < .seconds(15), "migrate: \(t3)")
    let migrated = try String(contentsOf: dir.appendingPathComponent("s.json"), encoding: .utf8)
    #expect(migrated.contains("\"kept\""))
  }

  /// An element with 100,000 attributes (15.5 s in libxml2) is refused before libxml2 reads it;
  /// 256 are read.
  @Test func elementWithManyAttributes() throws {
    let dir = try FileManagerTemp.folder("scaling-element")
    defer { FileManagerTemp.remove(dir.path) }
    func element(_ n: Int) -> String {
      "<entity name=\"E\" " + (0..<n).map { "a\($0)=\"x\"" }.joined(separator: " ") + "/>\n"
    }
    try writeModelFolder(Self.head + element(100_000) + "</model>\n", named: "wide", in: dir)
    try writeModelFolder(Self.head + element(255) + "</model>\n", named: "ok", in: dir)
    let (wide, t) = ScalingTests.timed(["hash", "wide.xcdatamodel"], in: dir)
    #expect(wide.exitCode == 1)
    #expect(wide.stderr.contains("more than 256 attributes") && wide.stderr.contains("[xml-too-many-attributes]"))
    #expect(wide.stderr.contains("contents:3:1:"), "\(wide.stderr)")
    #expect(t < .seconds(4), "\(t)")
    let ok = runMapc(["hash", "ok.xcdatamodel"], in: dir)
    #expect(!ok.stderr.contains("xml-too-many-attributes"), "\(ok.stderr)")
  }

  /// An inheritance chain of 4,000 entities (`hash` took 16 s) is refused at once; one of 257
  /// entities (256 levels of ancestors) is hashed.
  @Test func deepInheritanceChain() throws {
    let dir = try FileManagerTemp.folder("scaling-chain")
    defer { FileManagerTemp.remove(dir.path) }
    func chain(_ n: Int) -> String {
      Self.head
        + (0..<n).map { i in
          "<entity name=\"E\(i)\"\(i == 0 ? "" : " parentEntity=\"E\(i - 1)\"")>\(Self.attribute(i))</entity>\n"
        }.joined() + "</model>\n"
    }
    try writeModelFolder(chain(4000), named: "deep", in: dir)
    try writeModelFolder(chain(257), named: "limit", in: dir)
    let (deep, t1) = ScalingTests.timed(["hash", "deep.xcdatamodel"], in: dir)
    #expect(deep.exitCode == 1)
    #expect(
      deep.stderr.contains("entity 'E257' has more than 256 levels of ancestors")
        && deep.stderr.contains("[model-inheritance-too-deep]"), "\(deep.stderr.prefix(500))")
    #expect(t1 < .seconds(4), "\(t1)")
    let (limit, t2) = ScalingTests.timed(["hash", "limit.xcdatamodel"], in: dir)
    #expect(limit.exitCode == 0, "\(limit.stderr.prefix(500))")
    #expect(limit.stdout.contains("E256"))
    #expect(t2 < .seconds(8), "\(t2)")
  }
}
