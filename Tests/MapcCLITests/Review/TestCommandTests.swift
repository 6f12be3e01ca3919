import Foundation
import MapTestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `mapc test` (Specs/test-fixtures.md). The oracles: the expected stores of `Mappings/` (made by
/// `Mappings/expected.py`, not by mapc) and of ../shared/fixtures; edits made here by hand to a
/// copy of one (so the test knows which entity, object and property must be named); the JUnit
/// schema of Apache Ant (Tests/TestData/junit/JUnit.xsd) through xmllint.
@Suite struct TestCommandTests {
  static let root = SharedPaths.packageRoot

  /// A copy of `Mappings/NAME` in a temporary folder; the caller removes `work`.
  static func copyExample(_ name: String) throws -> (work: URL, folder: URL) {
    let work = try FileManagerTemp.folder("mapc-test-\(name)")
    let folder = work.appendingPathComponent(name)
    try FileManager.default.copyItem(at: root.appendingPathComponent("Mappings/\(name)"), to: folder)
    return (work, folder)
  }

  /// Rewrites a JSON file with `edit` applied to its top-level object.
  static func editJSON(_ url: URL, _ edit: (inout [String: Any]) -> Void) throws {
    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    edit(&json)
    try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted]).write(to: url)
  }

  /// Changes `objects[entity][index][key]` with `change`.
  static func editObject(
    _ url: URL, _ entity: String, _ index: Int, _ key: String, _ change: @escaping (Any?) -> Any
  ) throws {
    try editJSON(url) { json in
      var objects = json["objects"] as! [String: Any]
      var list = objects[entity] as! [[String: Any]]
      list[index][key] = change(list[index][key])
      objects[entity] = list
      json["objects"] = objects
    }
  }

  @Test func theWorkedExamplesAndSharedFixturesPass() throws {
    var paths = ["Mappings"]
    if let fixtures = SharedPaths.fixtures { paths.insert(fixtures.path, at: 0) }
    let r = runMapc(["test"] + paths, in: Self.root)
    #expect(r.exitCode == 0, "\(r.stdout)\n\(r.stderr)")
    // One line per case: every example case of Mappings is there and passed.
    for name in ["bookshelf: store-v1.json", "shop: store-v1-missing-email.json", "notes: store-v1.json"] {
      #expect(r.stdout.contains("PASS Mappings/" + name), "\(name) not passed: \(r.stdout)")
    }
    if SharedPaths.fixtures != nil {
      #expect(r.stdout.contains("diary: store-v1-missing-date.json"))
      #expect(r.stdout.contains("songbook: store-legacy.json"))
    }
    #expect(r.stdout.contains(" 0 failed"))
  }

  @Test func aChangedExpectedValueFailsNamingCaseObjectAndProperty() throws {
    let (work, folder) = try Self.copyExample("shop")
    defer { FileManagerTemp.remove(work.path) }
    let expected = folder.appendingPathComponent("expected-v2.json")
    let original = try #require(
      ((try JSONSerialization.jsonObject(with: Data(contentsOf: expected)) as? [String: Any])?["objects"]
        as? [String: Any])?["Customer"] as? [[String: Any]])
    let id = try #require(original[0]["id"] as? String)
    let email = try #require(original[0]["email"] as? String)
    try Self.editObject(expected, "Customer", 0, "email") { _ in "someone.else@example.com" }
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 1, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stdout.contains("FAIL shop: store-v1.json"), "\(r.stdout)")
    #expect(r.stdout.contains("\(id).email: expected \"someone.else@example.com\", got \"\(email)\""), "\(r.stdout)")
    // The failing case of the same fixture still passes.
    #expect(r.stdout.contains("PASS shop: store-v1-missing-email.json"), "\(r.stdout)")
    #expect(r.stdout.contains("1 failed"))
  }

  @Test func unorderedRelationshipsCompareAsSets() throws {
    // Shop 2: Customer.orders is a to-many relationship without ordered="YES".
    let (work, folder) = try Self.copyExample("shop")
    defer { FileManagerTemp.remove(work.path) }
    let model = try String(
      contentsOf: folder.appendingPathComponent("Shop.xcdatamodeld/Shop 2.xcdatamodel/contents"), encoding: .utf8)
    let line = try #require(model.split(separator: "\n").first { $0.contains("name=\"orders\"") })
    #expect(line.contains("toMany=\"YES\"") && !line.contains("ordered=\"YES\""))
    let expected = folder.appendingPathComponent("expected-v2.json")
    try Self.editObject(expected, "Customer", 0, "orders") { ($0 as! [String]).reversed().map { $0 } }
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 0, "a set in another order is the same set: \(r.stdout)")
    // Another member is a difference (the expected store's Order/2 then names no customer).
    try Self.editObject(expected, "Customer", 0, "orders") { _ in ["Order/1"] }
    try Self.editObject(expected, "Order", 1, "customer") { _ in NSNull() }
    let dropped = runMapc(["test", folder.path], in: work)
    #expect(dropped.exitCode == 1)
    #expect(
      dropped.stdout.contains("Customer/1.orders: expected {Order/1}, got {Order/1, Order/2}"), "\(dropped.stdout)")
  }

  @Test func orderedRelationshipsCompareInOrder() throws {
    // Bookshelf 2: Book.tags is ordered; Book/3 has three tags.
    let (work, folder) = try Self.copyExample("bookshelf")
    defer { FileManagerTemp.remove(work.path) }
    let model = try String(
      contentsOf: folder.appendingPathComponent("Bookshelf.xcdatamodeld/Bookshelf 2.xcdatamodel/contents"),
      encoding: .utf8)
    let line = try #require(model.split(separator: "\n").first { $0.contains("name=\"tags\"") })
    #expect(line.contains("ordered=\"YES\""))
    let expected = folder.appendingPathComponent("expected-v2.json")
    try Self.editObject(expected, "Book", 2, "tags") { ($0 as! [String]).reversed().map { $0 } }
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 1, "\(r.stdout)")
    #expect(r.stdout.contains("Book/3.tags: expected [Tag/5, Tag/4, Tag/3], got [Tag/3, Tag/4, Tag/5]"), "\(r.stdout)")
  }

  @Test func doublesCompareExactly() throws {
    let (work, folder) = try Self.copyExample("shop")
    defer { FileManagerTemp.remove(work.path) }
    let expected = folder.appendingPathComponent("expected-v2.json")
    // The next double after the expected total: equal to 15 significant digits, not exactly.
    try Self.editObject(expected, "Customer", 0, "totalSpent") { ($0 as! NSNumber).doubleValue.nextUp }
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 1, "\(r.stdout)")
    #expect(r.stdout.contains(".totalSpent: expected "), "\(r.stdout)")
  }

  @Test func aMissingObjectIsNamed() throws {
    let (work, folder) = try Self.copyExample("shop")
    defer { FileManagerTemp.remove(work.path) }
    let expected = folder.appendingPathComponent("expected-v2.json")
    try Self.editJSON(expected) { json in
      var objects = json["objects"] as! [String: Any]
      var orders = objects["Order"] as! [[String: Any]]
      var extra = orders[0]
      extra["id"] = "Order/999"
      orders.append(extra)
      objects["Order"] = orders
      json["objects"] = objects
    }
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 1)
    #expect(r.stdout.contains("Order/999: expected the object, got no such object"), "\(r.stdout)")
  }

  @Test func aWrongFailureExpectationFails() throws {
    let (work, folder) = try Self.copyExample("shop")
    defer { FileManagerTemp.remove(work.path) }
    let fixture = folder.appendingPathComponent("fixture.json")
    try Data(
      """
      {"mapping": "ShopV1ToV2.xml", "cases": [
        {"store": "store-v1-missing-email.json", "exitCode": 1, "stderrMentions": ["no such text"]}]}
      """.utf8
    ).write(to: fixture)
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 1)
    #expect(r.stdout.contains("exit status 2, expected 1"), "\(r.stdout)")
    #expect(r.stdout.contains("standard error does not mention \"no such text\""), "\(r.stdout)")
  }

  @Test func aChainFixtureRunsMigrateOnJSONAndSQLiteStoresAndChecksTheSchema() throws {
    let (work, folder) = try Self.copyExample("notes")
    defer { FileManagerTemp.remove(work.path) }
    let mappings = folder.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    // The mapping's model paths are relative to it: point them at the bundle again.
    let text = try String(contentsOf: folder.appendingPathComponent("NotesV1ToV2.xml"), encoding: .utf8)
      .replacingOccurrences(of: "\"Notes.xcdatamodeld", with: "\"../Notes.xcdatamodeld")
    try Data(text.utf8).write(to: mappings.appendingPathComponent("NotesV1ToV2.xml"))
    let imported = runMapc(
      ["store", "import", "store-v1.json", "--model", "Notes.xcdatamodeld", "-o", "store-v1.sqlite"], in: folder)
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    try Data(
      """
      {"model": "Notes.xcdatamodeld", "mappings": "mappings", "cases": [
        {"store": "store-v1.json", "expected": "expected-v2.json"},
        {"store": "store-v1.sqlite", "to": "Notes 2", "expected": "expected-v2.json"},
        {"store": "store-v1.json", "to": "No Such Version", "exitCode": 1, "stderrMentions": ["No Such Version"]}]}
      """.utf8
    ).write(to: folder.appendingPathComponent("fixture.json"))
    let r = runMapc(["test", folder.path], in: work)
    #expect(r.exitCode == 0, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stdout.contains("PASS notes: store-v1.sqlite → Notes 2"), "\(r.stdout)")
    #expect(r.stdout.contains("PASS notes: store-v1.json → No Such Version"), "\(r.stdout)")
    // The fixture's stores are untouched (migrate ran on copies).
    #expect(
      try Data(contentsOf: folder.appendingPathComponent("store-v1.json"))
        == Data(contentsOf: Self.root.appendingPathComponent("Mappings/notes/store-v1.json")))
    // A changed expected value fails the SQLite case too, naming the object and property.
    try Self.editObject(folder.appendingPathComponent("expected-v2.json"), "Notebook", 0, "name") { _ in "Play" }
    let changed = runMapc(["test", folder.path], in: work)
    #expect(changed.exitCode == 1)
    #expect(changed.stdout.contains("Notebook/1.name: expected \"Play\", got \"Work\""), "\(changed.stdout)")
    #expect(changed.stdout.contains("2 failed"), "\(changed.stdout)")
  }

  @Test func updateWritesAMissingExpectedStore() throws {
    let (work, folder) = try Self.copyExample("shop")
    defer { FileManagerTemp.remove(work.path) }
    let expected = folder.appendingPathComponent("expected-v2.json")
    try FileManager.default.removeItem(at: expected)
    let without = runMapc(["test", folder.path], in: work)
    #expect(without.exitCode == 1)
    #expect(without.stdout.contains("does not exist (--update writes it)"), "\(without.stdout)")
    let updated = runMapc(["test", folder.path, "--update"], in: work)
    #expect(updated.exitCode == 0, "\(updated.stdout)")
    #expect(updated.stdout.contains("UPDATED shop: store-v1.json"), "\(updated.stdout)")
    // What it wrote is the expected store made by Mappings/expected.py, byte for byte.
    #expect(
      try Data(contentsOf: expected)
        == Data(contentsOf: Self.root.appendingPathComponent("Mappings/shop/expected-v2.json")))
    #expect(runMapc(["test", folder.path], in: work).exitCode == 0)
  }

  @Test func aBrokenFixtureFileIsReported() throws {
    let work = try FileManagerTemp.folder("mapc-test-broken")
    defer { FileManagerTemp.remove(work.path) }
    try Data(#"{"mapping": "m.xml", "cases": [{"store": "s.json"}]}"#.utf8).write(
      to: work.appendingPathComponent("fixture.json"))
    let r = runMapc(["test", work.path])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("[test-fixture-invalid]"), "\(r.stderr)")
    #expect(r.stderr.contains("exactly one of 'expected'"), "\(r.stderr)")
    let none = runMapc(["test", work.appendingPathComponent("nothing-here").path])
    #expect(none.exitCode == 64)
    #expect(none.stderr.contains("[usage-path-not-found]"))
  }

  @Test(.needsTool("xmllint", package: "libxml2-utils"))
  func junitReportValidatesAgainstTheSchema() throws {
    let xmllint = try #require(TestTools.onPath("xmllint")).path
    let (work, folder) = try Self.copyExample("shop")
    defer { FileManagerTemp.remove(work.path) }
    try Self.editObject(folder.appendingPathComponent("expected-v2.json"), "Customer", 1, "email") { _ in "<&\"x\">" }
    let report = work.appendingPathComponent("report.xml")
    let r = runMapc([
      "test", folder.path, Self.root.appendingPathComponent("Mappings/notes").path, "--junit", report.path,
    ])
    #expect(r.exitCode == 1)
    let schema = Self.root.appendingPathComponent("Tests/TestData/junit/JUnit.xsd").path
    let valid = runExecutable(URL(fileURLWithPath: xmllint), ["--noout", "--schema", schema, report.path])
    let reportText = try String(contentsOf: report, encoding: .utf8)
    #expect(valid.exitCode == 0, "\(valid.stderr)\n\(reportText)")
    // Negative control: the validator rejects a testcase without its classname.
    let bad = work.appendingPathComponent("bad.xml")
    let text = try String(contentsOf: report, encoding: .utf8)
    try Data(text.replacingOccurrences(of: " classname=", with: " class=").utf8).write(to: bad)
    #expect(runExecutable(URL(fileURLWithPath: xmllint), ["--noout", "--schema", schema, bad.path]).exitCode != 0)
    // Counts, read back with Foundation's XML parser.
    let doc = try XMLDocument(contentsOf: report)
    let suites = try doc.nodes(forXPath: "/testsuites/testsuite")
    #expect(suites.count == 2)
    let failures = try doc.nodes(forXPath: "//testcase/failure")
    #expect(failures.count == 1)
    #expect((failures.first as? XMLElement)?.stringValue?.contains(".email: expected \"<&\\\"x\\\">\"") == true)
    #expect(try doc.nodes(forXPath: "//testcase").count == 3)
  }
}
