import Foundation
import MapRuntime

/// Binary values Core Data keeps outside an SQLite store (attributes that allow external
/// storage; reference §5.3, Specs/sqlite-store.md §5 and §7): the column holds `0x02` + the
/// file's UUID (36 ASCII characters) + `0x00`, the file is
/// `.<store name without extension>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside the store.
enum ExternalData {
  /// `.<name without extension>_SUPPORT` beside the store at `path`.
  static func supportFolder(ofStore path: String) -> String {
    let folder = PathText.folder(of: path)
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    return "\(folder.isEmpty ? "." : folder)/.\(name)_SUPPORT"
  }

  /// The folder of the files: `<support folder>/_EXTERNAL_DATA`.
  static func dataFolder(ofStore path: String) -> String { supportFolder(ofStore: path) + "/_EXTERNAL_DATA" }

  /// The column value that names the file `uuid`.
  static func reference(_ uuid: String) -> [UInt8] { [2] + Array(uuid.utf8) + [0] }

  /// The UUID a column value names: exactly `0x02`, 36 characters of hex digits and `-` in
  /// the 8-4-4-4-12 places, `0x00` (so that it can be no path but a name in the folder).
  static func uuid(ofReference b: some BidirectionalCollection<UInt8>) -> String? {
    guard b.count == 38, b.first == 2, b.last == 0 else { return nil }
    let text = Array(b.dropFirst().prefix(36))
    for (k, c) in text.enumerated() {
      let dash = k == 8 || k == 13 || k == 18 || k == 23
      let hex = (48...57).contains(c) || (65...70).contains(c) || (97...102).contains(c)
      guard dash ? c == UInt8(ascii: "-") : hex else { return nil }
    }
    return String(decoding: text, as: UTF8.self)
  }

  static func missingMessage(folder: String, _ uuid: String) -> String {
    "its data is stored outside the database, in \(folder)/\(uuid), which is missing"
  }

  /// The references to missing files of the store at `path` read with `model`, per entity and
  /// attribute that declares it (its sub-entities' rows counted with it): what a command that carries
  /// them says on standard error. Empty when the model has no attribute that allows external
  /// storage or the store cannot be read (the command's own read reports that).
  static func missingFiles(_ path: String, model: ObjectModel) -> [(entity: String, attribute: String, count: Int)] {
    let schema = CoreDataSchema(model: model)
    var wanted: [(entity: CoreDataSchema.Entity, attribute: String, column: String)] = []
    for e in schema.entities {
      guard let d = model.entity(named: e.name) else { continue }
      for a in d.attributes where a.type == .binary && a.allowsExternalBinaryDataStorage && !a.isTransient {
        if let c = e.columns[a.name] { wanted.append((e, a.name, c)) }
      }
    }
    guard !wanted.isEmpty, let store = try? CoreDataStoreFile(path: path), let tables = try? store.tables() else {
      return []
    }
    let folder = dataFolder(ofStore: path)
    var result: [(entity: String, attribute: String, count: Int)] = []
    for w in wanted where tables[w.entity.table]?.contains(w.column) == true {
      let sql =
        "SELECT \(w.column) FROM \(SQLiteDatabase.quote(w.entity.table)) WHERE substr(\(w.column), 1, 1) = x'02'"
      guard let rows = try? store.database.rows(sql) else { continue }
      var n = 0
      for r in rows {
        guard case .blob(let b)? = r.first, let uuid = uuid(ofReference: b) else { continue }
        if !FileManager.default.fileExists(atPath: "\(folder)/\(uuid)") { n += 1 }
      }
      if n > 0 { result.append((w.entity.name, w.attribute, n)) }
    }
    return result
  }

