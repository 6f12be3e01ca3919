import Foundation
import MapTestSupport
import Testing

/// Issue 43, stepping back: each real store of `../shared/stores` (one per bundle and version)
/// is migrated one step on (to the next version of its bundle whose hashes differ) and back
/// with `mapc migrate --to`, each time with `--output`. A forward step that is not inferred has
/// nothing to give back and is left out; one that drops properties' values the store holds runs
/// with consent for exactly those, which are then left out of the comparison (one that drops
/// whole entities is left out). The way back is
/// first run without consent: a reverse that drops what the store at the newer version holds
/// is refused (`migrate-data-loss`), naming the losses, each of which python3 checks is
/// something the source store lacks (what the forward step added); run again with exactly
/// those `--allow-drop`s, it gives back the source store's rows, byte for byte (`step_back_rows.py`,
/// which says what it leaves out and why). A reverse mapc cannot infer is refused by name
/// (`chain-step-irreversible`), the store unchanged.
@Suite(
  .enabled(if: mapcExecutableProblem == nil && SharedPaths.stores != nil, "needs the built mapc and ../shared/stores"))
struct StepBackRealStoreTests {
  /// The first store of each bundle and version.
  static let stores: [RealStore] = {
    var seen: Set<String> = []
    return RealStore.all.filter { s in
      !s.store.path.contains("/v2CorruptDatabase/") && seen.insert(s.bundle.path + "\u{0}" + s.version).inserted
    }
  }()

