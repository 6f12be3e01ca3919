import Foundation
import MapTestSupport
import Testing

/// A store of one configuration of a model (an app with a "Cloud" store and a "Local" one): Core
/// Data hashes, numbers and lays it out from the configuration's entities only (reference §3,
/// §8.1). mapc finds the configuration from the store's hashes. The oracles: the reference's
/// numbering rule applied by hand to the configuration's entities, and python3's sqlite3.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct ConfigurationStoreTests {
  static func model(_ extra: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Draft" representedClassName="Draft" syncable="YES">
            <attribute name="body" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Note" representedClassName="Note" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>\(extra)
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="note" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag" representedClassName="Tag" syncable="YES">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="note" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
        </entity>
        <configuration name="Cloud">
            <memberEntity name="Tag"/>
            <memberEntity name="Note"/>
        </configuration>
        <configuration name="Local">
            <memberEntity name="Draft"/>
        </configuration>
    </model>
    """
  }

  /// A JSON store of the Cloud configuration: its hashes are the Note's and the Tag's only.
  static func cloudStore(_ bundle: URL, in dir: URL, version: String? = nil) throws -> URL {
    var metadata = try ModelBundles.storeMetadata(bundle, version: version)
    let hashes = try #require(metadata["entityVersionHashes"] as? [String: Any])
    metadata["entityVersionHashes"] = hashes.filter { $0.key != "Draft" }
    let objects: [String: Any] = [
      "Note": [["id": "Note/1", "title": "a", "tags": ["Tag/1", "Tag/2"]]],
      "Tag": [["id": "Tag/1", "label": "x", "note": "Note/1"], ["id": "Tag/2", "label": "y", "note": "Note/1"]],
    ]
    let json = dir.appendingPathComponent("cloud.json")
    try JSONSerialization.data(withJSONObject: ["metadata": metadata, "objects": objects]).write(to: json)
    return json
  }

  @Test func aConfigurationsStoreIsLaidOutFromItsEntities() throws {
    let dir = try FileManagerTemp.folder("configuration-store")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(Self.model(), named: "C", in: dir)
    let json = try Self.cloudStore(bundle, in: dir)
    let store = dir.appendingPathComponent("cloud.sqlite").path
    let imported = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    // Note is 1 and Tag 2 (Draft, not in the configuration, takes no number).
    let p = ModelBundles.python(
      """
      import plistlib
      tables = sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
      assert tables == ['ZNOTE', 'ZTAG', 'Z_METADATA', 'Z_MODELCACHE', 'Z_PRIMARYKEY'], tables
      assert list(db.execute('SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT')) == [(1, 'Note', 1), (2, 'Tag', 2)]
      assert list(db.execute('SELECT Z_PK, Z_ENT, ZNOTE, ZLABEL FROM ZTAG ORDER BY Z_PK')) == [(1, 2, 1, 'x'), (2, 2, 1, 'y')]
      meta = plistlib.loads(db.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()[0])
      assert sorted(meta['NSStoreModelVersionHashes']) == ['Note', 'Tag'], meta
      """, on: store)
    #expect(p.exitCode == 0, "\(p.stderr)")
    let check = runMapc(["store", "check", store, "--model", bundle.path])
    #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
    let back = dir.appendingPathComponent("back.json").path
    let export = runMapc(["store", "export", store, "--model", bundle.path, "-o", back])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let objects = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: back))) as? [String: Any]
    let tags = (objects?["objects"] as? [String: Any])?["Tag"] as? [[String: Any]]
    #expect(tags?.compactMap { $0["label"] as? String } == ["x", "y"])
  }

  /// A migration of the configuration's store takes each version with its entities only.
  @Test func aConfigurationsStoreMigrates() throws {
    let dir = try FileManagerTemp.folder("configuration-migrate")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(
      versions: [
        ("C", Self.model()),
        (
          "C 2",
          Self.model(
            "\n        <attribute name=\"pinned\" attributeType=\"Boolean\" defaultValueString=\"NO\" usesScalarValueType=\"YES\"/>"
          )
        ),
      ], named: "C", in: dir, current: "C 2")
    let json = try Self.cloudStore(bundle, in: dir, version: "C")
    let store = dir.appendingPathComponent("cloud.sqlite").path
    let imported = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let out = dir.appendingPathComponent("cloud2.sqlite").path
    let migrated = runMapc(["migrate", "--model", bundle.path, "--store", store, "--output", out])
    try #require(migrated.exitCode == 0, "\(migrated.stderr)")
    #expect(migrated.stderr.contains("configuration 'Cloud'"))
    let p = ModelBundles.python(
      """
      assert list(db.execute('SELECT Z_PK, Z_ENT, ZPINNED, ZTITLE FROM ZNOTE')) == [(1, 1, 0, 'a')]
      assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'ZDRAFT'").fetchone()[0] == 0
      """, on: out)
    #expect(p.exitCode == 0, "\(p.stderr)")
  }
}