  /// Every file name a store's rows name in any BLOB column, whatever its model: the files of
  /// `dataFolder` that belong to that store. Read without a model, so a value of another
  /// attribute that happens to have the same 38 bytes counts too (a file kept that need not
  /// be: never one removed that is needed).
  /// The store is opened as a store is read (`CoreDataStoreFile`: in place as immutable, or from
  /// a private copy with its journal), or, if it is no Core Data store, as immutable: a plain
  /// read-only connection to a store in WAL mode writes the `-shm` (and `-wal`) beside it.
  static func referencedFiles(_ path: String) -> Set<String>? {
    let store = try? CoreDataStoreFile(path: path)
    defer { withExtendedLifetime(store) {} }
    guard let db = store?.database ?? (try? SQLiteDatabase(.uri(SQLiteDatabase.immutableURI(path)))),
      let tables = try? db.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
    else { return nil }
    var names = Set<String>()
    for t in tables {
      guard case .text(let table)? = t.first,
        let columns = try? db.rows("PRAGMA table_info(\(SQLiteDatabase.quote(table)))")
      else { continue }
      for c in columns {
        guard c.count > 1, case .text(let column) = c[1] else { continue }
        let q = SQLiteDatabase.quote(column)
        let sql =
          "SELECT \(q) FROM \(SQLiteDatabase.quote(table)) WHERE typeof(\(q)) = 'blob' AND length(\(q)) = 38 AND substr(\(q), 1, 1) = x'02'"
        guard let rows = try? db.rows(sql) else { return nil }
        for r in rows {
          if case .blob(let b)? = r.first, let uuid = uuid(ofReference: b) { names.insert(uuid) }
        }
      }
    }
    return names
  }
}

/// The external files a reader read (`CoreDataReader`): each file's UUID and bytes (the same
/// array the graph holds as the value), so that a writer of an SQLite store writes a value read
/// from a file to a file of the same name again; and the references whose files are missing.
final class ExternalFilesRead: @unchecked Sendable {
  let folder: String
  private(set) var files: [(uuid: String, bytes: [UInt8])] = []
  /// The address of a file's bytes (as the graph holds them) → its index in `files`.
  private(set) var byAddress: [Int: Int] = [:]
  /// The bytes → the indexes of the files that hold them, in reading order.
  private(set) var byContent: [[UInt8]: [Int]] = [:]
  /// References whose files are missing, per `Entity.attribute`.
  var missing: [String: Int] = [:]

  init(folder: String) { self.folder = folder }

  var isEmpty: Bool { files.isEmpty && missing.isEmpty }

  func add(_ uuid: String, _ bytes: [UInt8]) {
    let k = files.count
    files.append((uuid, bytes))
    if let a = Self.address(bytes) { byAddress[a] = k }
    byContent[bytes, default: []].append(k)
  }

  static func address(_ bytes: [UInt8]) -> Int? {
    bytes.isEmpty ? nil : bytes.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
  }
}

/// What a writer does with external data (`CoreDataWriter`): a value read from an external
/// file is written as a reference to a file of the same name (once per file: a second value
/// with the same bytes is written inline), which `SQLiteReplacement` puts in the new store's
/// folder; a reference whose file is missing is written as it is.
struct ExternalFilesWritten {
  let read: ExternalFilesRead?
  private var used = Set<Int>()
  /// The files the new store's rows name, to be written beside it.
  private(set) var files: [(uuid: String, bytes: [UInt8])] = []
  /// Every file name the new store's rows name (the missing ones too).
  private(set) var references = Set<String>()
  /// References carried whose files are missing.
  private(set) var carriedMissing = 0

  init(read: ExternalFilesRead?) { self.read = read }

  /// The name of the file a value was read from, when it was read from one not written yet.
  mutating func claim(_ bytes: [UInt8]) -> String? {
    guard let read, !read.files.isEmpty else { return nil }
    var index: Int?
    if let a = ExternalFilesRead.address(bytes), let k = read.byAddress[a], !used.contains(k),
      read.files[k].bytes.count == bytes.count
    {
      index = k
    } else if let list = read.byContent[bytes] {
      index = list.first { !used.contains($0) }
    }
    guard let k = index else { return nil }
    used.insert(k)
    files.append(read.files[k])
    references.insert(read.files[k].uuid)
    return read.files[k].uuid
  }

  mutating func carry(_ uuid: String) {
    carriedMissing += 1
    references.insert(uuid)
  }
}
