import Foundation
import MapTestSupport
import Testing

/// The schema is the set of types the model container reaches (Specs/swiftdata-schema.md §1):
/// sources with an unused `@Model` class, models inside `#if canImport(SwiftData)`, or a file
/// left out with `--exclude` hash like the plain sources. On the two real SwiftData stores the
/// oracle is the store's own `NSStoreModelVersionHashes` (python3: sqlite3 and plistlib); the
/// sources are `Tests/TestData/swiftdata` (its README says what each folder holds).
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct SwiftDataContainerTests {
  static let data = SharedPaths.packageRoot.appendingPathComponent("Tests/TestData/swiftdata").path

  static let stores = [
    "Crafting": "sergd2005+ResourcesManager/default.store",
    "Cocktails": "MatthewHunt84+MetaCocktailsSwiftData/MetaCocktailsSwiftData/default.store",
  ]

  /// The arguments of `mapc hash` for each way of giving the same schema, by store.
  static let variants: [(store: String, what: String, arguments: [String])] = [
    ("Crafting", "plain", ["Crafting/Plain"]),
    (
      "Crafting", "app with an unused class, #if and a file to exclude",
      ["Crafting/App", "--exclude", "Legacy/*.swift"]
    ),
    (
      "Crafting", "unused class and container by a repeated --model",
      ["Crafting/Plain", "Crafting/App/Blueprint.swift", "Crafting/App/Store.swift"]
    ),
    ("Crafting", "#if canImport(SwiftData) alone", ["Crafting/App/Models.swift"]),
    ("Crafting", "a file excluded by name", ["Crafting/App", "--exclude", "Item.swift"]),
    ("Cocktails", "plain", ["Cocktails/Plain"]),
    ("Cocktails", "app with an unused class, #if and a folder to exclude", ["Cocktails/App", "--exclude", "Stale"]),
    ("Cocktails", "#if canImport(SwiftData) alone", ["Cocktails/App/Models.swift", "Cocktails/App/Values.swift"]),
  ]

  static func storeHashes(_ name: String) throws -> [String: String]? {
    guard let root = SharedPaths.swiftdata else { return nil }
    return try SwiftSchemaStoreTests.storeHashes(root.appendingPathComponent(stores[name]!))
  }

  /// `mapc hash` of the first argument (a path below the test data) with the others.
  static func hashes(_ arguments: [String]) throws -> [String: String] {
    var arguments = arguments
    arguments[0] = data + "/" + arguments[0]
    for (i, a) in arguments.enumerated() where a.hasSuffix(".swift") && !a.contains("*") && i > 0 {
      if arguments[i - 1] != "--exclude" { arguments[i] = data + "/" + a }
    }
    return try SwiftSchemaStoreTests.mapcHashes(arguments)
  }

  @Test(.needsShared, arguments: 0..<8) func sourcesHashLikeTheStore(_ k: Int) throws {
    let v = Self.variants[k]
    let expected = try #require(try Self.storeHashes(v.store))
    #expect(try Self.hashes(v.arguments) == expected, "\(v.store): \(v.what)")
  }

  /// An Xcode project whose target holds the app's files (not the stale copy beside them):
  /// `--model App.xcodeproj --xcode-target Bar` hashes like the store.
  @Test(.needsShared) func anXcodeTargetsFilesHashLikeTheStore() throws {
    let expected = try #require(try Self.storeHashes("Cocktails"))
    let folder = try TemporaryFolder()
    let app = Self.data + "/Cocktails/App"
    let files = ["Models.swift", "Values.swift", "BarApp.swift", "Apron.swift"]
    var objects = ""
    for (i, f) in files.enumerated() {
      objects += "B\(i) = {isa = PBXBuildFile; fileRef = F\(i); };\n"
      objects += "F\(i) = {isa = PBXFileReference; path = \"\(app)/\(f)\"; sourceTree = \"<absolute>\"; };\n"
    }
    let phase = files.indices.map { "B\($0), " }.joined()
    let project = """
      // !$*UTF8*$!
      {
        objects = {
          \(objects)
          P1 = {isa = PBXSourcesBuildPhase; files = (\(phase)); };
          T1 = {isa = PBXNativeTarget; buildPhases = (P1, ); name = Bar; };
          T2 = {isa = PBXNativeTarget; buildPhases = (); name = BarTests; };
          R1 = {isa = PBXProject; mainGroup = G1; targets = (T1, T2, ); };
          G1 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
        };
        rootObject = R1;
      }
      """
    try FileManager.default.createDirectory(atPath: folder.path + "/Bar.xcodeproj", withIntermediateDirectories: true)
    try folder.write("Bar.xcodeproj/project.pbxproj", project)
    #expect(
      try SwiftSchemaStoreTests.mapcHashes([folder.path + "/Bar.xcodeproj", "--xcode-target", "Bar"]) == expected)
    let two = runMapc(["hash", folder.path + "/Bar.xcodeproj"])
    #expect(two.exitCode == 1)
    #expect(two.stderr.contains("name one with --xcode-target [swift-xcode-project]"), "\(two.stderr)")
  }

  /// Without `--exclude`, the stale copy changes the schema: the exclusion is what keeps it out.
  @Test(.needsShared) func theStaleFileMattersWithoutExclude() throws {
    let expected = try #require(try Self.storeHashes("Cocktails"))
    let r = runMapc(["hash", Self.data + "/Cocktails/App", "--format", "json"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(!r.stdout.contains(expected["Garnish"]!))
    let crafting = runMapc(["hash", Self.data + "/Crafting/App"])
    #expect(crafting.exitCode == 1)
  }

  /// The unused classes are named in notes, at their file and line; the container's place too.
  @Test func unusedClassesAreNamedInNotes() throws {
    let r = runMapc(["hash", Self.data + "/Cocktails/App", "--exclude", "Stale"])
    #expect(r.exitCode == 0, "\(r.stderr)")
    #expect(
      r.stderr.contains(
        "Cocktails/App/Apron.swift:6:13: note: @Model class Apron is not reached from the model container (declared at "
      ), "\(r.stderr)")
    #expect(r.stderr.contains("Cocktails/App/BarApp.swift:7:5)"), "\(r.stderr)")
    let plain = runMapc(["hash", Self.data + "/Cocktails/Plain"])
    #expect(plain.stderr.contains("note: no model container declaration"), "\(plain.stderr)")
  }

  /// `mapc migrate --model <sources with an unused class>`: the migrated store keeps the entity
  /// numbers SwiftData wrote (its Z_PRIMARYKEY, its join table `Z_1GARNISH` and columns), read
  /// by python3 from the original store and the migrated one. `--define NOTES` adds an
  /// attribute to Garnish, so the step is real.
  @Test(.needsShared) func migrateKeepsTheEntityNumbersSwiftDataWrote() throws {
    let root = try #require(SharedPaths.swiftdata)
    let folder = try TemporaryFolder()
    let source = root.appendingPathComponent(Self.stores["Cocktails"]!).path
    // The store migrated, and a copy of the original for python3 (opened even read-only, a store
    // in WAL mode gets its -shm rewritten: the one in ../shared is never opened).
    let original = folder.path + "/original.store"
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
      try FileManager.default.copyItem(atPath: source + suffix, toPath: folder.path + "/default.store" + suffix)
      try FileManager.default.copyItem(atPath: source + suffix, toPath: original + suffix)
    }
    let layout = """
      import sqlite3, sys, json
      c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
      keys = [[n, e] for e, n in c.execute("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")]
      tables = {}
      for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
          if name.startswith("Z") and (not name.startswith("Z_") or name.endswith("GARNISH")):
              tables[name] = [r[1] for r in c.execute("PRAGMA table_info(%s)" % name) if r[1] != "ZNOTE"]
      print(json.dumps({"keys": keys, "tables": tables}, sort_keys=True))
      """
    try folder.write("layout.py", layout)
    func read(_ store: String) throws -> String {
      let r = runExecutable(URL(fileURLWithPath: "/usr/bin/env"), ["python3", folder.path + "/layout.py", store])
      try #require(r.exitCode == 0, "\(r.stderr)")
      return r.stdout
    }
    let before = try read(original)
    #expect(before.contains("\"Z_1GARNISH\": [\"Z_1COCKTAILS\", \"Z_3GARNISH\"]"), "\(before)")
    let r = runMapc([
      "migrate", "--model", Self.data + "/Cocktails/App", "--exclude", "Stale", "--define", "NOTES", "--store",
      folder.path + "/default.store",
    ])
    try #require(r.exitCode == 0, "\(r.stderr)")
    #expect(try read(folder.path + "/default.store") == before)
    let note = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print([r[1] for r in c.execute('PRAGMA table_info(ZGARNISH)')])",
        folder.path + "/default.store",
      ])
    #expect(note.stdout.contains("'ZNOTE'"), "\(note.stdout)")
    // Every BLOB (composite arrays as SwiftData's JSON bytes, UUIDs) is kept byte for byte.
    try folder.write("compare.py", CompositeArrayTests.compare)
    let blobs = runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", folder.path + "/compare.py", original, folder.path + "/default.store"])
    #expect(blobs.stdout.contains("\"differ\": 0") && !blobs.stdout.contains("\"same\": 0,"), "\(blobs.stdout)")
  }
}