  /// The versions of `bundle` after `version`, in the order of their names (the order mapc
  /// takes for these bundles, which declare none).
  static func later(_ version: String, in bundle: URL) -> [String] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [])
      .filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
    return names.filter { $0.compare(version, options: .numeric) == .orderedDescending }
      .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
  }

  struct Compared: Decodable {
    var tables: Int
    var rows: Int
    var problems: [String]
    var drops_in_source: [String]
  }

  enum Outcome: Equatable {
    /// The forward step is not inferred or loses data; nothing to give back.
    case noForward
    /// Refused by name: no automatic reverse.
    case irreversible
    /// Back and compared: rows of the source, the drops of the way back consented to, and what
    /// the forward step dropped (with consent), left out of the comparison.
    case verified(rows: Int, drops: [String], lost: [String] = [])
  }

  @Test(arguments: stores) func forwardThenBackGivesTheRowsBack(_ store: RealStore) throws {
    let outcome = try Self.roundTrip(store)
    print("step back of \(store.testDescription): \(outcome)")
  }

  /// Known outcomes: DuckDuckGo's V3 → V4 turns a to-one into a to-many (renamed), whose reverse
  /// Core Data's rules cannot infer; wibosco's 3 → 4 and apptentive's 3 → 4 add attributes with
  /// defaults, which the way back drops with consent; XCServerCoreData's big store comes back.
  @Test func theKnownStepsBackAreThere() throws {
    func outcome(_ name: String) throws -> Outcome {
      try Self.roundTrip(try #require(Self.stores.first { $0.store.lastPathComponent == name }, "\(name)"))
    }
    #expect(try outcome("Bookmarks_V3.sqlite") == .irreversible)
    #expect(try outcome("CoreDataMigration_Example_3.sqlite") == .verified(rows: 26, drops: ["Post.softDeleted"]))
    #expect(try outcome("ATDataModelv3.sqlite") == .verified(rows: 10, drops: ["ATTextMessage.hidden"]))
    #expect(try outcome("XCServerCoreData_2.0.1.sqlite") == .verified(rows: 14644, drops: []))
  }

  /// `mapc lint --reverse` on DuckDuckGo's history: one note per step, each saying what the
  /// round trips above found (2 → 3 and 3 → 4 refused with Core Data's reasons), and `mapc diff
  /// --reverse` the same for one step.
  @Test func lintAndDiffSayWhichOfDuckDuckGosStepsGoBack() throws {
    let store = try #require(Self.stores.first { $0.store.lastPathComponent == "Bookmarks_V1.sqlite" })
    let bundle = store.bundle.path
    let lint = runMapc(["lint", bundle, "--reverse"])
    let notes = lint.stderr.split(separator: "\n").filter {
      $0.hasSuffix("[chain-step-reversible]") || $0.hasSuffix("[chain-reverse-drops-data]")
        || $0.hasSuffix("[chain-step-irreversible]")
    }
    #expect(notes.count == 5, "\(lint.stderr)")
    let expected = [
      "the step 'BookmarksModel' → 'BookmarksModel 2' can be reversed without loss",
      "the reverse of the step 'BookmarksModel 2' → 'BookmarksModel 3' cannot be inferred: attribute BookmarkEntity.isFavorite is new and mandatory with no default value",
      "the reverse of the step 'BookmarksModel 3' → 'BookmarksModel 4' cannot be inferred: relationship BookmarkEntity.favoriteFolder is to-one, but BookmarkEntity.favoriteFolders was to-many",
      "reversing 'BookmarksModel 4' → 'BookmarksModel 5' drops BookmarkEntity.lastChildrenPayloadReceivedFromSync",
      "reversing 'BookmarksModel 5' → 'BookmarksModel 6' drops BookmarkEntity.isStub",
    ]
    for text in expected { #expect(notes.contains { $0.contains(text) }, "\(text)") }
    let diff = runMapc([
      "diff", bundle, "--from", "BookmarksModel 5", "--to", "BookmarksModel 6", "--reverse", "--format", "markdown",
    ])
    #expect(diff.exitCode == 0, "\(diff.stderr)")
    #expect(
      diff.stdout.contains("**Reverse:** reversing 'BookmarksModel 5' → 'BookmarksModel 6' drops BookmarkEntity.isStub")
    )
  }

  static func roundTrip(_ store: RealStore) throws -> Outcome {
    let dir = try FileManagerTemp.folder("step-back")
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = dir.appendingPathComponent(store.store.lastPathComponent).path
    for (suffix, data) in store.files() { try data.write(to: URL(fileURLWithPath: source + suffix)) }
    let (forward, back) = (
      dir.appendingPathComponent("forward.sqlite").path, dir.appendingPathComponent("back.sqlite").path
    )
    let bundle = store.bundle.path
    // The next version whose hashes differ (one with equal hashes is no step).
    var next: String?
    // What the forward step drops of the store (consented to by name): it cannot come back.
    var lost: [String] = []
    for to in later(store.version, in: store.bundle).prefix(3) {
      var r = runMapc(["migrate", "--model", bundle, "--store", source, "--to", to, "--output", forward, "--quiet"])
      if r.exitCode == 0 && r.stderr.contains("nothing to do") { continue }
      if r.exitCode == 2 && r.stderr.contains("[migrate-data-loss]") {
        lost = try allowed(r.stderr)
        // A forward step dropping whole entities is left out: their rows cannot be compared.
        guard lost.allSatisfy({ $0.contains(".") }) else { return .noForward }
        r = runMapc(
          ["migrate", "--model", bundle, "--store", source, "--to", to, "--output", forward, "--quiet"]
            + lost.flatMap { ["--allow-drop", $0] })
      }
      guard r.exitCode == 0 else {
        #expect([1, 2].contains(r.exitCode), "\(r.stderr)")
        return .noForward
      }
      next = to
      break
    }
    guard next != nil else { return .noForward }
    let forwardBytes = FileManager.default.contents(atPath: forward)
    let plain = runMapc(["migrate", "--model", bundle, "--store", forward, "--to", store.version, "--output", back])
    if plain.exitCode == 1 {
      #expect(plain.stderr.contains("[chain-step-irreversible]"), "\(plain.stderr)")
      #expect(FileManager.default.contents(atPath: forward) == forwardBytes)
      #expect(!FileManager.default.fileExists(atPath: back))
      return .irreversible
    }
    var drops: [String] = []
    if plain.exitCode == 2 {
      // Refused with the losses named, the newer store unchanged and nothing written.
      #expect(plain.stderr.contains("[migrate-data-loss]"), "\(plain.stderr)")
      #expect(FileManager.default.contents(atPath: forward) == forwardBytes)
      #expect(!FileManager.default.fileExists(atPath: back))
      drops = try Self.allowed(plain.stderr)
    } else {
      try #require(plain.exitCode == 0, "\(plain.stderr)")
    }
    if !drops.isEmpty {
      let consent = drops.flatMap { ["--allow-drop", $0] }
      let r = runMapc(
        ["migrate", "--model", bundle, "--store", forward, "--to", store.version, "--output", back, "--quiet"] + consent
      )
      try #require(r.exitCode == 0, "\(r.stderr)")
    }
    let script = SharedPaths.packageRoot.appendingPathComponent("Tests/MapcCLITests/SQLite/step_back_rows.py")
    let p = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", script.path, store.store.path, back] + drops.flatMap { ["--drop", $0] }
        + lost.flatMap { ["--lost", $0] })
    try #require(p.exitCode == 0, "\(p.stderr)")
    let compared = try JSONDecoder().decode(Compared.self, from: Data(p.stdout.utf8))
    #expect(compared.problems == [], "\(store.testDescription)")
    // Every drop consented to is something the forward step added: the source lacks it.
    #expect(compared.drops_in_source == [], "\(store.testDescription)")
    return .verified(rows: compared.rows, drops: drops, lost: lost)
  }

  /// The names a refusal's note gives to `--allow-drop` (`or accept the loss: … or --allow-drop
  /// A --allow-drop B`).
  static func allowed(_ stderr: String) throws -> [String] {
    let line = try #require(stderr.split(separator: "\n").first { $0.contains("or accept the loss:") }, "\(stderr)")
    let words = line.split(separator: " ").map(String.init)
    let names = words.indices.filter { words[$0] == "--allow-drop" && $0 + 1 < words.count }.map { words[$0 + 1] }
    try #require(!names.isEmpty, "\(stderr)")
    return names
  }
}
