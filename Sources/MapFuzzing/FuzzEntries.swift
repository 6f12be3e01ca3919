// The bodies of the fuzz targets (Fuzz/, issue 17 and 27). They live in the main package so that
// they reach its `package` declarations and are compiled by every `swift build`: a change that
// breaks a fuzz target breaks the ordinary build, not only the fuzz build. Fuzz/Package.swift's
// executables only hand libFuzzer's input to these functions. Each reads one input with one
// reader; any error a reader throws is ignored, as the fuzzer wants.
import Foundation
import MapArchives
import MapCompiler
import MapJSON
import MapModelReader
import MapRuntime
import MapSQLite
import MapSwiftSchema
import MapSyntax
import MapTools

/// One entry point per fuzz target (`Fuzz/README.md`). Not part of mapc's API for apps.
public enum FuzzEntries {
  /// `model-xml`: XML reader, model loader, version hashes and the store layout.
  public static func modelXML(_ bytes: [UInt8]) {
    guard let document = try? XMLReader.parse(bytes: bytes, path: "contents"),
      let loaded = try? ModelLoader.load(document: document, versionName: nil)
    else { return }
    _ = VersionHasher.entityHashes(of: loaded.model)
    _ = StoreLayout(model: loaded.model)
  }

  /// `mapping-xml`: XML reader and mapping reader.
  public static func mappingXML(_ bytes: [UInt8]) {
    guard let document = try? XMLReader.parse(bytes: bytes, path: "m.xml") else { return }
    _ = MappingReader.read(document)
  }

  /// `expression`: parser, printer and the parser again on the printed text.
  public static func expression(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let e = try? ExpressionParser.parseExpression(text) {
      _ = try? ExpressionParser.parseExpression(e.description)
    }
    if let p = try? ExpressionParser.parsePredicate(text) {
      _ = try? ExpressionParser.parsePredicate(p.description)
    }
  }

  /// `plan`: plan verifier and decoder.
  public static func plan(_ bytes: [UInt8]) {
    _ = try? PlanReader.verify(bytes)
    _ = try? PlanReader.decode(bytes)
  }

  /// A seed of the `plan` target: the plan `mapc compile` writes for the mapping at `path`
  /// (nil when it does not compile), so the target seeds itself with no mapc built beforehand.
  public static func planSeed(mapping path: String) -> [UInt8]? {
    let result = MappingCompilation.compile(mappingPath: path, source: nil, destination: nil)
    guard let plan = result.plan else { return nil }
    return PlanWriter.encode(plan, relativeTo: PlanReader.folder(of: path))
  }

  /// `json-store`: the JSON store reader against a model with every attribute type (and two
  /// related entities), whole, and a chunk at a time as `store convert --memory-limit 16K`
  /// reads it into SQLite (both entities streamed, references out of a chunk as stubs:
  /// `ChunkLinks`; the ordered `A.many`'s indexes from a first pass, `MemberPlaces`; at
  /// most 10,000 chunks).
  public static func jsonStore(_ bytes: [UInt8]) {
    let input = InputBytes(bytes, path: "s.json")
    _ = try? StoreReader.read(input, layout: typedLayout, maxErrors: 20, splitMinimum: .max)
    let path = scratchFile("chunks.json", bytes)
    let scratch = path + ".d"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer {
      try? FileManager.default.removeItem(atPath: scratch)
      try? FileManager.default.removeItem(atPath: path)
    }
    let format = JSONStoreFormat()
    let streamed = Set(typedLayout.entities.map(\.index))
    if let chunks = try? format.openChunks(
      path, layout: typedLayout, streamed: streamed, stubs: true, positionsOnly: ["A.many"],
      budget: MemoryBudget(limit: 16 << 10), maxErrors: 20, scratch: scratch)
    {
      var taken = 0
      while taken < 10_000, (try? chunks.next()).flatMap({ $0 }) != nil { taken += 1 }
      _ = try? chunks.finish()
    }
  }

  /// `xcmappingmodel`: XML reader and Xcode mapping model reader.
  public static func xcodeMapping(_ bytes: [UInt8]) {
    guard let xml = try? XMLReader.parse(bytes: bytes, path: "xcmapping.xml") else { return }
    _ = XcodeMappingReader.read(xml)
  }

