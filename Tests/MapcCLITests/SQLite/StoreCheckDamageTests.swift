import Foundation
import MapTestSupport
import Testing

/// `store check` on damage found by a sweep of unusual model features: rows that break a
/// uniqueness constraint once its index is gone, and a foreign key stored as a REAL. The damage
/// is made by python3's sqlite3; what Core Data makes of it is worked out by hand.
@Suite(.enabled(if: mapcExecutableProblem == nil, "needs the built mapc"))
struct StoreCheckDamageTests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="1">
        <entity name="Account" representedClassName="Account" syncable="YES">
            <attribute name="identifier" optional="YES" attributeType="String"/>
            <relationship name="memos" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Memo" inverseName="account" inverseEntity="Memo"/>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="identifier"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
        </entity>
        <entity name="Memo" representedClassName="Memo" syncable="YES">
            <attribute name="text" optional="YES" attributeType="String"/>
            <relationship name="account" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="memos" inverseEntity="Account"/>
        </entity>
    </model>
    """

  static func store(_ dir: URL) throws -> (bundle: URL, store: String) {
    let bundle = try ModelBundles.bundle(model, named: "U", in: dir)
    let objects: [String: Any] = [
      "Account": [
        ["id": "Account/1", "identifier": "a", "memos": ["Memo/1"]],
        ["id": "Account/2", "identifier": "b", "memos": [String]()],
        ["id": "Account/3", "identifier": "c", "memos": [String]()],
        ["id": "Account/4", "identifier": NSNull(), "memos": [String]()],
        ["id": "Account/5", "identifier": NSNull(), "memos": [String]()],
      ],
      "Memo": [["id": "Memo/1", "text": "x", "account": "Account/1"]],
    ]
    return (bundle, try ModelBundles.importedStore(bundle, objects: objects, in: dir))
  }

  @Test func rowsThatBreakAUniquenessConstraintWithoutItsIndexAreNamed() throws {
    let dir = try FileManagerTemp.folder("unique-duplicates")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.store(dir)
    let p = ModelBundles.python(
      """
      db.execute('DROP INDEX Z_Account_UNIQUE_identifier')
      db.execute("UPDATE ZACCOUNT SET ZIDENTIFIER = 'a' WHERE Z_PK = 3")
      db.commit()
      """, on: store)
    try #require(p.exitCode == 0, "\(p.stderr)")
    let (code, report) = try StoreCheckTests.check(store, ["--model", bundle.path])
    #expect(code == 1)
    let said = report.findings.filter { $0.severity != "note" }
    // Rows 1 and 3 share 'a'; rows 4 and 5 share NULL, which a unique index allows.
    #expect(said.map(\.id) == ["check-layout-index", "check-unique-duplicate"], "\(said.map(\.message))")
    #expect(said.last?.message.hasPrefix("rows 1, 3 of ZACCOUNT share their ZIDENTIFIER") == true)
    let fixed = dir.appendingPathComponent("fixed.sqlite").path
    let repair = runMapc(["store", "repair", store, "--model", bundle.path, "-o", fixed])
    #expect(!repair.stderr.contains("UNIQUE constraint failed"), "\(repair.stderr)")
  }

  /// Core Data reads a key as an integer, so 1.5 names row 1 (as `store export` reads it); 9.5
  /// names row 9, which is not there, and the message shows the stored value.
  @Test func aForeignKeyStoredAsARealIsReadAsCoreDataReadsIt() throws {
    let dir = try FileManagerTemp.folder("real-key")
    defer { FileManagerTemp.remove(dir.path) }
    let (bundle, store) = try Self.store(dir)
    let p = ModelBundles.python("db.execute('UPDATE ZMEMO SET ZACCOUNT = 1.5'); db.commit()", on: store)
    try #require(p.exitCode == 0, "\(p.stderr)")
    let (_, report) = try StoreCheckTests.check(store, ["--model", bundle.path])
    #expect(!report.findings.contains { $0.id == "check-dangling-to-one" })
    let q = ModelBundles.python("db.execute('UPDATE ZMEMO SET ZACCOUNT = 9.5'); db.commit()", on: store)
    try #require(q.exitCode == 0, "\(q.stderr)")
    let (_, again) = try StoreCheckTests.check(store, ["--model", bundle.path])
    let dangling = again.findings.filter { $0.id == "check-dangling-to-one" }
    #expect(dangling.count == 1 && dangling.first?.message.contains("names Z_PK 9.5 of ZACCOUNT") == true)
  }
}
