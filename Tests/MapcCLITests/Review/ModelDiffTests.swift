import Foundation
import MapTestSupport
import Testing

/// `mapc diff` (Specs/model-diff.md). Oracles: the model files themselves, read by
/// `model_changes.py` with python3's xml.etree (entities and properties added, removed, renamed by
/// renaming identifier); edits made here by hand to a copy of a model.
@Suite struct ModelDiffTests {
  static let root = SharedPaths.packageRoot
  static let script = root.appendingPathComponent("Tests/MapcCLITests/Review/model_changes.py").path

  /// model_changes.py's answer for two `contents` files.
  static func oracle(_ source: String, _ destination: String) throws -> [String: Any] {
    let r = runExecutable(URL(fileURLWithPath: "/usr/bin/python3"), [script, source, destination])
    try #require(r.exitCode == 0, "model_changes.py: \(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
  }

  /// mapc diff's JSON, reduced to the oracle's shape.
  static func mapcChanges(_ arguments: [String]) throws -> [String: Any] {
    let r = runMapc(["diff"] + arguments + ["--format", "json"])
    try #require(r.exitCode == 0, "\(r.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let entities = try #require(json["entities"] as? [[String: Any]])
    func names(_ list: [[String: Any]], _ change: String) -> [String] {
      list.filter { $0["change"] as? String == change }.compactMap { $0["name"] as? String }.sorted()
    }
    var renamed: [String: String] = [:]
    for e in entities where e["change"] as? String == "renamed" {
      renamed[e["name"] as! String] = e["renamedFrom"] as? String
    }
    var perEntity: [String: Any] = [:]
    for e in entities where ["changed", "renamed"].contains(e["change"] as? String) {
      let props = e["properties"] as? [[String: Any]] ?? []
      var propRenamed: [String: String] = [:]
      for p in props where p["change"] as? String == "renamed" {
        propRenamed[p["name"] as! String] = p["renamedFrom"] as? String
      }
      let (added, removed) = (names(props, "added"), names(props, "removed"))
      if !added.isEmpty || !removed.isEmpty || !propRenamed.isEmpty {
        perEntity[e["name"] as! String] = ["added": added, "removed": removed, "renamed": propRenamed]
      }
    }
    return [
      "added": names(entities, "added"), "removed": names(entities, "removed"), "renamed": renamed,
      "entities": perEntity, "inference": json["inference"] ?? [:],
    ]
  }

  static func same(_ a: Any?, _ b: Any?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return NSDictionary(dictionary: ["v": a]).isEqual(to: ["v": b])
  }

  @Test(.enabled(if: SharedPaths.fixtures != nil, Comment(rawValue: SharedPaths.absentMessage)))
  func theDiaryStepListsItsEntitiesAndCannotBeInferredWithoutLosingData() throws {
    let bundle = try #require(SharedPaths.fixtures).appendingPathComponent("diary/SimpleQADiary.xcdatamodeld")
    let r = runMapc(["diff", bundle.path])
    #expect(r.exitCode == 0, "\(r.stderr)")
    let want = try Self.oracle(
      bundle.appendingPathComponent("SimpleQADiary.xcdatamodel/contents").path,
      bundle.appendingPathComponent("SimpleQADiary 2.xcdatamodel/contents").path)
    #expect(want["removed"] as? [String] == ["Questions", "Records"])
    for name in want["removed"] as? [String] ?? [] {
      #expect(r.stdout.contains("- entity \(name) (removed)"), "\(r.stdout)")
    }
    let added = try #require(want["added"] as? [String])
    #expect(added.count == 5)
    for name in added { #expect(r.stdout.contains("+ entity \(name) (added)"), "\(r.stdout)") }
    #expect(r.stdout.contains("cannot be inferred without losing data"), "\(r.stdout)")
    #expect(r.stdout.contains("every Questions object, every Records object"), "\(r.stdout)")
    let json = try Self.mapcChanges([bundle.path, "--from", "SimpleQADiary", "--to", "SimpleQADiary 2"])
    #expect(Self.same(json["added"], want["added"]) && Self.same(json["removed"], want["removed"]))
    let inference = try #require(json["inference"] as? [String: Any])
    #expect(inference["withoutDataLoss"] as? Bool == false)
    // Markdown for a pull request: a table with a row per entity.
    let md = runMapc(["diff", bundle.path, "--format", "markdown"])
    #expect(md.stdout.contains("| entity | change | details |"))
    #expect(md.stdout.contains("| `Records` | removed |"), "\(md.stdout)")
    #expect(md.stdout.contains("**Lightweight migration:** not without losing data."))
  }

  /// Every step of the DuckDuckGo and apptentive bundles diffs as the model files say.
  @Test(
    .enabled(if: SharedPaths.stores != nil, Comment(rawValue: SharedPaths.absentMessage)),
    arguments: [
      ("duckduckgo+BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld", "BookmarksModel", 6),
      ("apptentive+apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld", "ATDataModel", 6),
    ])
  func realStepsDiffAsTheirModelsSay(_ path: String, _ name: String, _ count: Int) throws {
    let bundle = try #require(SharedPaths.stores).appendingPathComponent(path)
    let names = [name] + (2...count).map { "\(name) \($0)" }
    for (a, b) in zip(names, names.dropFirst()) {
      let want = try Self.oracle(
        bundle.appendingPathComponent("\(a).xcdatamodel/contents").path,
        bundle.appendingPathComponent("\(b).xcdatamodel/contents").path)
      let got = try Self.mapcChanges([bundle.path, "--from", a, "--to", b])
      for key in ["added", "removed", "renamed", "entities"] {
        #expect(
          Self.same(got[key], want[key]), "\(a) → \(b) \(key): mapc \(got[key] ?? "-"), model files \(want[key] ?? "-")"
        )
      }
    }
  }