  /// `text-plist`: the old text property list reader (an Xcode project's `project.pbxproj`).
  public static func textPlist(_ bytes: [UInt8]) {
    _ = try? TextPropertyListReader.read(bytes)
  }

  /// `bplist`: the binary property list decoder.
  public static func binaryPlist(_ bytes: [UInt8]) {
    _ = try? BinaryPropertyListReader.read(bytes)
  }

  /// `keyed-archive`: the keyed-archive decoder, as an expression, a predicate and user info;
  /// and the Transformable reader (a store's archived values), with its string spans, the view
  /// that leaves ASCII text at its spans, and the verifier against what was decoded.
  public static func keyedArchive(_ bytes: [UInt8]) {
    _ = try? ExpressionArchiveReader.expression(bytes)
    _ = try? ExpressionArchiveReader.predicate(bytes)
    _ = try? ExpressionArchiveReader.userInfo(bytes)
    guard let value = TransformableArchive.decode(bytes) else { return }
    var spans: [Int] = []
    bytes.withUnsafeBytes { raw in
      _ = TransformableArchive.decode(raw, stringSpans: &spans, textAtSpans: true)
      for i in stride(from: 0, to: spans.count, by: 2) where spans[i] >= 0 {
        guard spans[i] + spans[i + 1] <= raw.count else { fatalError("a string span past the archive") }
      }
      var verifier = TransformableArchive.Verifier()
      if verifier.matches(value, raw), (try? TransformableArchive.encode(value)) != bytes {
        fatalError("the verifier took bytes for the encoding of a value that encodes otherwise")
      }
    }
  }

  /// `sqlite-store`: `store info`, the metadata peek, a full read of a Core Data SQLite store
  /// written to `TMPDIR`, with the layout of the model version (of the bundles named, one a line,
  /// in `FUZZ_SQLITE_MODELS`) whose hashes the store holds, or the closest one, and a read in
  /// chunks as `store convert --memory-limit 64K` reads it (stubs, ordered relationships counted,
  /// at most 10,000 chunks). Reading must never write beside the store (its journal, `-wal` or
  /// `-shm`): that is a crash.
  public static func sqliteStore(_ bytes: [UInt8]) {
    guard FileManager.default.createFile(atPath: sqlitePath, contents: Data(bytes)) else {
      fatalError("cannot write \(sqlitePath)")
    }
    let format = SQLiteStoreFormat()
    _ = try? SQLiteStoreFormat.info(sqlitePath)
    let hashes = (try? format.peekMetadata(sqlitePath))?.entityVersionHashes
    let layout = sqliteLayout(for: hashes)
    _ = try? format.read(sqlitePath, layout: layout, options: StoreReadOptions(maxErrors: 20))
    let plan = StreamingPlan(
      copying: layout.model, stubs: true, listsMembers: false,
      sourceCheck: { format.cannotStream(source: $0, in: layout.model) })
    let streamed = Set(layout.entities.filter { plan.streamed.contains($0.name) }.map(\.index))
    // (The reader's spill goes in a folder of its own, removed after.)
    let scratch = NSTemporaryDirectory() + "/fuzz-chunks"
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    if let chunks = try? format.openChunks(
      sqlitePath, layout: layout, streamed: streamed, stubs: true, positionsOnly: plan.positionsOnly,
      budget: MemoryBudget(limit: 64 << 10), maxErrors: 20, scratch: scratch)
    {
      var taken = 0
      while taken < 10_000, (try? chunks.next()).flatMap({ $0 }) != nil { taken += 1 }
      _ = try? chunks.finish()
    }
    for suffix in ["-journal", "-wal", "-shm"] where FileManager.default.fileExists(atPath: sqlitePath + suffix) {
      fatalError("reading the store created \(sqlitePath)\(suffix)")
    }
  }

  /// `swift-schema`: the SwiftData schema reader on one Swift file (issue 40): mapc's own scan,
  /// swift-syntax within the limits of Specs/limits.md, and the model built from what it finds.
  public static func swiftSchema(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? SwiftSchema.read(sources: [(path: "Fuzz.swift", text: text)], name: "Fuzz")
  }

