import Foundation
import MapTestSupport
import Testing

/// Issue 24, item 7: a step Core Data migrates as a lightweight migration keeps every object's
/// `Z_PK`, every root's `Z_MAX` and every value it does not change. Each real store of
/// `../shared/stores` is migrated one version on (to the next version of its bundle that a real
/// store of the catalogue holds) with `mapc migrate --to` and no mappings; python3's sqlite3
/// compares the migrated store with the original (`kept_rows.py`: same `Z_PK`s and entities,
/// same `Z_MAX`, every non-NULL value of a column both have unchanged, byte for byte). A step
/// mapc refuses leaves the store as it was. (Losses the apps' own model histories make are
/// consented to with `--allow-data-loss`; the consent check has tests of its own.)
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct InferredStepKeepsRowsTests {
  struct Step: CustomTestStringConvertible, Sendable {
    var store: RealStore
    var to: String
    var testDescription: String { "\(store.testDescription) → \(to)" }
  }

  static let steps: [Step] = RealStore.all.filter { !$0.store.path.contains("/v2CorruptDatabase/") }.compactMap { s in
    let later = Set(RealStore.all.filter { $0.bundle == s.bundle }.map(\.version)).filter {
      $0.compare(s.version, options: .numeric) == .orderedDescending
    }
    return later.min { $0.compare($1, options: .numeric) == .orderedAscending }.map { Step(store: s, to: $0) }
  }

  /// Every pair of one app's real stores, older → newer, each as a chain and as one direct step
  /// (issue 38).
  struct Pair: CustomTestStringConvertible, Sendable {
    var step: Step
    var direct: Bool
    var testDescription: String { step.testDescription + (direct ? " (direct)" : " (chain)") }
  }

  static let pairs: [Pair] = {
    var result: [Pair] = []
    for s in RealStore.all where !s.store.path.contains("/v2CorruptDatabase/") {
      let versions: Set<String> = Set(RealStore.all.filter { $0.bundle == s.bundle }.map(\.version))
      let later: [String] = versions.filter { $0.compare(s.version, options: .numeric) == .orderedDescending }
        .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
      for to in later {
        result.append(Pair(step: Step(store: s, to: to), direct: false))
        result.append(Pair(step: Step(store: s, to: to), direct: true))
      }
    }
    return result
  }()

  struct Kept: Decodable {
    var objects: Int
    var problems: [String]
  }

  @Test(arguments: steps) func inferredStepKeepsEveryRow(_ step: Step) throws {
    try migrateKeepingRows(step, direct: false)
  }

  /// Older → newer, chained and direct: both keep every row and give the schema Core Data wrote.
  @Test(arguments: pairs) func everyPairChainedAndDirect(_ pair: Pair) throws {
    try migrateKeepingRows(pair.step, direct: pair.direct)
  }

  func migrateKeepingRows(_ step: Step, direct: Bool) throws {
    let dir = try FileManagerTemp.folder("kept-rows")
    defer { try? FileManager.default.removeItem(at: dir) }
    let copy = dir.appendingPathComponent(step.store.store.lastPathComponent).path
    let before = step.store.files()
    for (suffix, data) in before { try data.write(to: URL(fileURLWithPath: copy + suffix)) }
    // Consent to what the app's own model history drops (columns the oracle does not compare).
    let r = runMapc(
      [
        "migrate", "--model", step.store.bundle.path, "--store", copy, "--to", step.to, "--quiet", "--allow-data-loss",
      ] + (direct ? ["--direct"] : []))
    guard r.exitCode == 0 else {
      // Refused (not inferable, or data it would drop): the copy is as it was.
      #expect([1, 2].contains(r.exitCode), "\(r.stderr)")
      #expect(FileManager.default.contents(atPath: copy) == before[""])
      return
    }
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/kept_rows.py")
    let p = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, step.store.store.path, copy])
    try #require(p.exitCode == 0, "\(p.stderr)")
    let kept = try JSONDecoder().decode(Kept.self, from: Data(p.stdout.utf8))
    var problems = kept.problems
    if direct, let target = Self.targetStore(step) {
      // One direct step drops the entities the target no longer has (as Core Data's inferred
      // mapping does; a chain takes them through the versions between): their rows may go.
      let entities = Set(try SQLiteRoundTripTests.schema(target.store.path).primaryKeys.map { $0[1].description })
      problems = problems.filter { line in
        let named = line.split(separator: "(").dropFirst().first.map { String($0.prefix { $0 != ")" }) }
        if let named, line.hasSuffix(") is gone") { return entities.contains(named) }
        if line.contains(", and no such table after") {
          return entities.contains { "Z" + $0.uppercased() == line.prefix { $0 != ":" } }
        }
        return true
      }
    }
    #expect(problems == [], "\(step.testDescription)")
    try Self.expectTheRealSchema(of: copy, at: step)
  }

  /// The migrated store has the schema of the store Core Data wrote at the target version (the
  /// catalogue's first store at that version): tables, columns and declared types, indexes (less
  /// earlier versions' leftovers, `SQLiteRoundTripTests.modelIndexes`), `Z_PRIMARYKEY` entities,
  /// the target's entity hashes, digest and checksum, and `integrity_check` ok.
  static func targetStore(_ step: Step) -> RealStore? {
    RealStore.all.first {
      $0.bundle == step.store.bundle && $0.version == step.to && !$0.store.path.contains("/v2CorruptDatabase/")
    }
  }

  static func expectTheRealSchema(of path: String, at step: Step) throws {
    guard let target = targetStore(step) else { return }
    var real = try SQLiteRoundTripTests.schema(target.store.path)
    let written = try SQLiteRoundTripTests.schema(path)
    // mapc writes the layout of the source's framework version (Specs/sqlite-store.md §9); the
    // device that wrote apptentive's v6 store ran a newer one (754, the v5 store's 519), which
    // adds Z_MODELCACHE: the only difference such an upgrade makes in these stores.
    if try SQLiteRoundTripTests.schema(step.store.store.path).tables["Z_MODELCACHE"] == nil {
      real.tables["Z_MODELCACHE"] = nil
    }
    #expect(written.tables == real.tables, "\(step.testDescription)")
    #expect(written.indexes == SQLiteRoundTripTests.modelIndexes(real.indexes, besides: written.indexes))
    #expect(written.primaryKeys == real.primaryKeys, "\(step.testDescription)")
    let facts = try RealStore(number: "", store: URL(fileURLWithPath: path), bundle: target.bundle, version: step.to)
      .independent()
    #expect(facts.hashes == (try target.independent().hashes), "\(step.testDescription)")
    #expect(facts.digestOK != false && facts.checksumOK != false)
    #expect(facts.integrity == "ok")
  }

  /// apptentive's own mapping models (in `../shared/corpus`) for the steps it wrote them for:
  /// every step of its history from each of its stores runs, and the result has the schema of the
  /// store Core Data wrote at the target version.
  @Test(arguments: steps.filter { $0.store.store.path.contains("/ApptentiveTests/data/ATDataModelv") })
  func apptentiveStepWithItsMappingModels(_ step: Step) throws {
    let corpus = try #require(SharedPaths.corpus)
    let mappings = corpus.appendingPathComponent("apptentive/apptentive-ios/Apptentive/Apptentive/Model").path
    let dir = try FileManagerTemp.folder("apptentive-step")
    defer { try? FileManager.default.removeItem(at: dir) }
    let copy = dir.appendingPathComponent(step.store.store.lastPathComponent).path
    for (suffix, data) in step.store.files() { try data.write(to: URL(fileURLWithPath: copy + suffix)) }
    let r = runMapc([
      "migrate", "--model", step.store.bundle.path, "--store", copy, "--to", step.to, "--mappings", mappings,
      "--quiet", "--allow-data-loss",
    ])
    try #require(r.exitCode == 0, "\(step.testDescription): \(r.stderr)")
    try Self.expectTheRealSchema(of: copy, at: step)
  }

  /// The steps above that mapc infers include DuckDuckGo's four and apptentive's 2→3 and 3→4
  /// (a hierarchy whose steps add optional attributes).
  @Test func theInferredStepsAreThere() throws {
    let expected = [
      "Bookmarks_V1.sqlite", "Bookmarks_V2.sqlite", "Bookmarks_V3.sqlite", "Bookmarks_V4.sqlite",
      "ATDataModelv2.sqlite", "ATDataModelv3.sqlite",
    ]
    for name in expected {
      let step = try #require(Self.steps.first { $0.store.store.lastPathComponent == name }, "\(name)")
      let dir = try FileManagerTemp.folder("kept-rows-plan")
      defer { try? FileManager.default.removeItem(at: dir) }
      let r = runMapc([
        "migrate", "--model", step.store.bundle.path, "--store", step.store.store.path, "--to", step.to, "--plan",
      ])
      #expect(r.exitCode == 0, "\(name): \(r.stderr)")
      #expect(r.stdout.contains("inferred"), "\(name): \(r.stdout)")
    }
  }
}
