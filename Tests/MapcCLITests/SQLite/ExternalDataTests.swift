import Foundation
import MapTestSupport
import Testing

/// Issue 39: Binary values Core Data keeps outside an SQLite store (Specs/sqlite-store.md §5,
/// §7). The store is python's (`external_data_store.py`: inline values, files present, a file
/// missing, two files of the same bytes, a 1.2 MB file, an orphan file and a file of the app's own
/// in the support folder), read back by python3 (values, references and the support folder's
/// files by SHA-256).
@Suite(.enabled(if: mapcExecutableProblem == nil && python3 != nil, "needs the built mapc and python3"))
struct ExternalDataTests {
  /// Photo, with `caption` when asked; with `zeta`, an entity `Zeta` besides (`n`, `title`)
  /// that stands alone (`ExternalDataChunksTests`).
  static func model(caption: Bool, zeta: Bool = false) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        <entity name="Photo" representedClassName="Photo" syncable="YES">
    \(caption ? "        <attribute name=\"caption\" optional=\"YES\" attributeType=\"String\"/>\n" : "")\
            <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="thumb" optional="YES" attributeType="Binary"/>
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
    \(zeta ? Self.zetaEntity : "")</model>
    """
  }

  static let zetaEntity = """
        <entity name="Zeta" representedClassName="Zeta" syncable="YES">
            <attribute name="n" attributeType="Integer 64" defaultValueString="0"/>
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>