  /// `fixture-file`: a `fixture.json` of `mapc test`, read and checked (written to `TMPDIR`).
  public static func fixtureFile(_ bytes: [UInt8]) {
    let path = scratchFile("fixture.json", bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = try? FixtureFile.read(path)
  }

  /// `lock-file`: a model lock of `mapc lock`, read (written to `TMPDIR`).
  public static func lockFile(_ bytes: [UInt8]) {
    let path = scratchFile("model.lock", bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = try? ModelLock.read(path)
  }

  /// `model-cache`: a store's `Z_MODELCACHE` row (raw DEFLATE of a keyed archive): inflated,
  /// unarchived and made a model, whose hashes and layout are then worked out.
  public static func modelCache(_ bytes: [UInt8]) {
    guard let result = try? CoreDataModelCacheReader.model(content: bytes) else { return }
    _ = VersionHasher.entityHashes(of: result.model)
    _ = StoreLayout(model: result.model)
  }

  /// `bytes` written to `name` in `TMPDIR` (the readers take paths).
  static func scratchFile(_ name: String, _ bytes: [UInt8]) -> String {
    let path = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/mapc-fuzz-\(getpid())-" + name
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      fatalError("cannot write \(path)")
    }
    return path
  }

  static func layout(_ contents: String) -> StoreLayout {
    do {
      let document = try XMLReader.parse(bytes: Array(contents.utf8), path: "contents")
      return StoreLayout(model: try ModelLoader.load(document: document, versionName: nil).model)
    } catch {
      fatalError("the fuzz model does not load: \(error)")
    }
  }

  static let typedLayout = layout(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    <entity name="A"><attribute name="b" optional="YES" attributeType="Binary"/>
    <attribute name="bo" optional="YES" attributeType="Boolean"/><attribute name="d" optional="YES" attributeType="Date"/>
    <attribute name="de" optional="YES" attributeType="Decimal"/><attribute name="do" optional="YES" attributeType="Double"/>
    <attribute name="i" optional="YES" attributeType="Integer 16"/>
    <attribute name="l" optional="YES" attributeType="Integer 64"/>
    <attribute name="s" optional="YES" attributeType="String"/>
    <attribute name="t" optional="YES" attributeType="Transformable"/>
    <attribute name="u" optional="YES" attributeType="UUID"/>
    <relationship name="many" optional="YES" toMany="YES" ordered="YES" destinationEntity="B" \
    inverseName="one" inverseEntity="B"/></entity>
    <entity name="B"><attribute name="s" optional="YES" attributeType="String"/>
    <relationship name="one" optional="YES" maxCount="1" destinationEntity="A" inverseName="many" \
    inverseEntity="A"/></entity>
    </model>
    """
  )

  static let sqliteFallback = layout(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
    <entity name="A"><attribute name="s" optional="YES" attributeType="String"/>
    <relationship name="many" optional="YES" toMany="YES" destinationEntity="B" inverseName="one" \
    inverseEntity="B"/></entity>
    <entity name="B"><attribute name="i" optional="YES" attributeType="Integer 64"/>
    <relationship name="one" optional="YES" maxCount="1" destinationEntity="A" inverseName="many" \
    inverseEntity="A"/></entity>
    </model>
    """
  )

  static let sqliteBundles: [ModelVersions] = {
    let list = ProcessInfo.processInfo.environment["FUZZ_SQLITE_MODELS"] ?? ""
    return list.split(separator: "\n").compactMap { try? ModelVersions.load(bundle: String($0)) }
  }()

  static let sqlitePath = NSTemporaryDirectory() + "fuzz-\(getpid()).sqlite"

  static func sqliteLayout(for hashes: [String: String]?) -> StoreLayout {
    guard let hashes, !sqliteBundles.isEmpty else { return sqliteFallback }
    var closest: (versions: ModelVersions, index: Int, differing: Int)?
    for versions in sqliteBundles {
      switch StoreVersion.identify(hashes, in: versions) {
      case .version(let i): return StoreLayout(model: versions.versions[i].model)
      case .unknown(let i, let differing):
        if closest.map({ differing.count < $0.differing }) ?? true { closest = (versions, i, differing.count) }
      }
    }
    guard let closest, closest.versions.versions.indices.contains(closest.index) else { return sqliteFallback }
    return StoreLayout(model: closest.versions.versions[closest.index].model)
  }
}
