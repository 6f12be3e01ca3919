import Foundation
import MapFuzzing
import MapTestSupport
import Testing

/// Every fuzz target's body (`FuzzEntries`, what `Fuzz/`'s libFuzzer executables run) fed, in
/// the ordinary test build, its regression inputs (`Fuzz/regressions/TARGET`), seeds of the
/// kinds it reads (the repository's files, the hand-written ones of `Fuzz/seeds/TARGET` that
/// `Fuzz/run.sh` uses too, and `../shared`'s when it is beside it), and
/// deterministic mutations of each seed (bytes flipped, inserted, deleted, repeated, cut off).
/// A crash fails the test run; a file a reader leaves in the temporary folder fails the test.
/// This is the per-commit replay; the coverage-guided runs with the sanitizers are
/// `.ci/run fuzz` (Fuzz/README.md), a CI job of their own.
@Suite(.serialized) struct FuzzReplayTests {
  static let root = SharedPaths.packageRoot

  /// Regular files under `folders` whose name satisfies `named`, at most `size` bytes, sorted,
  /// the first `limit`.
  static func files(_ folders: [URL?], limit: Int, size: Int = 256 << 10, named: (String) -> Bool) -> [[UInt8]] {
    var found: [URL] = []
    for folder in folders.compactMap({ $0 }) {
      guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey]) else {
        continue
      }
      for case let url as URL in walk where named(url.lastPathComponent) {
        let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
        if values?.isRegularFile == true, (values?.fileSize ?? .max) <= size { found.append(url) }
      }
    }
    return found.map(\.path).sorted().prefix(limit).compactMap { FileManager.default.contents(atPath: $0) }.map {
      Array($0)
    }
  }

  /// `seed` and `count` mutations of it, drawn from `rng`.
  static func mutations(of seed: [UInt8], _ count: Int, _ rng: inout SplitMix64) -> [[UInt8]] {
    var result = [seed]
    for _ in 0..<count {
      var b = seed
      let at = b.isEmpty ? 0 : Int.random(in: 0..<b.count, using: &rng)
      switch Int.random(in: 0..<5, using: &rng) {
      case 0 where !b.isEmpty: b[at] = UInt8.random(in: 0...255, using: &rng)
      case 1: b.insert(UInt8.random(in: 0...255, using: &rng), at: at)
      case 2 where !b.isEmpty: b.removeSubrange(at..<min(b.count, at + Int.random(in: 1...64, using: &rng)))
      case 3 where !b.isEmpty: b.insert(contentsOf: b[at..<min(b.count, at + 32)], at: at)
      default: b = Array(b.prefix(at))
      }
      result.append(b)
    }
    return result
  }

  /// Feeds `target`'s regression inputs, `seeds` and its hand-written seeds (`Fuzz/seeds/TARGET`,
  /// which `Fuzz/run.sh` uses too), and their mutations, to `body`.
  static func replay(
    _ target: String, seeds: [[UInt8]] = [], mutations count: Int = 12, _ body: ([UInt8]) -> Void
  ) {
    let regressions = files([root.appendingPathComponent("Fuzz/regressions/\(target)")], limit: 100) { _ in true }
    let seeds = seeds + files([root.appendingPathComponent("Fuzz/seeds/\(target)")], limit: 100) { _ in true }
    #expect(!(seeds + regressions).isEmpty, "\(target): no input to replay")
    var rng = SplitMix64(seed: UInt64(truncatingIfNeeded: target.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
    for input in regressions { body(input) }
    for seed in seeds {
      for input in mutations(of: seed, count, &rng) { body(input) }
    }
  }

  /// The files this process's fuzz bodies left in the temporary folder.
  static func leftovers() -> [String] {
    let folder = NSTemporaryDirectory()
    let mine = ["mapc-fuzz-\(getpid())-", "fuzz-\(getpid()).sqlite"]
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
      mine.contains { name.hasPrefix($0) }
    }
  }

  static let mappings = root.appendingPathComponent("Mappings")
  static let examples = root.appendingPathComponent("Examples")

  @Test func readersOfModelsAndMappings() {
    Self.replay(
      "model-xml",
      seeds: Self.files([Self.mappings, Self.examples, SharedPaths.corpus], limit: 30) {
        $0 == "contents"
      }
    ) { FuzzEntries.modelXML($0) }
    let mappingFiles = Self.files([Self.mappings, Self.examples], limit: 30) { $0.hasSuffix(".xml") }
    Self.replay("mapping-xml", seeds: mappingFiles) { FuzzEntries.mappingXML($0) }
    Self.replay(
      "xcmappingmodel",
      seeds: Self.files([Self.mappings, SharedPaths.corpus], limit: 10) {
        $0 == "xcmapping.xml"
      }
    ) { FuzzEntries.xcodeMapping($0) }
    let mappingPaths = (FileManager.default.subpaths(atPath: Self.mappings.path) ?? []).filter { $0.hasSuffix(".xml") }
    let planSeeds = mappingPaths.sorted().prefix(8).compactMap {
      FuzzEntries.planSeed(mapping: Self.mappings.appendingPathComponent($0).path)
    }
    Self.replay("plan", seeds: planSeeds) { FuzzEntries.plan($0) }
    #expect(Self.leftovers() == [])
  }

  @Test func expressionsArchivesAndPropertyLists() throws {
    // The expressions of the worked mappings (element text), and a few of the language's forms.
    var expressions: Set<String> = [
      "FUNCTION($source.name, 'uppercaseString')", "$source.items.@count > 2 AND name BEGINSWITH[cd] 'a'",
      "SUBQUERY(items, $x, $x.price > 10).@count", "{1, 2, 3}[SIZE]", "now() - 86400",
    ]
    for text in Self.files([Self.mappings], limit: 40, named: { $0.hasSuffix(".xml") }) {
      let s = String(decoding: text, as: UTF8.self)
      for m in s.matches(of: /<(?:attribute|relationship|source|filter|forEach)[^>]*>([^<]{1,400})</) {
        expressions.insert(String(m.1))
      }
    }
    Self.replay("expression", seeds: expressions.sorted().prefix(200).map { Array($0.utf8) }) {
      FuzzEntries.expression($0)
    }
    // The archived expressions inside Xcode mapping models (base64 in xcmapping.xml).
    var archives: [[UInt8]] = []
    for text in Self.files(
      [Self.mappings, SharedPaths.corpus], limit: 20, size: 2 << 20,
      named: {
        $0 == "xcmapping.xml"
      })
    {
      let s = String(decoding: text, as: UTF8.self)
      for m in s.matches(of: /type="binary"[^>]*>([A-Za-z0-9+\/=\s]{40,})</).prefix(20) {
        if let data = Data(base64Encoded: String(m.1), options: .ignoreUnknownCharacters) {
          archives.append(Array(data))
        }
      }
    }
    archives = Array(archives.prefix(40))
    Self.replay("bplist", seeds: archives, mutations: 6) { FuzzEntries.binaryPlist($0) }
    Self.replay("keyed-archive", seeds: archives, mutations: 6) { FuzzEntries.keyedArchive($0) }
    Self.replay("text-plist", mutations: 200) { FuzzEntries.textPlist($0) }
    #expect(Self.leftovers() == [])
  }

  @Test func storesAndSettingsFiles() throws {
    Self.replay(
      "json-store", seeds: Self.files([Self.mappings], limit: 10) { $0.hasSuffix(".json") }
    ) {
      FuzzEntries.jsonStore($0)
    }
    Self.replay(
      "fixture-file",
      seeds: Self.files([Self.mappings, SharedPaths.fixtures], limit: 10) {
        $0 == "fixture.json"
      }
    ) { FuzzEntries.fixtureFile($0) }
    Self.replay("lock-file", mutations: 100) { FuzzEntries.lockFile($0) }
    Self.replay(
      "swift-schema",
      seeds: Self.files([Self.examples], limit: 6) { $0.hasSuffix(".swift") }
    ) { FuzzEntries.swiftSchema($0) }
    #expect(Self.leftovers() == [])
  }

  /// Core Data stores of `../shared` up to 256 KB and their model caches (the stores' models
  /// give the reader its layouts, as `Fuzz/run.sh` gives them), and the first model caches of
  /// the stores and SwiftData stores (python3's sqlite3 reads them).
  @Test(.needsShared, .enabled(if: TestTools.python3 != nil, "python3 reads the stores' model caches"))
  func coreDataStoresAndModelCaches() throws {
    let folder = try #require(SharedPaths.stores)
    let bundles = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".xcdatamodeld") }.sorted().map { folder.appendingPathComponent($0).path }
    setenv("FUZZ_SQLITE_MODELS", bundles.joined(separator: "\n"), 1)
    let stores = Self.files([folder], limit: 6) { $0.hasSuffix(".sqlite") }
    Self.replay("sqlite-store", seeds: stores, mutations: 3) { FuzzEntries.sqliteStore($0) }
    try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "fuzz-\(getpid()).sqlite")
    // A model cache: python3's sqlite3 reads the Z_MODELCACHE rows of those stores.
    var caches: [[UInt8]] = []
    do {
      let python3 = try #require(TestTools.python3)
      let script =
        "import sqlite3, sys, glob\nfound = 0\n"
        + "for p in sorted(glob.glob(sys.argv[1] + '/**/*.sqlite', recursive=True) + glob.glob(sys.argv[2] + '/**/*.store', recursive=True)):\n"
        + "  try:\n    rows = sqlite3.connect('file:' + p + '?mode=ro&immutable=1', uri=True).execute('SELECT Z_CONTENT FROM Z_MODELCACHE').fetchall()\n"
        + "  except Exception: continue\n"
        + "  for (b,) in rows[:1]:\n    print(b.hex()); found += 1\n"
        + "  if found == 4: break\n"
      let r = runExecutable(python3, ["-c", script, folder.path, SharedPaths.swiftdata?.path ?? folder.path])
      #expect(r.exitCode == 0, "\(r.stderr)")
      caches = r.stdout.split(separator: "\n").compactMap { line in
        var bytes: [UInt8] = []
        var i = line.startIndex
        while i < line.endIndex, let j = line.index(i, offsetBy: 2, limitedBy: line.endIndex) {
          guard let b = UInt8(line[i..<j], radix: 16) else { return nil }
          bytes.append(b)
          i = j
        }
        return bytes
      }
    }
    Self.replay("model-cache", seeds: caches, mutations: 6) {
      FuzzEntries.modelCache($0)
    }
    #expect(Self.leftovers() == [])
  }
}
