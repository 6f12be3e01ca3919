import Foundation
import MapTestSupport
import Testing

/// Inputs that took quadratic or worse time (issue 17), at sizes where the old code took tens
/// of seconds and the new takes well under one: each must finish within a generous bound.
@Suite struct ScalingTests {
  static func timed(_ arguments: [String], in dir: URL) -> (MapcResult, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let r = runMapc(arguments, in: dir)
    return (r, clock.now - start)
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
    try bad.write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
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
