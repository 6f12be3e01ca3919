import Foundation
import MapTestSupport
import Testing

/// Derived attributes in a store mapc writes (`Specs/sqlite-store.md` §9): Core Data's triggers
/// (`Z_DA_…`) and the values its fill statements give. The oracles are outside mapc: the text
/// of a `now()` trigger as a real store holds it (published from a device's store), values
/// worked out by hand from the objects, and python3's sqlite3 running the triggers with
/// stand-ins for Core Data's functions, so that a trigger that does not do what Core Data's does
/// fails here.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct DerivedAttributeTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="done" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
            <attribute name="price" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            <attribute name="listName" optional="YES" attributeType="String" derived="YES" derivationExpression="list.name"/>
            <attribute name="upperListName" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(list.name)"/>
            <attribute name="update" optional="YES" attributeType="Date" derived="YES" derivationExpression="now()" usesScalarValueType="NO"/>
            <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="items" inverseEntity="List"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="List" representedClassName="List" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="canon" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>
            <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.@count" usesScalarValueType="YES"/>
            <attribute name="total" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.price.@sum" usesScalarValueType="YES"/>
            <attribute name="doneCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.done.@count" usesScalarValueType="YES"/>
            <attribute name="top" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.price.@max" usesScalarValueType="YES"/>
            <attribute name="odd" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.price.@avg" usesScalarValueType="YES"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="list" inverseEntity="Item"/>
        </entity>
        <entity name="Tag" representedClassName="Tag" syncable="YES">
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="uses" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.@count" usesScalarValueType="YES"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
    </model>
    """

  static var objects: [String: Any] {
    [
      "List": [
        ["id": "List/1", "name": "Crème Brûlée", "items": ["Item/1", "Item/2", "Item/3"]],
        ["id": "List/2", "name": "Empty", "items": [String]()],
      ],
      "Item": [
        ["id": "Item/1", "done": true, "price": 5, "list": "List/1", "tags": ["Tag/1"]],
        ["id": "Item/2", "done": false, "price": 7, "list": "List/1", "tags": ["Tag/1", "Tag/2"]],
        ["id": "Item/3", "done": true, "price": NSNull(), "list": "List/1", "tags": [String]()],
        ["id": "Item/4", "done": NSNull(), "price": 2, "list": NSNull(), "tags": ["Tag/1"]],
      ],
      "Tag": [
        ["id": "Tag/1", "label": "a", "items": ["Item/1", "Item/2", "Item/4"]],
        ["id": "Tag/2", "label": "b", "items": ["Item/2"]],
      ],
    ]
  }

  static func store(_ dir: URL) throws -> (bundle: URL, store: String) {
    let bundle = try ModelBundles.bundle(model, named: "D", in: dir)
    return (bundle, try ModelBundles.importedStore(bundle, objects: objects, in: dir))
  }

  /// Python's stand-ins for the functions Core Data registers on its connection.
  static let functions = """
    import os
    db.create_function('NSCoreDataDATriggerUpdatedAffectedObjectValue', 5, lambda *a: None)
    db.create_function('NSCoreDataDATriggerInsertUpdatedAffectedObjectValue', 5, lambda *a: None)
    db.create_function('NSCoreDataToUpper', 1, lambda s: None if s is None else s.upper())
    db.create_function('NSCoreDataCanonical', 1, lambda s: None if s is None else s.lower())
    db.create_function('NSCoreDataNow', 0, lambda: 99.0)
    epoch = os.environ.get('SOURCE_DATE_EPOCH')
    now = float(epoch) - 978307200 if epoch else 0.0
    def one(sql): return db.execute(sql).fetchone()
    """

  @Test func theValuesAreCoreDatasFillsWorkedOutByHand() throws {
    let dir = try FileManagerTemp.folder("derived-values")
    defer { FileManagerTemp.remove(dir.path) }
    let (_, store) = try Self.store(dir)
    let p = ModelBundles.python(
      """
      \(Self.functions)
      lists = {r[0]: r[1:] for r in db.execute('SELECT ZNAME, ZCOUNT, ZTOTAL, ZDONECOUNT, ZTOP, ZCANON, ZODD FROM ZLIST')}
      assert lists['Crème Brûlée'] == (3, 12, 2, 7, 'creme brulee', None), lists
      assert lists['Empty'] == (0, 0, 0, None, 'empty', None), lists
      items = [r for r in db.execute('SELECT ZLISTNAME, ZUPPERLISTNAME, ZUPDATE FROM ZITEM ORDER BY Z_PK')]
      assert items == [('Crème Brûlée', 'CRÈME BRÛLÉE', now)] * 3 + [(None, None, now)], items
      assert [r[0] for r in db.execute('SELECT ZUSES FROM ZTAG ORDER BY Z_PK')] == [3, 1]
      """, on: store)
    #expect(p.exitCode == 0, "\(p.stderr)")
  }

  /// The trigger of a `now()` attribute is, character for character, the one a real store holds
  /// for an entity `Item` with a derived `update` (published with the store's schema).
  @Test func aNowTriggerIsTheOneARealStoreHolds() throws {
    let dir = try FileManagerTemp.folder("derived-now")
    defer { FileManagerTemp.remove(dir.path) }
    let (_, store) = try Self.store(dir)
    let real =
      "CREATE TRIGGER Z_DA_ZITEM_Item_update_UPDATE AFTER UPDATE OF Z_OPT ON ZITEM FOR EACH ROW BEGIN UPDATE ZITEM SET ZUPDATE = NSCoreDataNow() WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZITEM', Z_ENT, Z_PK, 'update', ZUPDATE) FROM ZITEM WHERE Z_PK = NEW.Z_PK; END"
    let p = ModelBundles.python(
      "print(db.execute(\"SELECT sql FROM sqlite_master WHERE name = 'Z_DA_ZITEM_Item_update_UPDATE'\").fetchone()[0])",
      on: store)
    #expect(p.stdout.trimmingCharacters(in: .newlines) == real, "\(p.stderr)")
  }

  /// Run by SQLite with Core Data's functions standing in, the triggers keep every value right
  /// through inserts, updates and deletes of either side, and of a join table's rows.
  @Test func theTriggersKeepTheValuesUpToDate() throws {
    let dir = try FileManagerTemp.folder("derived-triggers")
    defer { FileManagerTemp.remove(dir.path) }
    let (_, store) = try Self.store(dir)
    let p = ModelBundles.python(
      """
      \(Self.functions)
      db.execute('INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZDONE, ZPRICE, ZLIST) VALUES (10, 1, 1, 1, 9, 2)')
      assert one("SELECT ZCOUNT, ZTOTAL, ZDONECOUNT, ZTOP FROM ZLIST WHERE Z_PK = 2") == (1, 9, 1, 9)
      assert one('SELECT ZLISTNAME, ZUPPERLISTNAME, ZUPDATE FROM ZITEM WHERE Z_PK = 10') == ('Empty', 'EMPTY', 99.0)
      db.execute("UPDATE ZLIST SET ZNAME = 'Full' WHERE Z_PK = 2")
      assert one('SELECT ZLISTNAME, ZUPPERLISTNAME FROM ZITEM WHERE Z_PK = 10') == ('Full', 'FULL')
      assert one('SELECT ZCANON FROM ZLIST WHERE Z_PK = 2') == ('full',)
      db.execute('UPDATE ZITEM SET ZPRICE = 4, ZLIST = 1 WHERE Z_PK = 10')
      assert one("SELECT ZCOUNT, ZTOTAL, ZDONECOUNT, ZTOP FROM ZLIST WHERE Z_PK = 2") == (0, 0, 0, None)
      assert one("SELECT ZCOUNT, ZTOTAL, ZDONECOUNT, ZTOP FROM ZLIST WHERE Z_PK = 1") == (4, 16, 3, 7)
      db.execute('DELETE FROM ZITEM WHERE Z_PK = 2')
      assert one("SELECT ZCOUNT, ZTOTAL, ZDONECOUNT, ZTOP FROM ZLIST WHERE Z_PK = 1") == (3, 9, 3, 5)
      db.execute('INSERT INTO Z_1TAGS (Z_1ITEMS, Z_3TAGS) VALUES (4, 2)')
      assert [r[0] for r in db.execute('SELECT ZUSES FROM ZTAG ORDER BY Z_PK')] == [3, 2]
      db.execute('DELETE FROM Z_1TAGS WHERE Z_3TAGS = 1')
      assert [r[0] for r in db.execute('SELECT ZUSES FROM ZTAG ORDER BY Z_PK')] == [0, 2]
      """, on: store)
    #expect(p.exitCode == 0, "\(p.stderr)")
  }

  /// `store check` is quiet about the store mapc wrote but for the expression Core Data's store
  /// does not support (`@avg`); it names a trigger dropped, and one not as Core Data makes it.
  @Test func storeCheckComparesTheTriggers() throws {
    let dir = try FileManagerTemp.folder("derived-check")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.store(dir)
    let (code, report) = try StoreCheckTests.check(store, ["--model", bundle.path])
    #expect(code == 1)
    let said = report.findings.filter { $0.severity != "note" }
    #expect(said.map(\.id) == ["check-derived-trigger"])
    #expect(said.first?.message.contains("items.price.@avg") == true && said.first?.column == "ZODD")
    let p = ModelBundles.python(
      """
      db.execute('DROP TRIGGER Z_DA_ZITEM_List_count_PARAMETER_DELETE')
      db.execute('DROP TRIGGER Z_DA_ZLIST_List_canon_UPDATE')
      db.execute('CREATE TRIGGER Z_DA_ZLIST_List_canon_UPDATE AFTER UPDATE OF ZNAME ON ZLIST BEGIN SELECT 1; END')
      db.commit()
      """, on: store)
    try #require(p.exitCode == 0, "\(p.stderr)")
    let (_, again) = try StoreCheckTests.check(store, ["--model", bundle.path])
    let messages = again.findings.filter { $0.id == "check-derived-trigger" }.map(\.message)
    #expect(messages.count == 3)
    #expect(messages.contains { $0.contains("has no Z_DA_ZITEM_List_count_PARAMETER_DELETE") })
    #expect(messages.contains { $0.contains("has Z_DA_ZLIST_List_canon_UPDATE not as Core Data makes it") })
  }
  /// An inferred step over a store holding derived values: into Core Data's SQLite store they are
  /// computed again (as Core Data's migration leaves them) and nothing needs consent; a JSON store
  /// computes nothing, so there they are lost and need consent.
  @Test func aStepRecomputesDerivedValuesInSQLiteAndAsksForThemInJSON() throws {
    let dir = try FileManagerTemp.folder("derived-migrate")
    defer { FileManagerTemp.remove(dir.path) }
    let v2 = Self.model.replacingOccurrences(
      of: "<attribute name=\"done\"",
      with: "<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/>\n        <attribute name=\"done\"")
    let bundle = try ModelBundles.bundle(
      versions: [("D", Self.model), ("D 2", v2)], named: "D", in: dir, current: "D 2")
    let json = dir.appendingPathComponent("s.json")
    try JSONSerialization.data(withJSONObject: [
      "metadata": try ModelBundles.storeMetadata(bundle, version: "D"), "objects": Self.objects,
    ]).write(to: json)
    let store = dir.appendingPathComponent("s.sqlite").path
    let imported = runMapc(["store", "import", json.path, "--model", bundle.path, "-o", store])
    try #require(imported.exitCode == 0, "\(imported.stderr)")
    let out = dir.appendingPathComponent("o.sqlite").path
    let migrated = runMapc(["migrate", "--model", bundle.path, "--store", store, "--output", out])
    #expect(migrated.exitCode == 0, "\(migrated.stderr)")
    let p = ModelBundles.python(
      """
      lists = {r[0]: r[1:] for r in db.execute('SELECT ZNAME, ZCOUNT, ZTOTAL, ZDONECOUNT, ZTOP FROM ZLIST')}
      assert lists['Crème Brûlée'] == (3, 12, 2, 7), lists
      assert [r[0] for r in db.execute('SELECT ZUSES FROM ZTAG ORDER BY Z_PK')] == [3, 1]
      """, on: out)
    #expect(p.exitCode == 0, "\(p.stderr)")
    // The SQLite store exported: a JSON store that holds the derived values.
    let exported = dir.appendingPathComponent("e.json").path
    let export = runMapc(["store", "export", store, "--model", bundle.path, "-o", exported])
    try #require(export.exitCode == 0, "\(export.stderr)")
    let jsonOut = dir.appendingPathComponent("o.json").path
    let refused = runMapc(["migrate", "--model", bundle.path, "--store", exported, "--output", jsonOut])
    #expect(refused.exitCode != 0 && refused.stderr.contains("[migrate-data-loss]"), "\(refused.stderr)")
    #expect(refused.stderr.contains("List.count"), "\(refused.stderr)")
  }
  static let treeModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Node" representedClassName="Node" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="weight" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            <attribute name="childCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="children.@count" usesScalarValueType="YES"/>
            <attribute name="heaviest" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="children.weight.@max" usesScalarValueType="YES"/>
            <attribute name="parentName" optional="YES" attributeType="String" derived="YES" derivationExpression="parent.name"/>
            <relationship name="children" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
            <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node" inverseName="children" inverseEntity="Node"/>
        </entity>
        <entity name="Leaf" representedClassName="Leaf" parentEntity="Node" syncable="YES">
            <attribute name="shelfLabel" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(shelf.label)"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="leaves" inverseEntity="Shelf"/>
        </entity>
        <entity name="Shelf" representedClassName="Shelf" syncable="YES">
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="lightest" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="leaves.weight.@min" usesScalarValueType="YES"/>
            <relationship name="leaves" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Leaf" inverseName="shelf" inverseEntity="Leaf"/>
        </entity>
    </model>
    """

  /// A relationship within one table (a tree) and one whose members are a sub-entity: the values
  /// are those worked out by hand (Core Data's own fill would read the inner row's key and give 0
  /// counts, and its @min trigger names a bare Z_ENT that SQLite refuses: `Specs/sqlite-store.md`
  /// §9), a sub-entity's value is on its rows only, and the member table can be written to.
  @Test func aTreeAndASubEntityGetTheirValuesAndStayWritable() throws {
    let dir = try FileManagerTemp.folder("derived-tree")
    defer { FileManagerTemp.remove(dir.path) }
    let bundle = try ModelBundles.bundle(Self.treeModel, named: "T", in: dir)
    let objects: [String: Any] = [
      "Node": [
        ["id": "Node/1", "name": "root", "weight": 1, "children": ["Node/2", "Leaf/1"], "parent": NSNull()],
        ["id": "Node/2", "name": "mid", "weight": 5, "children": [String](), "parent": "Node/1"],
      ],
      "Leaf": [
        ["id": "Leaf/1", "name": "leaf", "weight": 7, "children": [String](), "parent": "Node/1", "shelf": "Shelf/1"]
      ],
      "Shelf": [["id": "Shelf/1", "label": "Top", "leaves": ["Leaf/1"]]],
    ]
    let store = try ModelBundles.importedStore(bundle, objects: objects, in: dir)
    let p = ModelBundles.python(
      """
      \(Self.functions)
      db.create_function('NSCoreDataToLower', 1, lambda s: None if s is None else s.lower())
      rows = {r[0]: r[1:] for r in db.execute('SELECT ZNAME, ZCHILDCOUNT, ZHEAVIEST, ZPARENTNAME, ZSHELFLABEL FROM ZNODE')}
      assert rows['root'] == (2, 7, None, None), rows
      assert rows['mid'] == (0, None, 'root', None), rows
      assert rows['leaf'] == (0, None, 'root', 'top'), rows
      assert one('SELECT ZLIGHTEST FROM ZSHELF') == (7,)
      ent = one("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Leaf'")[0]
      db.execute('INSERT INTO ZNODE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZWEIGHT, ZPARENT, ZSHELF) VALUES (9, ?, 1, ?, 3, 1, 1)', (ent, 'new'))
      assert one('SELECT ZLIGHTEST FROM ZSHELF') == (3,)
      assert one("SELECT ZCHILDCOUNT, ZHEAVIEST FROM ZNODE WHERE ZNAME = 'root'") == (3, 7)
      db.execute('DELETE FROM ZNODE WHERE Z_PK = 9')
      assert one('SELECT ZLIGHTEST FROM ZSHELF') == (7,)
      """, on: store)
    #expect(p.exitCode == 0, "\(p.stderr)")
  }
}
