import Foundation
import MapTestSupport
import Testing

/// Issue 38: `mapc migrate --direct` (one step to the target, as Core Data's automatic migration)
/// against the chain (one version at a time), on small bundles made here; each case where the two
/// differ (Specs/migrate.md §3), and steps between versions of equal hashes, which neither runs.
/// What the stores hold afterwards is read by python3's json.
@Suite(.enabled(if: mapcExecutableProblem == nil, Comment(rawValue: mapcExecutableProblem ?? "")))
struct DirectAndChainTests {
  /// A bundle of versions named V1, V2, … whose entity `Note` has the given attribute elements.
  static func bundle(_ versions: [String], in dir: URL) throws -> URL {
    let texts = versions.enumerated().map { k, attributes in
      (
        name: "V\(k + 1)",
        contents: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(k + 1)">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                \(attributes)
            </entity>
        </model>
        """
      )
    }
    return try ModelBundles.bundle(versions: texts, named: "N", in: dir)
  }

  /// A JSON store at V1 holding two notes with `values` for `attribute`.
  static func store(_ bundle: URL, attribute: String, in dir: URL) throws -> String {
    let metadata = try ModelBundles.storeMetadata(bundle.appendingPathComponent("V1.xcdatamodel"))
    let notes: [[String: Any]] = [
      ["id": "Note/1", "title": "a", attribute: "one"], ["id": "Note/2", "title": "b", attribute: "two"],
    ]
    let path = dir.appendingPathComponent("s.json").path
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": ["Note": notes]]).write(
      to: URL(fileURLWithPath: path))
    return path
  }

  /// `attribute` of each note of the JSON store at `path` (python3), in id order.
  static func values(_ path: String, _ attribute: String) -> String {
    runExecutable(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "python3", "-c",
        "import json,sys; o=json.load(open(sys.argv[1]))['objects']['Note']; print([n.get(sys.argv[2]) for n in sorted(o, key=lambda n: n['id'])])",
        path, attribute,
      ]
    ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func migrate(_ bundle: URL, _ store: String, direct: Bool, into dir: URL) throws -> (MapcResult, String) {
    let out = dir.appendingPathComponent(direct ? "direct.json" : "chain.json").path
    let r = runMapc(
      ["migrate", "--model", bundle.path, "--store", store, "--output", out, "--allow-data-loss"]
        + (direct ? ["--direct"] : []))
    return (r, out)
  }

  @Test func anAttributeRemovedAndAddedAgainIsKeptOnlyDirectly() throws {
    let dir = try FileManagerTemp.folder("direct-readded")
    defer { FileManagerTemp.remove(dir.path) }
    // V3's body hashes otherwise than V1's (a hash modifier), else V1 and V3 would be one
    // version to Core Data.
    let body = #"<attribute name="body" optional="YES" attributeType="String"/>"#
    let again = #"<attribute name="body" optional="YES" attributeType="String" versionHashModifier="again"/>"#
    let bundle = try Self.bundle([body, "", again], in: dir)
    let store = try Self.store(bundle, attribute: "body", in: dir)
    let (chain, chained) = try migrate(bundle, store, direct: false, into: dir)
    try #require(chain.exitCode == 0, "\(chain.stderr)")
    #expect(chain.stderr.contains("in 2 steps"), "\(chain.stderr)")
    #expect(Self.values(chained, "body") == "[None, None]")
    let (direct, directed) = try migrate(bundle, store, direct: true, into: dir)
    try #require(direct.exitCode == 0, "\(direct.stderr)")
    #expect(direct.stderr.contains("in 1 step"), "\(direct.stderr)")
    #expect(Self.values(directed, "body") == "['one', 'two']")
  }

  @Test func renamingsThroughVersionsAreKeptOnlyByTheChain() throws {
    let dir = try FileManagerTemp.folder("direct-renamed")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(
      [
        #"<attribute name="note" optional="YES" attributeType="String"/>"#,
        #"<attribute name="details" optional="YES" attributeType="String" elementID="note"/>"#,
        #"<attribute name="body" optional="YES" attributeType="String" elementID="details"/>"#,
      ], in: dir)
    let store = try Self.store(bundle, attribute: "note", in: dir)
    let (chain, chained) = try migrate(bundle, store, direct: false, into: dir)
    try #require(chain.exitCode == 0, "\(chain.stderr)")
    #expect(Self.values(chained, "body") == "['one', 'two']")
    let (direct, directed) = try migrate(bundle, store, direct: true, into: dir)
    try #require(direct.exitCode == 0, "\(direct.stderr)")
    #expect(Self.values(directed, "body") == "[None, None]")
    #expect(direct.stderr.contains("Note.note: 2 values"), "\(direct.stderr)")
    // lint says so: the chain drops nothing; the direct steps from V1 drop Note.note.
    let chainLint = runMapc(["lint", bundle.path])
    #expect(!chainLint.stderr.contains("[chain-step-drops-data]"), "\(chainLint.stderr)")
    let directLint = runMapc(["lint", "--direct", bundle.path])
    #expect(directLint.exitCode == 0, "\(directLint.stderr)")
    #expect(
      directLint.stderr.contains(
        "the direct step 'V1' → 'V3' (inferred, as Core Data's automatic migration) drops Note.note"),
      "\(directLint.stderr)")
  }

  /// V2 hashes like V1 (only a renaming identifier that names nothing changes, which is not in
  /// the hash): no step is run for it; the store keeps its bytes.
  @Test func versionsOfEqualHashesAreNoStep() throws {
    let dir = try FileManagerTemp.folder("direct-compatible")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try Self.bundle(
      [
        #"<attribute name="body" optional="YES" attributeType="String"/>"#,
        #"<attribute name="body" optional="YES" attributeType="String" elementID="nothing"/>"#,
        #"<attribute name="body" optional="YES" attributeType="String"/><attribute name="extra" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>"#,
      ], in: dir)
    let store = try Self.store(bundle, attribute: "body", in: dir)
    let before = FileManager.default.contents(atPath: store)
    let toV2 = runMapc(["migrate", "--model", bundle.path, "--store", store, "--to", "V2"])
    #expect(toV2.exitCode == 0, "\(toV2.stderr)")
    #expect((toV2.stdout + toV2.stderr).contains("nothing to do"), "\(toV2.stderr)")
    #expect(FileManager.default.contents(atPath: store) == before)
    // V1 → V3: one step (V2 → V3), V1 → V2 left out; the renaming identifier is reported once.
    let (chain, chained) = try migrate(bundle, store, direct: false, into: dir)
    try #require(chain.exitCode == 0, "\(chain.stderr)")
    #expect(chain.stderr.contains("in 1 step"), "\(chain.stderr)")
    #expect(Self.values(chained, "body") == "['one', 'two']")
    let lint = runMapc(["lint", bundle.path])
    #expect(lint.exitCode == 0, "\(lint.stderr)")
    let unmatched = lint.stderr.split(separator: "\n").filter { $0.contains("[chain-renaming-identifier-unmatched]") }
    #expect(unmatched.count == 1, "\(lint.stderr)")
    #expect(lint.stderr.contains("[chain-version-unchanged]"))
  }
}