    """

  struct Read: Decodable, Equatable {
    struct Image: Decodable, Equatable {
      var kind: String
      var uuid: String?
      var data: String?
    }
    struct Row: Decodable, Equatable {
      var title: String?
      var thumb: String?
      var image: Image?
    }
    var rows: [String: Row]
    var files: [String: String]
    var uuid: String
  }

  /// A folder with the bundle `M.xcdatamodeld` (versions `M`, `M 2` adding `caption`) and
  /// python's store `App.sqlite` of version `M`.
  static func fixture(_ name: String, missing: Bool = true) throws -> (
    dir: URL, bundle: String, store: String, made: Read
  ) {
    let dir = try FileManagerTemp.folder(name)
    let bundle = dir.appendingPathComponent("M.xcdatamodeld")
    for (version, caption) in [("M", false), ("M 2", true)] {
      let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try model(caption: caption).write(
        to: folder.appendingPathComponent("contents"), atomically: false, encoding: .utf8)
    }
    let store = dir.appendingPathComponent("App.sqlite").path
    let made = try read(
      SwiftDataStoreTests.python("external_data_store.py", ["make", store] + (missing ? [] : ["--no-missing"])))
    return (dir, bundle.path, store, made)
  }

  static func read(_ json: String) throws -> Read { try JSONDecoder().decode(Read.self, from: Data(json.utf8)) }
  static func read(store: String) throws -> Read {
    try read(SwiftDataStoreTests.python("external_data_store.py", ["read", store]))
  }

  /// The files of `made`'s support folder its rows name.
  static func referenced(_ made: Read) -> [String: String] {
    let names = Set(made.rows.values.compactMap { $0.image?.kind == "file" ? $0.image?.uuid : nil })
    return made.files.filter { key, _ in names.contains { key == "_EXTERNAL_DATA/\($0)" } }
  }

  @Test func pythonsStoreIsWhatTheTestExpects() throws {
    let f = try Self.fixture("external-fixture")
    defer { try? FileManager.default.removeItem(at: f.dir) }
    #expect(f.made.rows.count == 7)
    #expect(f.made.rows["3"]?.image?.kind == "missing")
    #expect(f.made.rows["2"]?.image?.data == f.made.rows["5"]?.image?.data)
    #expect(Self.referenced(f.made).count == 3)
    #expect(f.made.files.count == 5)
  }

  /// SQLite → SQLite: every value and reference as it was (inline stays inline, a file keeps its
  /// name and bytes, a missing file's reference is carried and counted on standard error); the
  /// new folder holds the files the new store names and nothing else; the source is untouched.
  @Test func convertKeepsEveryValueAndReference() throws {
    let f = try Self.fixture("external-convert")
    defer { try? FileManager.default.removeItem(at: f.dir) }
    let out = f.dir.appendingPathComponent("Copy.sqlite").path
    let r = runMapc(["store", "convert", f.store, "--model", f.bundle, "-o", out])
    try #require(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("1 Binary value kept outside the database names a file that is missing (Photo.image 1)"))
    let copy = try Self.read(store: out)
    #expect(copy.rows == f.made.rows)
    #expect(copy.uuid == f.made.uuid)
    #expect(copy.files == Self.referenced(f.made))
    #expect(try Self.read(store: f.store) == f.made)
  }

  /// An inferred step in place: every value and reference kept, the folder as it was (the
  /// orphan and the app's own file kept), the backup beside its copy of the old folder.
  @Test func inferredStepInPlaceKeepsEveryValueReferenceAndFile() throws {
    let f = try Self.fixture("external-migrate")
    defer { try? FileManager.default.removeItem(at: f.dir) }
    let backup = f.dir.appendingPathComponent("Old.sqlite").path
    let r = runMapc(["migrate", "--model", f.bundle, "--store", f.store, "--to", "M 2", "--backup", backup, "--quiet"])
    try #require(r.exitCode == 0, "\(r.stderr)")
    #expect(r.stderr.contains("(Photo.image 1)"), "\(r.stderr)")
    let migrated = try Self.read(store: f.store)
    #expect(migrated.rows == f.made.rows)
    #expect(migrated.files == f.made.files)
    let old = try Self.read(store: backup)
    #expect(old == Read(rows: f.made.rows, files: f.made.files, uuid: f.made.uuid))
  }

  /// Export needs every value: a missing file is refused, naming the object and attribute, and
  /// nothing is written.
  @Test func exportRefusesAMissingFileNamingObjectAndAttribute() throws {
    let f = try Self.fixture("external-export-missing")
    defer { try? FileManager.default.removeItem(at: f.dir) }
    let json = f.dir.appendingPathComponent("e.json").path
    let r = runMapc(["store", "export", f.store, "--model", f.bundle, "-o", json])
    #expect(r.exitCode == 2)
    #expect(r.stderr.contains("Photo/3"), "\(r.stderr)")
    #expect(r.stderr.contains("image"), "\(r.stderr)")
    #expect(r.stderr.contains("0F6C1D6E-6A55-4C1B-9D3B-2D0F2A64B003, which is missing"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: json))
    #expect(try Self.read(store: f.store) == f.made)
  }

  /// Every file present: export gives each value's bytes (python's), and import writes them
  /// back, inline (a value with no file of its own: Specs/sqlite-store.md §7).
  @Test func exportAndImportKeepEveryValue() throws {
    let f = try Self.fixture("external-export", missing: false)
    defer { try? FileManager.default.removeItem(at: f.dir) }
    let json = f.dir.appendingPathComponent("e.json").path
    let e = runMapc(["store", "export", f.store, "--model", f.bundle, "-o", json])
    try #require(e.exitCode == 0, "\(e.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
    let photos = try #require(((object as? [String: Any])?["objects"] as? [String: Any])?["Photo"] as? [[String: Any]])
    #expect(photos.count == 7)
    for p in photos {
      let id = try #require(p["id"] as? String)
      let row = try #require(f.made.rows[String(id.dropFirst("Photo/".count))])
      #expect(p["image"] as? String == row.image?.data, "\(id)")
    }
    let back = f.dir.appendingPathComponent("Back.sqlite").path
    let i = runMapc(["store", "import", json, "--model", f.bundle, "-o", back])
    try #require(i.exitCode == 0, "\(i.stderr)")
    let imported = try Self.read(store: back)
    for (pk, row) in f.made.rows {
      let got = try #require(imported.rows[pk])
      #expect(got.title == row.title && got.thumb == row.thumb)
      #expect(got.image?.data == row.image?.data, "\(pk)")
      #expect(got.image.map { $0.kind == "inline" } ?? true, "\(pk)")
    }
    #expect(imported.files.isEmpty)
  }

  /// A mapping step (M → M 2, `--mappings`) that copies `image` whole carries every value and
  /// reference; one that compares the value with another refuses the missing file, naming the
  /// object, and leaves the store as it was.
  @Test(arguments: [false, true]) func mappingCopiesAReferenceButCannotReadIt(_ compares: Bool) throws {
    let f = try Self.fixture("external-mapping-\(compares)")
    defer { try? FileManager.default.removeItem(at: f.dir) }
    let mappings = f.dir.appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    let caption = compares ? "TERNARY($source.image == $source.thumb, \"same\", \"other\")" : "$source.title"
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <mappingModel name="MToM2" formatVersion="1">
      <sourceModel path="../M.xcdatamodeld" version="M"/>
      <destinationModel path="../M.xcdatamodeld" version="M 2"/>
      <entityMapping source="Photo" destination="Photo">
        <attribute name="caption">\(caption)</attribute>
        <attribute name="image">$source.image</attribute>
      </entityMapping>
    </mappingModel>
    """.write(to: mappings.appendingPathComponent("MToM2.xml"), atomically: false, encoding: .utf8)
    let r = runMapc([
      "migrate", "--model", f.bundle, "--store", f.store, "--to", "M 2", "--mappings", mappings.path, "--quiet",
    ])
    if compares {
      #expect(r.exitCode == 2, "\(r.stderr)")
      #expect(r.stderr.contains("[run-external-data-missing]"), "\(r.stderr)")
      #expect(r.stderr.contains("error: Photo/3 "), "\(r.stderr)")
      #expect(try Self.read(store: f.store) == f.made)
    } else {
      try #require(r.exitCode == 0, "\(r.stderr)")
      let migrated = try Self.read(store: f.store)
      #expect(migrated.rows == f.made.rows)
      #expect(migrated.files == f.made.files)
    }
  }
}