  @Test func renamesAndChangedFacetsAreNamed() throws {
    let work = try FileManagerTemp.folder("mapc-diff")
    defer { FileManagerTemp.remove(work.path) }
    let bundle = work.appendingPathComponent("Shop.xcdatamodeld")
    try FileManager.default.copyItem(
      at: Self.root.appendingPathComponent("Mappings/shop/Shop.xcdatamodeld"), to: bundle)
    // Shop 3: Customer renamed Client, its email renamed mail and made optional, Order.amount an
    // Integer 64, Country gone, Coupon new.
    let v2 = try String(contentsOf: bundle.appendingPathComponent("Shop 2.xcdatamodel/contents"), encoding: .utf8)
    var v3 = v2.replacingOccurrences(
      of: #"<entity name="Customer" "#, with: #"<entity name="Client" elementID="Customer" "#)
    v3 = v3.replacingOccurrences(of: #"destinationEntity="Customer""#, with: #"destinationEntity="Client""#)
    v3 = v3.replacingOccurrences(of: #"inverseEntity="Customer""#, with: #"inverseEntity="Client""#)
    v3 = v3.replacingOccurrences(
      of: #"<attribute name="email" attributeType="String"/>"#,
      with: #"<attribute name="mail" optional="YES" attributeType="String" elementID="email"/>"#)
    v3 = v3.replacingOccurrences(
      of: #"<attribute name="amount" attributeType="Double""#,
      with: #"<attribute name="amount" attributeType="Integer 64""#)
    let country = try #require(v3.range(of: #"<entity name="Country""#))
    let countryEnd = try #require(v3.range(of: "</entity>", range: country.upperBound..<v3.endIndex))
    v3.replaceSubrange(
      country.lowerBound..<countryEnd.upperBound,
      with: #"<entity name="Coupon" syncable="YES"><attribute name="code" attributeType="String"/></entity>"#)
    let folder = bundle.appendingPathComponent("Shop 3.xcdatamodel")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(v3.utf8).write(to: folder.appendingPathComponent("contents"))
    try #require(v2 != v3 && v3.contains("Client") && v3.contains("Coupon"))

    let r = runMapc(["diff", bundle.path, "--from", "Shop 2", "--to", "Shop 3"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stdout.contains("> entity Client (renamed from Customer)"), "\(r.stdout)")
    #expect(r.stdout.contains("> attribute mail (renamed from email); optional: no → yes"), "\(r.stdout)")
    #expect(r.stdout.contains("~ attribute amount: type: Double → Integer 64"), "\(r.stdout)")
    #expect(r.stdout.contains("+ entity Coupon (added)"), "\(r.stdout)")
    #expect(r.stdout.contains("- entity Country (removed)"), "\(r.stdout)")
    #expect(r.stdout.contains("~ relationship customer: destination: Customer → Client"), "\(r.stdout)")
    // Dropping Country's objects is data loss.
    #expect(r.stdout.contains("every Country object"), "\(r.stdout)")
    // Two model paths instead of a bundle give the same diff.
    let paths = runMapc([
      "diff", bundle.appendingPathComponent("Shop 2.xcdatamodel").path, folder.path,
    ])
    #expect(paths.stdout.split(separator: "\n").dropFirst() == r.stdout.split(separator: "\n").dropFirst())
    let oracle = try Self.oracle(
      bundle.appendingPathComponent("Shop 2.xcdatamodel/contents").path, folder.appendingPathComponent("contents").path)
    let json = try Self.mapcChanges([bundle.path, "--from", "Shop 2", "--to", "Shop 3"])
    for key in ["added", "removed", "renamed", "entities"] {
      #expect(Self.same(json[key], oracle[key]), "\(key): mapc \(json[key] ?? "-"), model files \(oracle[key] ?? "-")")
    }
  }

  @Test func anUnknownVersionIsAnError() {
    let r = runMapc([
      "diff", Self.root.appendingPathComponent("Mappings/shop/Shop.xcdatamodeld").path, "--to", "Shop 9",
    ])
    #expect(r.exitCode == 1)
    #expect(r.stderr.contains("[model-version-not-found]"))
  }
}
