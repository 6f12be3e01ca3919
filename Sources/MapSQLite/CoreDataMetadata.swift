import MapArchives
import MapRuntime

/// `Z_METADATA`: the store UUID (`Z_UUID`) and the binary property list of `Z_PLIST` with the
/// model's entity version hashes, its version identifiers and the app's own keys.
struct CoreDataMetadata {
  var uuid: String?
  /// Entity name → 32-byte hash, in the plist's order.
  var hashes: [(entity: String, hash: [UInt8])]
  var identifiers: [String]
  /// Every key of the plist, in its order.
  var plist: [PropertyListValue.Entry]

  /// Keys Core Data derives from the model or the file; the writer computes them again, so
  /// they are not carried to a JSON store as app keys.
  static let derivedKeys: Set<String> = [
    "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers",
    "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey", "NSStoreType", "_NSAutoVacuumLevel",
  ]

  static func read(_ store: CoreDataStoreFile) throws(MigrationFailure) -> CoreDataMetadata {
    let rows = try store.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA", what: "Z_METADATA")
    guard rows.count == 1 else {
      throw store.failure("sqlite-metadata", "Z_METADATA has \(rows.count) rows; a Core Data store has one")
    }
    guard let bytes = rows[0][1].blob else {
      throw store.failure("sqlite-metadata", "Z_METADATA.Z_PLIST is \(rows[0][1].typeName), not a binary property list")
    }
    return try parse(uuid: rows[0][0].text, plist: bytes, path: store.path)
  }

  /// The metadata of a `Z_METADATA` row: its `Z_UUID` and the bytes of its `Z_PLIST`; errors
  /// name the store at `path`.
  static func parse(uuid: String?, plist bytes: [UInt8], path: String) throws(MigrationFailure) -> CoreDataMetadata {
    func failure(_ code: String, _ message: String) -> MigrationFailure {
      CoreDataStoreFile.failure(code, message, path)
    }
    let plist: PropertyListValue
    do {
      plist = try BinaryPropertyListReader.read(bytes)
    } catch {
      if error.isExpansionLimit {
        throw failure("limit-expanded-size", "Z_METADATA.Z_PLIST: \(error.message)")
      }
      throw failure("sqlite-metadata", "Z_METADATA.Z_PLIST is not a binary property list: \(error)")
    }
    guard let entries = plist.dictionaryValue else {
      throw failure("sqlite-metadata", "Z_METADATA.Z_PLIST is not a dictionary")
    }
    guard let hashEntries = plist["NSStoreModelVersionHashes"]?.dictionaryValue else {
      throw failure(
        "sqlite-metadata",
        "Z_METADATA.Z_PLIST has no NSStoreModelVersionHashes dictionary, so the store's model version is unknown")
    }
    var hashes: [(String, [UInt8])] = []
    for e in hashEntries {
      guard let h = e.value.dataValue else {
        throw failure("sqlite-metadata", "Z_METADATA.Z_PLIST: NSStoreModelVersionHashes[\(e.key)] is not data")
      }
      hashes.append((e.key, h))
    }
    let identifiers = plist["NSStoreModelVersionIdentifiers"]?.arrayValue?.compactMap(\.stringValue) ?? []
    return CoreDataMetadata(uuid: uuid, hashes: hashes, identifiers: identifiers, plist: entries)
  }

  /// The app's keys and Core Data's own that are not derived from the model (the framework
  /// version), with `NSStoreUUID` from `Z_UUID` first.
  var carriedKeys: [PropertyListValue.Entry] {
    var result: [PropertyListValue.Entry] = []
    if let uuid { result.append(.init("NSStoreUUID", .string(uuid))) }
    return result + plist.filter { !Self.derivedKeys.contains($0.key) && $0.key != "NSStoreUUID" }
  }
}
